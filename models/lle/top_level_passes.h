// The compute's w15 bit 12 (lle_fields.def ComputeTopLevelPasses; docs/decoding-log.md "w15b12"): set in every corpus
// compute whose w10 nest walks partial-sum rows (a slot's carry positive, the forward marks of w10_forward_marks.h)
// and counts its level 6 -- the K reduction split into level-6 passes adding into the rows the levels below walk -- and
// clear in every other (208 set, 11,201 clear of 11,409; 154 clear ones count level 6 without a walk). The rung reads the
// walk (partial_sum_walk.h, which takes the bit as that walk's switch); a bit that disagrees with the nest is refused
// naming both, where it would matter which of the two the hardware follows.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where ComputeTopLevelPasses is set exactly when some slot of the w10 nest carries forward and its level 6 counts;
// else the reason, naming the bit, the level-6 limit and the carries.
[[nodiscard]] std::string topLevelPassesProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
