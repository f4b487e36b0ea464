// Tile: one of the 16 tiles of the 4 x 4 grid. In the protocol rung a tile accepts the tile
// packets addressed to it, in order, from its FIFO and accounts for their time; the datapath
// issues give it memories, TTU, MAC slice and NLU.
//
// Cost model (chip cycles). A tile has one busy time per functional unit (models/chip/cost_model.h
// TileUnit: the MAC array, the NLU, one engine per DMA opcode); units work concurrently and meet at
// tile fences (0x1a). A packet issued at cycle c to unit u costs its cycles (tilePacketCycles, set
// by the dispatcher):
//   start = max(c, unitBusy[u], fence);  unitBusy[u] = start + cost
//   tile fence at c:  fence = max(c, every unitBusy)
//   busyUntil = max(fence, every unitBusy)
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <ostream>

#include <systemc>

#include "models/chip/cost_model.h"
#include "models/isa/opcodes.h"

namespace coralsim::traces {
class Tracer;
}  // namespace coralsim::traces

namespace coralsim::models {

// Depth of each tile's packet FIFO. The scalar core synchronises before every issue, so a tile
// never holds more than one undrained packet; the depth only bounds the channel.
inline constexpr unsigned kTileFifoDepth = 4;

struct TilePacket {
  uint32_t pc = 0;         // word index in its chunk
  isa::Opcode opcode{};
  uint8_t length = 0;      // words
  uint16_t mask = 0;
  uint32_t sequence = 0;
  uint64_t issueCycle = 0;  // chip cycle at which the scalar core issued it
  TileUnit unit = TileUnit::kFence;  // which unit of the tile executes it
  uint64_t costCycles = 0;           // tilePacketCycles (models/chip/cost_model.h)
  bool passThrough = false;          // a compute without a layer's epilogue (models/chip/pass_through_compute.h)

  friend bool operator==(const TilePacket&, const TilePacket&) = default;
};
std::ostream& operator<<(std::ostream& os, const TilePacket& packet);  // sc_fifo needs it

// What the dispatcher may ask a tile.
class TileStatusIf : public virtual sc_core::sc_interface {
 public:
  [[nodiscard]] virtual uint64_t busyUntil() const = 0;
};

class Tile : public sc_core::sc_module, public TileStatusIf {
 public:
  SC_HAS_PROCESS(Tile);
  sc_core::sc_fifo_in<TilePacket> in;

  Tile(const sc_core::sc_module_name& name, unsigned index);

  void reset();
  // Trace events (one span per packet on this tile's track, NLU packets on its NLU track); null: off.
  void setTracer(const traces::Tracer* tracer) { tracer_ = tracer; }
  // VCD signals: <prefix>.packets (accepted), .sequence (last), .fence (cycle).
  void traceSignals(sc_core::sc_trace_file* file, const std::string& prefix) const;

  [[nodiscard]] unsigned index() const { return index_; }
  [[nodiscard]] uint64_t busyUntil() const override;
  [[nodiscard]] uint64_t packetsAccepted() const { return packetsAccepted_; }
  [[nodiscard]] uint32_t lastSequence() const { return lastSequence_; }

  // The tile's bank of the CSR tile window (0x40000-0x43FFF), selected through tileconfig0.
  [[nodiscard]] uint64_t csr(uint32_t address) const;
  void setCsr(uint32_t address, uint64_t value) { csrs_[address] = value; }

 private:
  void accept();  // SC_METHOD on the FIFO's data_written event
  void traceSpan(const TilePacket& packet, uint64_t start) const;

  unsigned index_;
  std::array<uint64_t, kTileUnitCount> unitBusy_{};  // per TileUnit (the fence has none)
  uint64_t fence_ = 0;
  uint64_t packetsAccepted_ = 0;
  uint32_t lastSequence_ = 0;
  std::map<uint32_t, uint64_t> csrs_;
  const traces::Tracer* tracer_ = nullptr;
};

}  // namespace coralsim::models
