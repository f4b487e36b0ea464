// Where a compute keeps the partial sums of a split K reduction (lle_fields.def ComputePartialSumRow /
// ComputeWrapW10; docs/decoding-log.md "ring9"). A compute whose K groups are counted at a level outside
// its positions (the RingCanary 3 x 3 convolutions: 9 taps at a time, C/4 groups around the positions)
// must keep each position's sums between the groups: the w10 nest walks them, one 256-byte row a
// position from w9[121:110], the taps adding into one row, every counting level above the positions
// returning to the first row, w11 bit 99 switching the walk on. Under w15 bit 12 (ComputeTopLevelPasses, "w15b12")
// the passes are the nest's level 6 instead, adding into the same rows, the counting levels below it positions with a
// row each in the nest's order (MobileNet v2 wo_fc, the PoseNet quant decoders, model_conv's last 1 x 1 convolution). A walk none of whose levels above level 0 counts
// is one pass whose sum is taken whole: its row and idle wraps move no byte ("kstride"). The rung computes each output's whole reduction at once, so these rows move
// no byte; the walk is checked so that a packet saying something else is refused naming the field.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// The rows of the 12-bit row numbering (ComputePartialSumRow's width): P rows from the first must fit.
inline constexpr uint64_t kPartialSumRowSpace = 4096;

// "" where the compute's partial-sum fields describe the decoded walk (from any first row, 0 too: "st13b"), or
// keep none (switch off, row 0, wraps 0);
// else the reason, naming the field and element.
[[nodiscard]] std::string partialSumWalkProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
