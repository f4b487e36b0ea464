// The second nest of a read a softmax pass takes (docs/decoding-log.md "nin16"): the taker's beat walk. In the 42 corpus reads
// an opcode-0x02 / 0x03 compute takes -- the 38 kept for it (Stage13FeedsNormalise) and the 4 sent into the sum
// (Stage13SentIntoSum) -- the second nest's level 0 counts the taker's groups a beat (Stage13Repeats = Max02BeatGroups /
// ComputeK4W0) and its level 1 the beats (Stage13StreamBeats = Max02Beats / ComputeLimitW0[0]), and where the read's groups
// are not a whole number of beats the last beat is short: the triple Stage13RepeatLastRun / LastRunLevel / LastShort, the
// mesh sides' layout ("short18") at the same distance above the nest's level-0 limit, with L = 1 (the beats). So the walk
// covers (Stage13Repeats + 1) x (Stage13StreamBeats + 1) - Stage13RepeatLastShort groups, the read's own (42 / 42). The walk
// paces the stream; it moves no byte (the taker reads the read's bytes in order), so it is checked, not executed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

// "" where the read carries no shorter last beat (Stage13RepeatLastRunLevel 0 or no second nest) or where its triple splits the
// second nest's level-0 limit in the last iteration of a counting level 1; else the refusal, naming the field.
[[nodiscard]] std::string readBeatWalkLastRunProblem(std::span<const isa::Word128> words);

// The groups the second nest's beat walk covers: (Stage13Repeats + 1) x (Stage13StreamBeats + 1), less Stage13RepeatLastShort
// where the last beat is short. Only for a read with the one-level second nest (Stage13RepeatOn, Stage13RepeatLevel1On clear)
// whose triple passed readBeatWalkLastRunProblem.
[[nodiscard]] uint64_t readBeatWalkGroups(std::span<const isa::Word128> words);

// "" where Stage13SentIntoSum is clear or the read is of the form the 4 corpus reads with it share (sent, Stage13Route 1, 1;
// marked for a max pass; a one-level second nest, the sum's beat walk); else the refusal, naming the field.
[[nodiscard]] std::string sentIntoSumProblem(std::span<const isa::Word128> words);

// Before the run (LleRung::checkChunk): "" where the read at `index` carries no Stage13SentIntoSum or where the next compute on
// every tile of its mask is one opcode-0x03 compute on the read's tiles naming its channel (ComputeStreamTag) whose beat walk
// (ComputeK4W0, ComputeLimitW0[0]) is the read's second nest (Stage13Repeats, Stage13StreamBeats); else why not.
[[nodiscard]] std::string sentIntoSumTakerProblem(std::span<const models::DecodedPacket> packets, size_t index);

}  // namespace coralsim::lle
