#include "models/lle/w0_last_run.h"

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

// The corpus's last-iteration levels: 1 (the beats of the softmax passes and their normalisations, 18 0x01-layout packets and
// 5 0x02s) and 2 (the co-compiled classifiers' K passes, 32). Level 3 and above, never seen.
constexpr uint64_t kHighestLevelSeen = 2;

}  // namespace

uint64_t w0LastRunShortfall(std::span<const isa::Word128> words) {
  if (readField(words, LleField::ComputeW0LastRunLevel) == 0) return 0;
  return readField(words, LleField::ComputeK4W0) - readField(words, LleField::ComputeW0LastRun);
}

std::string w0LastRunProblem(std::span<const isa::Word128> words) {
  const uint64_t level = readField(words, LleField::ComputeW0LastRunLevel);
  const uint64_t run = readField(words, LleField::ComputeW0LastRun);
  if (level == 0) {
    if (run == 0) return "";
    return fieldText(LleField::ComputeW0LastRun, run) +
           " while ComputeW0LastRunLevel (word 1 bits 61:60) = 0: a run without its level is never seen (11,368 / 11,368 corpus 0x01s)";
  }
  const std::string said = fieldText(LleField::ComputeW0LastRunLevel, level);
  if (level > kHighestLevelSeen) {
    return said + ": a shorter last iteration of w0 nest level " + std::to_string(level) +
           " is not decoded (every corpus one names level 1 or 2, docs/decoding-log.md \"smx\")";
  }
  // Level L's limit: ComputeLimitW0[L - 1] (levels 1-3); it must count, or its last iteration is its first.
  const uint64_t limit = readField(words, LleField::ComputeLimitW0, static_cast<unsigned>(level - 1));
  if (limit == 0) {
    return said + " while ComputeLimitW0[" + std::to_string(level - 1) + "] = 0: a level that runs once has no last iteration apart from its first";
  }
  // The levels between 0 and L run once in every corpus compute with L = 2 (32 / 32): which of their iterations would be short
  // otherwise is not decoded.
  for (uint64_t between = 1; between < level; ++between) {
    if (const uint64_t count = readField(words, LleField::ComputeLimitW0, static_cast<unsigned>(between - 1)); count != 0) {
      return said + " while ComputeLimitW0[" + std::to_string(between - 1) + "] = " + std::to_string(count) +
             ": a level counting between level 0 and L is never seen (32 / 32 corpus computes with L = 2 run it once)";
    }
  }
  const uint64_t groups = readField(words, LleField::ComputeK4W0);
  if (run >= groups) {
    return fieldText(LleField::ComputeW0LastRun, run) + " with " + said + " is not below ComputeK4W0 = " + std::to_string(groups) +
           ": a last iteration at least as long as the others is written with level 0 in every corpus compute";
  }
  return "";
}

bool w0LastRunEndsTheWalk(std::span<const isa::Word128> words) {
  const uint64_t level = readField(words, LleField::ComputeW0LastRunLevel);
  for (uint64_t above = level + 1; above <= fieldDef(LleField::ComputeLimitW0).count; ++above) {
    if (readField(words, LleField::ComputeLimitW0, static_cast<unsigned>(above - 1)) != 0) return false;
  }
  return readField(words, LleField::ComputeLimitW0Level4) == 0 && readField(words, LleField::ComputeLimitW0Levels56, 0) == 0 &&
         readField(words, LleField::ComputeLimitW0Levels56, 1) == 0 && readField(words, LleField::ComputeLimitW0Level7) == 0;
}

uint64_t max02WalkGroups(std::span<const isa::Word128> words) {
  const uint64_t beatGroups = readField(words, LleField::Max02BeatGroups);
  const uint64_t whole = (readField(words, LleField::Max02Beats) + 1) * (beatGroups + 1);
  if (readField(words, LleField::Max02LastBeatLevel) == 0) return whole;
  return whole - (beatGroups - readField(words, LleField::Max02LastBeatGroups));
}

std::string max02LastBeatProblem(std::span<const isa::Word128> words) {
  const uint64_t level = readField(words, LleField::Max02LastBeatLevel);
  const uint64_t run = readField(words, LleField::Max02LastBeatGroups);
  if (level == 0) {
    if (run == 0) return "";
    return fieldText(LleField::Max02LastBeatGroups, run) +
           " while Max02LastBeatLevel (word 1 bits 61:60) = 0: a run without its level is never seen (37 / 37 whole-beat corpus passes)";
  }
  const std::string said = fieldText(LleField::Max02LastBeatLevel, level);
  if (level != 1) return said + ": every corpus pass with a shorter last iteration names level 1, the beats (5 / 5); another level is not decoded";
  if (readField(words, LleField::Max02Beats) == 0) return said + " while Max02Beats = 0: one beat has no last beat apart from its first";
  const uint64_t beatGroups = readField(words, LleField::Max02BeatGroups);
  if (run >= beatGroups) {
    return fieldText(LleField::Max02LastBeatGroups, run) + " with " + said + " is not below Max02BeatGroups = " + std::to_string(beatGroups) +
           ": a last beat as long as the others is written with level 0 in every corpus pass";
  }
  return "";
}

}  // namespace coralsim::lle
