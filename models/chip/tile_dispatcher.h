// TileDispatcher: hands the scalar core's tile packets (0x01-0x1a) to the tiles.
//
// Observes (docs/isa.md §2.2) that the tile mask is not 0 and names only tiles the chip has, and
// that the sequence number continues the count — 0 at the first tile packet after a final HALT
// (or a reset), +1 per tile packet, across instruction chunks, modulo the field width. None of
// these is refused (docs/refusal-rules.md: hardware runs programs with tile mask 0, nothing shows
// it checks the others): a violation is returned as a note naming the PC and the word, the count
// continues from the packet's own number, and the packet goes, in order, into the FIFO of every
// existing tile whose mask bit is set (none for mask 0).
//
// Cost model: dispatching costs nothing beyond the packet's issue cycles in the core (its length);
// the dispatcher prices each packet once (tilePacketCycles, models/chip/cost_model.h, with the
// TimingModel given at reset) and the tiles account for their own time (models/chip/tile.h).
#pragma once

#include <cstdint>

#include <systemc>

#include "models/chip/block_interfaces.h"
#include "models/chip/cost_model.h"
#include "models/chip/tile.h"

namespace coralsim::models {

class TileDispatcher : public sc_core::sc_module, public TileDispatchIf {
 public:
  sc_core::sc_vector<sc_core::sc_fifo_out<TilePacket>> toTile;
  sc_core::sc_vector<sc_core::sc_port<TileStatusIf>> tileStatus;

  TileDispatcher(const sc_core::sc_module_name& name, unsigned tileCount);

  void reset();
  void setTiming(const TimingModel& timing) { timing_ = timing; }

  // TileDispatchIf
  [[nodiscard]] std::string dispatch(const DecodedPacket& packet, uint64_t cycle) override;
  [[nodiscard]] bool packetsInFlight() const override;
  [[nodiscard]] uint64_t idleCycle() const override;
  void restartSequence() override { nextSequence_ = 0; }
  [[nodiscard]] uint64_t packetsDispatched() const override { return dispatched_; }

 private:
  TimingModel timing_;
  uint32_t nextSequence_ = 0;
  uint64_t dispatched_ = 0;
};

}  // namespace coralsim::models
