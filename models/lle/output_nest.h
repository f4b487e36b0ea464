#pragma once
// The output address nest of a compute packet (models/isa/compute_loop_nest.def Output37; docs/
// decoding-log.md "gridcopy"): the odometer of loop_nest.h over the narrow 4-byte units a
// multi-position compute writes, one per position, from the compute's output address, level 0
// stepping ComputeOut37Step units and the wrap of slot i - 1 the carry when level i counts. In the
// convolutions' identity computes the step is 1 and the carry of the position level G - T + 1: after the
// row's last position the next grid row. A step of 3 leaves two units between positions for two other
// computes' groups (split_concat's concatenation, docs/decoding-log.md "splitcat" §A).

#include <cstdint>
#include <span>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/compute_nest.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct OutputNest : ComputeLoopNest {
  // `firstUnit` from the compute's output address (ComputeOutputAt / 4), the levels from w5, the
  // level-0 step from w4.
  [[nodiscard]] static OutputNest fromPacket(std::span<const isa::Word128> words, int64_t firstUnit) {
    return {computeNestFromPacket(isa::ComputeNest::Output37, words, firstUnit,
                                  static_cast<int64_t>(readField(words, LleField::ComputeOut37Step)))};
  }
};

}  // namespace coralsim::lle
