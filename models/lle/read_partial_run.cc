#include "models/lle/read_partial_run.h"

#include <cstdint>
#include <optional>

#include "models/lle/lle_fields.h"
#include "models/lle/read_nest.h"

namespace coralsim::lle {

namespace {

// The unit level below `level`: the innermost counting level stepping one unit; none where no level below it does.
std::optional<unsigned> unitLevelBelow(const ReadNest& nest, unsigned level) {
  for (unsigned i = 0; i < level && i < ReadNest::kLevels; ++i) {
    if (nest.limits[i] != 0 && nest.strides[i] == 1) return i;
  }
  return std::nullopt;
}

}  // namespace

std::string readPartialRunProblem(std::span<const isa::Word128> words) {
  const uint64_t level = readField(words, LleField::Stage13PartialRunLevel);
  if (level == 0) return "";
  if (level >= ReadNest::kLevels) return fieldText(LleField::Stage13PartialRunLevel, level) + ": the read's nest has levels 0..4";
  const ReadNest nest = ReadNest::fromPacket(words);
  // L is the outermost counting level in every corpus read with the triple (33 / 33): a level above it counting would
  // repeat L's "last" iteration, which is not decoded; L itself must count (a level that runs once has no last iteration
  // to mark apart from its first).
  for (unsigned above = static_cast<unsigned>(level) + 1; above < ReadNest::kLevels; ++above) {
    if (nest.limits[above] == 0) continue;
    return fieldText(LleField::Stage13PartialRunLevel, level) + " with level " + std::to_string(above) +
           " of the read's nest counting: every corpus read with the mark has L = its outermost counting level (33 / 33); "
           "which iteration of a level above L holds the partial runs is not decoded";
  }
  if (nest.limits[level] == 0) {
    return fieldText(LleField::Stage13PartialRunLevel, level) + " while level " + std::to_string(level) +
           " of the read's nest does not count: every corpus read with the mark has L = its outermost counting level (33 / 33)";
  }
  const std::optional<unsigned> unit = unitLevelBelow(nest, static_cast<unsigned>(level));
  if (!unit) {
    return fieldText(LleField::Stage13PartialRunLevel, level) +
           ": no counting level below it steps one unit (Stage13Step, Stage13Wrap): whose runs are partial is not decoded";
  }
  const uint64_t limit = nest.limits[*unit];
  const uint64_t run = readField(words, LleField::Stage13PartialRun);
  const uint64_t rest = readField(words, LleField::Stage13PartialRunRest);
  if (run > limit || rest != limit - run) {
    return fieldText(LleField::Stage13PartialRunRest, rest) + " with " + fieldText(LleField::Stage13PartialRun, run) +
           " does not split the limit " + std::to_string(limit) + " of level " + std::to_string(*unit) +
           ", the read's unit level, into a run and its rest (33 / 33 corpus reads do; docs/decoding-log.md \"w2k13\")";
  }
  return "";
}

}  // namespace coralsim::lle
