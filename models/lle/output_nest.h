#pragma once
// The output address nest of a compute packet (models/isa/compute_loop_nest.def Output37; docs/
// decoding-log.md "gridcopy"): the odometer of loop_nest.h over the narrow 4-byte units a
// multi-position compute writes, one per position, from the compute's output address, level 0
// stepping ComputeOut37Step units and the wrap of slot i - 1 the carry when level i counts. In the
// convolutions' identity computes the step is 1 and the carry of the position level G - T + 1: after the
// row's last position the next grid row. A step of 3 leaves two units between positions for two other
// computes' groups (split_concat's concatenation, docs/decoding-log.md "splitcat" §A).
// A wider position -- `laneGroups` 4-lane groups, a convolution of 8 to 64 lanes -- writes its groups to
// consecutive units, the walk passing each: the level-0 step and every carry apply from the position's
// last group (docs/decoding-log.md "ring128" §B: the RingCanary carries -(positions x G) + G + 1 and
// their 128-channel step 17 put the second 64-lane half of a position 16 units after the first, its
// next position 32 units on). The nest's units are then each position's first group.

#include <cstdint>
#include <span>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/compute_nest.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct OutputNest : ComputeLoopNest {
  // `firstUnit` from the compute's output address (ComputeOutputAt / 4), the levels from w5, the
  // level-0 step from w4; `laneGroups` units a position.
  [[nodiscard]] static OutputNest fromPacket(std::span<const isa::Word128> words, int64_t firstUnit, int64_t laneGroups = 1) {
    const int64_t lastGroup = laneGroups - 1;
    return {computeNestFromPacket(isa::ComputeNest::Output37, words, firstUnit,
                                  static_cast<int64_t>(readField(words, LleField::ComputeOut37Step)) + lastGroup, lastGroup)};
  }
};

}  // namespace coralsim::lle
