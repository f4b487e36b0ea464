#pragma once
// The output address nest of a compute packet (models/isa/compute_loop_nest.def Output37; docs/
// decoding-log.md "gridcopy"): the odometer of loop_nest.h over the narrow 4-byte units a
// multi-position compute writes, one per position, from the compute's output address, level 0
// stepping one unit and the wrap of slot i - 1 the carry when level i counts. In the convolutions'
// identity computes the carry of the position level is G - T + 1: after the row's last position the
// next grid row.

#include <array>
#include <cstdint>
#include <span>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/loop_nest.h"

namespace coralsim::lle {

struct OutputNest : LoopNest<isa::kComputeNestLevels> {
  // `firstUnit` from the compute's output address (ComputeOutputAt / 4), the levels from w5.
  [[nodiscard]] static OutputNest fromPacket(std::span<const isa::Word128> words, int64_t firstUnit) {
    const isa::ComputeNestDef& def = isa::computeNestDef(isa::ComputeNest::Output37);
    std::array<int64_t, kLevels - 1> carries{};
    const uint64_t sign = uint64_t{1} << (def.wrapWidth - 1);
    for (unsigned i = 1; i < kLevels; ++i) {
      const uint64_t raw = isa::readPacketBits(words, def.wrapLsb(i - 1), def.wrapWidth);
      carries[i - 1] = static_cast<int64_t>((raw ^ sign) - sign);  // sign-extended
    }
    return {fromCarries(firstUnit, isa::readComputeNestLimits(isa::ComputeNest::Output37, words), 1, carries)};
  }
};

}  // namespace coralsim::lle
