#include "models/lle/output_partial_pass.h"

#include <cstdint>

#include "models/isa/compute_loop_nest.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

// The highest Output37 level that counts (limit > 0), -1 where none does.
int highestCountingOutputLevel(std::span<const isa::Word128> words) {
  const auto limits = isa::readComputeNestLimits(isa::ComputeNest::Output37, words);
  int highest = -1;
  for (unsigned level = 0; level < limits.size(); ++level)
    if (limits[level] != 0) highest = static_cast<int>(level);
  return highest;
}

std::string codesText(const OutputPartialPassCodes& codes) {
  return "ComputeOutPartialUnits (word 7 bits 25:22) = " + std::to_string(codes.partialUnits) +
         ", ComputeOutLevelsWalked (word 7 bits 42:40) = " + std::to_string(codes.levelsWalked) +
         ", ComputeOutPartialRestPairs (word 7 bits 49:46) = " + std::to_string(codes.partialRestPairs);
}

}  // namespace

OutputPartialPassCodes expectedOutputPartialPassCodes(std::span<const isa::Word128> words) {
  const uint64_t units = readField(words, LleField::ComputeLaneGroups) + 1;
  const uint64_t step = readField(words, LleField::ComputeOut37Step);
  // The step is applied from a position's last unit: the position is N - 1 + step units long, k of them past its
  // whole passes. The 17-bit step is read unsigned; (step - 1) mod N of its 17-bit value is what every corpus compute
  // agrees with (the large "negative" steps of the PoseNet transposes never count above level 0).
  const uint64_t beyond = (step + units - 1) % units;
  const int highest = highestCountingOutputLevel(words);
  if (beyond == 0 || beyond % 2 != 0 || highest < 1) return {};
  return {beyond - 1, static_cast<uint64_t>(highest) + 1, (units - beyond) / 2};
}

std::string outputPartialPassProblem(std::span<const isa::Word128> words) {
  const LleFieldDef& last = fieldDef(LleField::ComputeOutPartialRestPairs);
  if (words.size() <= fieldDef(LleField::ComputeOut37Step).lsb / 128 + 1 || words.size() <= last.lsb / 128) return "";
  const OutputPartialPassCodes found{readField(words, LleField::ComputeOutPartialUnits),
                                     readField(words, LleField::ComputeOutLevelsWalked),
                                     readField(words, LleField::ComputeOutPartialRestPairs)};
  const OutputPartialPassCodes expected = expectedOutputPartialPassCodes(words);
  if (found == expected) return "";
  return codesText(found) + " with ComputeOut37Step = " + std::to_string(readField(words, LleField::ComputeOut37Step)) +
         ", ComputeLaneGroups = " + std::to_string(readField(words, LleField::ComputeLaneGroups)) +
         " and the highest counting Output37 level " + std::to_string(highestCountingOutputLevel(words)) + ": those say " +
         codesText(expected) +
         " (every corpus compute writes k - 1, the highest counting level + 1 and (N - k) / 2 where k = (step - 1) mod N "
         "is even and not 0 and a level above 0 counts, else 0; what the codes do is not decoded)";
}

}  // namespace coralsim::lle
