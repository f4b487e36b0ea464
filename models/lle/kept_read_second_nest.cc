#include "models/lle/kept_read_second_nest.h"

#include <cstdint>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

// The first nest's levels whose counts are the rows: 2, 3 and 4 (Stage13OuterLimit[1..3]); levels 0-1 make one row.
constexpr unsigned kFirstRowLevel = 1;  // element of Stage13OuterLimit that is level 2

}  // namespace

std::string keptReadSecondNestProblem(std::span<const isa::Word128> words) {
  if (!fieldPresent(LleField::Stage13RepeatLevel1On, words) || readField(words, LleField::Stage13RepeatLevel1On) == 0) return "";
  const uint64_t route105 = readField(words, LleField::Stage13Route, 0);
  const uint64_t route107 = readField(words, LleField::Stage13Route, 1);
  if (route105 != 0 || route107 != 0) {
    return fieldText(LleField::Stage13RepeatLevel1On, 1) + " in a read routed (" + std::to_string(route107) + ", " +
           std::to_string(route105) +
           ") (Stage13Route, word 3 bits 107, 105): every corpus read with the second nest's level 1 is kept (24 / 24); "
           "what it counts in another read is not decoded";
  }
  const uint64_t positions =
      (readField(words, LleField::Stage13Repeats) + 1) * (readField(words, LleField::Stage13RepeatLimit1) + 1);
  uint64_t rows = 1;
  for (unsigned e = kFirstRowLevel; e < fieldDef(LleField::Stage13OuterLimit).count; ++e) {
    rows *= readField(words, LleField::Stage13OuterLimit, e) + 1;
  }
  if (positions == rows) return "";
  return "the second nest counts " + std::to_string(positions) + " positions ((Stage13Repeats + 1) x (Stage13RepeatLimit1 + 1), " +
         fieldText(LleField::Stage13RepeatLevel1On, 1) + ") and the first nest's levels 2-4 (Stage13OuterLimit[1..3]) " +
         std::to_string(rows) +
         " rows: they are equal in every corpus read with the second nest's level 1 (24 / 24); another count is not decoded "
         "(docs/decoding-log.md \"st13\")";
}

}  // namespace coralsim::lle
