// The convolution's weight walk over its taps (docs/decoding-log.md "conv7"): the weight nest (Nest29) is an
// odometer over weight groups (4 x lanes bytes each) as the input nest (Nest37) is over input units, its slots'
// wraps the carries applied when the level above counts (compute_nest.h). A level of the reduction -- a tap column,
// a tap row, the K groups -- carries +1, the next group after the walk below; a level of positions (or of K passes
// or output blocks, whose weights the stream brings) carries -(groups - 1), back to the first group. So the
// reduction's groups are read one after another, tap by tap in the nest's order: model_conv's first 7 x 7
// convolution (3 channels in one 4-byte group, ComputeK4W0 0) reads group 7 ky + kx for tap (ky, kx), its 32-channel
// ones group 8 (7 ky + kx) + k. The older reading "every wrap = -ComputeK4W0" (lle_relations.def) is the case where
// Nest29's level 0 holds the whole reduction.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where Nest29's counting levels are first the reduction's -- each steps the groups of the levels below it
// (its carry +1: level 0 steps one group, ComputeNest29CarryLow 0 at the slots that apply) -- then levels that stay
// (stride 0: carry -(groups - 1)); else the reason, naming the wrap field and element of the first level that breaks it.
[[nodiscard]] std::string weightGroupWalkProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
