// The compute's w15 bit 10 (lle_fields.def ComputeLevelFourPasses; docs/decoding-log.md "mdense"): set in every corpus
// compute whose w10 nest walks partial-sum rows (a slot's carry positive, the forward marks of w10_forward_marks.h)
// and counts K passes at its level 4 -- level 4 counts and its row stride (its slot-3 wrap less the rows the levels
// below walked) is 0, the passes adding into the rows the levels below walk -- and clear in every other (82 set,
// 11,327 clear of 11,409). The rung reads the walk (partial_sum_walk.h, which takes the bit as that walk's switch); a
// bit that disagrees with the nest is refused naming both, where it would matter which of the two the hardware follows.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// The w10 nest's row stride of each level (level 0: 0): the carry applied when the level counts (its slot below's
// wrap) less what the levels below it walked -- the reading partial_sum_walk.cc checks the walks with.
[[nodiscard]] std::array<int64_t, 7> w10RowStrides(std::span<const isa::Word128> words);

// "" where ComputeLevelFourPasses is set exactly when some slot of the w10 nest carries forward and its level 4 counts
// with row stride 0; else the reason, naming the bit, the level-4 limit, its stride and the carries.
[[nodiscard]] std::string levelFourPassesProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
