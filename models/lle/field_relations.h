// The relations between decoded fields of one packet (lle_relations.def): loop wraps against the
// limits they wrap. They let a field take any value (a Dense or a convolution of another size)
// while a value that means something the rung does not model (another stride) is refused.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct FieldRelation {
  LleField field;
  LleField base;
  int64_t multiplier;
  int64_t addend;
  std::optional<LleField> condition;  // applies when this 1-bit field is 1; else `field` must be 0
  bool zeroUnlessOnly = false;        // CORAL_LLE_ONLY_IF: no relation, only the zero rule
  int64_t scale = 1;                  // CORAL_LLE_RELATION_SCALED: scale x field == multiplier x base + addend
  std::optional<int64_t> altAddend;   // CORAL_LLE_RELATION_OR: the addend may also be this one
};

[[nodiscard]] std::span<const FieldRelation> fieldRelations();

// "" when every relation of `opcode` holds in `words`; otherwise a sentence naming the field, its
// word and bits, its value and the expected one.
[[nodiscard]] std::string checkFieldRelations(uint8_t opcode, std::span<const isa::Word128> words);

}  // namespace coralsim::lle
