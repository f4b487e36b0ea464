#include "models/lle/position_split_reduction.h"

#include <cstdint>

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

bool isPositionSplitReduction(std::span<const isa::Word128> words) {
  if (words.size() <= 16) return false;
  return readField(words, LleField::ComputeInputBytes) == 4 && readField(words, LleField::ComputeInputRingOn) == 0 &&
         readField(words, LleField::ComputeParamPrefix) == 0 && readField(words, LleField::ComputeUnrequantisedCopy) == 0 &&
         readField(words, LleField::ComputeNest37Limit1) == 0 && readField(words, LleField::ComputeK4W1) != 0 &&
         readField(words, LleField::ComputePositions) != 0 && readField(words, LleField::ComputeOutPositions) == 0 &&
         readField(words, LleField::ComputeLimit29, 0) == readField(words, LleField::ComputePositions);
}

std::string positionSplitReductionProblem(std::span<const isa::Word128> words) {
  const uint64_t k = readField(words, LleField::ComputeK4W1);
  const uint64_t p = readField(words, LleField::ComputePositions);  // positions - 1
  // Level 1 runs once; its carry is what would take it past the whole walk of (K + 1) P units.
  const int64_t step = readSigned(words, LleField::ComputePositionStep37);
  const auto whole = static_cast<int64_t>((k + 1) * p + 1);
  if (step != whole || readField(words, LleField::ComputeInputBytesCode) != 0) {
    return "ComputePositionStep37 (word 1 bits 136:120) = " + std::to_string(step) + ", ComputeInputBytesCode = " +
           std::to_string(readField(words, LleField::ComputeInputBytesCode)) + " in the reduction split over positions: " +
           "the unapplied level-1 carry of a walk of (ComputeK4W1 + 1) x (ComputePositions + 1) units is (" + std::to_string(k) +
           " + 1) x " + std::to_string(p) + " + 1 = " + std::to_string(whole) + " units";
  }
  // A position's groups follow the one before: slot 1's carry (level 2) is one 4-byte unit.
  if (const int64_t carry = readSigned(words, LleField::ComputeNest37Carry1); carry != 4) {
    return "ComputeNest37Carry1 (word 2 bits 45:27) = " + std::to_string(carry) +
           " bytes in the reduction split over positions: only positions following each other (4 bytes, one unit) are decoded";
  }
  // Every nest counts the same K groups at level 0 and the same positions at level 1, nothing above.
  for (const LleField level0 : {LleField::ComputeK4W0, LleField::ComputeK4W7, LleField::ComputeK4W10}) {
    if (readField(words, level0) != k) {
      return std::string(fieldDef(level0).name) + " = " + std::to_string(readField(words, level0)) +
             " in the reduction split over positions: not ComputeK4W1 = " + std::to_string(k);
    }
  }
  for (const LleField level1 : {LleField::ComputeLimitW10, LleField::ComputeLimitW0}) {
    if (readField(words, level1, 0) != p) {
      return std::string(fieldDef(level1).name) + "[0] = " + std::to_string(readField(words, level1, 0)) +
             " in the reduction split over positions: not ComputePositions = " + std::to_string(p);
    }
  }
  for (const LleField above : {LleField::ComputeLimit29, LleField::ComputeLimitW10, LleField::ComputeLimitW0}) {
    for (unsigned e = 1; e < fieldDef(above).count; ++e) {
      if (readField(words, above, e) != 0) {
        return std::string(fieldDef(above).name) + "[" + std::to_string(e) + "] = " + std::to_string(readField(words, above, e)) +
               " in the reduction split over positions: a level above the positions is not decoded";
      }
    }
  }
  for (const LleField above : {LleField::ComputeNest37Limit3, LleField::ComputeNest37LimitHigh}) {
    for (unsigned e = 0; e < fieldDef(above).count; ++e) {
      if (readField(words, above, e) != 0) {
        return std::string(fieldDef(above).name) + " = " + std::to_string(readField(words, above, e)) +
               " in the reduction split over positions: a level above the positions is not decoded";
      }
    }
  }
  return "";
}

}  // namespace coralsim::lle
