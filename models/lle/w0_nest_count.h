// The compute's w0 loop nest counts the compute's iterations (docs/decoding-log.md "w1lo" §A): seven 14-bit
// limits at a 14-bit pitch from w0 bit 62 -- ComputeK4W0, ComputeLimitW0 (levels 1-3), ComputeLimitW0Level4 and,
// in word 1, ComputeLimitW0Levels56 -- whose product is the iterations of the weight nest Nest29
// (models/isa/compute_loop_nest.def) in all 10,840 distinct corpus computes, whichever way the two factor them.
// The executors walk Nest37 / Nest29 (the convolution form all seven levels), so the w0 nest moves no byte of
// its own; a compute whose w0 nest counts other iterations says something not decoded and is refused by name.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// The w0 nest's iterations (the product of its seven limits + 1), saturating at UINT64_MAX.
[[nodiscard]] uint64_t w0NestIterations(std::span<const isa::Word128> words);

// "" where the w0 nest counts Nest29's iterations; else the reason, naming both nests' fields and counts.
[[nodiscard]] std::string w0NestCountProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
