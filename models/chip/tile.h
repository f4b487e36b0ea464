// Tile: one of the 16 tiles of the 4 x 4 grid. In the protocol rung a tile accepts the tile
// packets addressed to it, in order, from its FIFO and accounts for their time; the datapath
// issues give it memories, TTU, MAC slice and NLU.
//
// Cost model (chip cycles): a packet issued at cycle c starts when the tile is free and the
// packet is there, and keeps the tile busy for its length in words:
//   start = max(c, busyUntil);  busyUntil = start + packet.length   [Stage A guess]
#pragma once

#include <cstdint>
#include <map>
#include <ostream>

#include <systemc>

#include "models/isa/opcodes.h"

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

  [[nodiscard]] unsigned index() const { return index_; }
  [[nodiscard]] uint64_t busyUntil() const override { return busyUntil_; }
  [[nodiscard]] uint64_t packetsAccepted() const { return packetsAccepted_; }
  [[nodiscard]] uint32_t lastSequence() const { return lastSequence_; }

  // The tile's bank of the CSR tile window (0x40000-0x43FFF), selected through tileconfig0.
  [[nodiscard]] uint64_t csr(uint32_t address) const;
  void setCsr(uint32_t address, uint64_t value) { csrs_[address] = value; }

 private:
  void accept();  // SC_METHOD on the FIFO's data_written event

  unsigned index_;
  uint64_t busyUntil_ = 0;
  uint64_t packetsAccepted_ = 0;
  uint32_t lastSequence_ = 0;
  std::map<uint32_t, uint64_t> csrs_;
};

}  // namespace coralsim::models
