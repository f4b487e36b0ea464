#pragma once
// A compute packet's loop nest (models/isa/compute_loop_nest.def) as the address odometer of
// loop_nest.h: the limits of its seven slots, and each slot's wrap read as the carry applied when the
// next level counts (docs/decoding-log.md "gridcopy" §A for Output37, "convmac" §B for Nest37 and
// Nest29: the same convention walks the convolution's taps over the padded grid and its weights).

#include <array>
#include <cstdint>
#include <span>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/loop_nest.h"

namespace coralsim::lle {

using ComputeLoopNest = LoopNest<isa::kComputeNestLevels>;

// `firstUnit` is where the walk starts (the packet's address field for the nest, or 0); level 0
// steps `step` units (one in the input and weight nests; the output nest's is a field, output_nest.h);
// `carryFrom` units more than the levels' walk when each carry applies (a wide output position's last
// lane group, output_nest.h).
[[nodiscard]] inline ComputeLoopNest computeNestFromPacket(isa::ComputeNest id, std::span<const isa::Word128> words,
                                                           int64_t firstUnit, int64_t step = 1, int64_t carryFrom = 0) {
  const isa::ComputeNestDef& def = isa::computeNestDef(id);
  std::array<int64_t, isa::kComputeNestLevels - 1> carries{};
  const uint64_t sign = uint64_t{1} << (def.wrapWidth - 1);
  for (unsigned i = 1; i < isa::kComputeNestLevels; ++i) {
    const uint64_t raw = isa::readPacketBits(words, def.wrapLsb(i - 1), def.wrapWidth);
    carries[i - 1] = static_cast<int64_t>((raw ^ sign) - sign) + carryFrom;  // sign-extended
  }
  return ComputeLoopNest::fromCarries(firstUnit, isa::readComputeNestLimits(id, words), step, carries);
}

}  // namespace coralsim::lle
