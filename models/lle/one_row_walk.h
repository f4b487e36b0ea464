// The one-row partial-sum walk (docs/decoding-log.md "mnv1psum"): a compute that keeps partial sums
// (ComputePartialSumRow not 0) while no slot of its w10 nest carries (every ComputeWrapW10 and
// ComputeW10CarryLow 0, so no forward mark, ComputePartialSumWalkOn 0 among them) keeps them in that one
// row. Its K reduction is split over the nest's level 1 -- the feeding 0x14's Stage14SplitPassPairs is half
// level 1's count in all 21 such corpus computes that count above level 0 (MobileNet v1's last pointwise
// layers, ensemble, nin_cnn) -- so level 0's groups and level 1's passes add into the row, and each
// iteration of the levels above (output lane groups, or positions) runs a whole reduction in it after the
// previous one was taken. Where the levels above level 1 re-read the input (ComputeInputLevelMoves) they
// are output lane groups; where they move it, positions: either way one output's sums at a time.
#pragma once

#include <cstdint>
#include <span>

#include "models/isa/word128.h"

namespace coralsim::lle {

// Whether the compute keeps partial sums in one row: a row, and no carry in any slot of the w10 nest.
[[nodiscard]] bool keepsSumsInOneRow(std::span<const isa::Word128> words);

// The K passes of a one-row walk: level 1's count (ComputeLimitW10[0] + 1).
[[nodiscard]] uint64_t oneRowWalkPasses(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
