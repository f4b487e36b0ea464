#include "models/lle/kept_take_units.h"

#include <cstdint>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr uint64_t kTakeUnitBytes = 32;    // 16 lanes of 2 bytes (the two-record form's first number counts the same)
constexpr uint64_t kNotTaken = 0xffff;     // no compute takes the read

}  // namespace

std::string keptTakeUnitsProblem(std::span<const isa::Word128> words) {
  if (!fieldPresent(LleField::Stage13KeptTakeUnits, words)) return "";
  const uint64_t value = readField(words, LleField::Stage13KeptTakeUnits);
  if (value == kNotTaken) return "";
  uint64_t groups = readField(words, LleField::Stage13LoopOn) != 0 ? readField(words, LleField::Stage13Groups) + 1 : 1;
  for (unsigned e = 0; e < fieldDef(LleField::Stage13OuterLimit).count; ++e) groups *= readField(words, LleField::Stage13OuterLimit, e) + 1;
  const uint64_t bytes = 4 * groups;
  const uint64_t units = (bytes + kTakeUnitBytes - 1) / kTakeUnitBytes;
  if (value == units) return "";
  return fieldText(LleField::Stage13KeptTakeUnits, value) + " in a kept read of " + std::to_string(bytes) +
         " bytes (Stage13Groups, Stage13OuterLimit): every corpus kept read of the form carries ceil(bytes / 32) = " +
         std::to_string(units) + " (37 / 37 taken by a compute) or 0xffff (115 / 115 taken by none); another count is not decoded "
         "(docs/decoding-log.md \"st13\")";
}

}  // namespace coralsim::lle
