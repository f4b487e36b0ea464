// ComputeObserver: what the lle rung's compute packets (0x01) wrote, for checkers that live outside
// the chip (sim/layer_check/ compares it with the CPU twin's intermediate tensors, layer by layer).
// The rung calls it on the simulator thread after each tile's lane results reached its addressed
// narrow memory; an observer only reads. Set through ChipConfig::lleComputeObserver; null (the
// default) costs one null check per compute packet.
#pragma once

#include <cstdint>
#include <span>

#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

class ComputeObserver {
 public:
  virtual ~ComputeObserver() = default;

  // Tile `tile` of compute packet `packet` wrote `lanes` (one byte per output lane, uint8 as the
  // device holds it) at `narrowAddress` (ComputeOutputAt) in its narrow memory. Called once per
  // tile of the packet's mask, tiles in ascending order.
  virtual void computed(const models::DecodedPacket& packet, unsigned tile, uint64_t narrowAddress,
                        std::span<const uint8_t> lanes) = 0;
};

}  // namespace coralsim::lle
