// The w10 nest's level-0 mark (lle_fields.def ComputeW10Level0Once, w9 bit 122; docs/decoding-log.md "w9b122"):
// set in exactly the corpus computes whose w10 nest runs its level 0 once (ComputeK4W10 = 0), clear in all others
// (11,409 / 11,409). The rung reads the limit, not the mark, so a compute whose mark and limit disagree -- which no
// corpus compute does, and where the bytes would depend on which of the two the hardware follows -- is refused
// naming both fields.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where ComputeW10Level0Once says what ComputeK4W10 says; else the reason, naming both fields.
[[nodiscard]] std::string w10Level0OnceProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
