// ComputeObserver: what the lle rung's compute packets (0x01) wrote, for checkers that live outside
// the chip (sim/layer_check/ compares it with the CPU twin's intermediate tensors, layer by layer).
// The rung calls it on the simulator thread after each tile's results reached its addressed narrow
// memory; an observer only reads. Set through ChipConfig::lleComputeObserver; null (the default)
// costs one null check per compute packet (the report is built only behind that check).
#pragma once

#include <cstdint>
#include <span>

#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

// Which executed form wrote (models/lle/README.md): the reductions that compute a layer's output
// (Dense, convolution — depthwise and the broadcast-fed 8-lane ones included —, element-wise, the
// element-wise walk) and the identity copies that stage a layer's input in a padded grid (one-byte
// and 4-byte; their bytes are the input image, requantised through the kept 4 x 4 block).
enum class ComputeForm : uint8_t {
  kSinglePosition,    // Dense: one position, 64 lanes
  kConvolution,       // conv_compute.h: positions along Output37, 4 x (ComputeLaneGroups + 1) lanes side by side
  kElementWise,       // positions of 4 lanes (8 bytes through an NLU table) one after the other
  kElementWiseWalk,   // one 4-lane unit an iteration along Output37
  kIdentityCopy,      // one 4-byte unit a position along Output37 (one-byte elements)
  kRingIdentityCopy,  // one 4-byte unit a K group along Output37 with the groups innermost
};

[[nodiscard]] constexpr bool stagesInput(ComputeForm form) {
  return form == ComputeForm::kIdentityCopy || form == ComputeForm::kRingIdentityCopy;
}

// What one tile of one compute packet wrote: `positions` output positions in the order the packet's
// output nest wrote them, position p's `bytesPerPosition` result bytes (one a lane, uint8 as the
// device holds them) at narrow byte address `positionAt[p]`, copied in `bytes[p * bytesPerPosition ..]`.
struct ComputeWrite {
  ComputeForm form = ComputeForm::kSinglePosition;
  unsigned bytesPerPosition = 0;
  std::span<const uint64_t> positionAt;
  std::span<const uint8_t> bytes;  // positionAt.size() x bytesPerPosition
  // Per position, 1 where some byte of it no packet of the run wrote (undefined, "convx": a convolution
  // over unstaged input); empty when every position is defined. Its bytes are whatever the memory held.
  std::span<const uint8_t> undefined = {};
};

class ComputeObserver {
 public:
  virtual ~ComputeObserver() = default;

  // Tile `tile` of compute packet `packet` wrote `write`. Called once per tile of the packet's mask,
  // tiles in ascending order (a form that waits for its input reports when it runs).
  virtual void computed(const models::DecodedPacket& packet, unsigned tile, const ComputeWrite& write) = 0;
};

}  // namespace coralsim::lle
