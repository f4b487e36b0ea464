// The w0 nest's shorter last iteration (docs/decoding-log.md "smx"): w1[59:46] a run and w1[61:60] a level L after the nest's
// eight limits, in 0x01's layout (ComputeW0LastRun / ComputeW0LastRunLevel, and 0x03 and the max pool laid out as it) and in the
// softmax-form 0x02 at the same bits (Max02LastBeatGroups / Max02LastBeatLevel). In the last iteration of level L, level 0 runs
// run + 1 times instead of its limit + 1: the 0x13 second nest's triple ("nin16") without its rest, which is the limit less the
// run. Corpus: L = 1 in the softmax passes whose groups are not a whole number of beats and in their 0x01 normalisations (a short
// last beat), L = 2 in the co-compiled classifiers whose K passes are level 2 with level 1 run once (a short last K pass; the
// 0x12 stream they take is that short, "mnv1d" §B). Another level, or a run as long as the limit, is never seen: refused.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// The level-0 iterations the last iteration of level L drops: limit - run where ComputeW0LastRunLevel is not 0, else 0.
// Only for a packet whose w0LastRunProblem is "".
[[nodiscard]] uint64_t w0LastRunShortfall(std::span<const isa::Word128> words);

// 0x01's layout (0x01, 0x03, the max pool's 0x02): "" where the level is 0 with run 0, or where level L (1 or 2) counts (its
// limit above 0), every level between 0 and L runs once and the run is below ComputeK4W0; else the refusal, naming the field.
[[nodiscard]] std::string w0LastRunProblem(std::span<const isa::Word128> words);

// True where the levels above ComputeW0LastRunLevel all run once (ComputeLimitW0 above L, levels 4-7): the last iteration of
// level L is then the end of the walk, and the iterations its shorter run drops are the walk's last w0LastRunShortfall ones
// (levels between 0 and L run once, w0LastRunProblem). The co-compiled classifiers' 32 computes: L = 2, nothing above.
[[nodiscard]] bool w0LastRunEndsTheWalk(std::span<const isa::Word128> words);

// The groups a softmax-form 0x02's walk covers: (Max02Beats + 1) x (Max02BeatGroups + 1), less the last beat's shortfall.
// Only for a packet whose max02LastBeatProblem is "".
[[nodiscard]] uint64_t max02WalkGroups(std::span<const isa::Word128> words);

// The softmax-form 0x02: "" where Max02LastBeatLevel is 0 with Max02LastBeatGroups 0, or 1 with more than one beat and a last
// beat shorter than the others; else the refusal, naming the field.
[[nodiscard]] std::string max02LastBeatProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
