#include "models/lle/top_level_passes.h"

#include <cstdint>

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr unsigned kSlots = 7;  // the w10 nest's slots (ComputeWrapW10's elements)

// The slot whose carry is positive first, or kSlots: a carry is 4 x wrap + its low bits, as the forward marks read it.
unsigned firstForwardSlot(std::span<const isa::Word128> words) {
  for (unsigned slot = 0; slot < kSlots; ++slot) {
    const int64_t carry = 4 * readSigned(words, LleField::ComputeWrapW10, slot) +
                          static_cast<int64_t>(readField(words, LleField::ComputeW10CarryLow, slot));
    if (carry > 0) return slot;
  }
  return kSlots;
}

}  // namespace

std::string topLevelPassesProblem(std::span<const isa::Word128> words) {
  const LleFieldDef& bit = fieldDef(LleField::ComputeTopLevelPasses);
  if (words.size() <= bit.lsb / 128) return "";
  const uint64_t marked = readField(words, LleField::ComputeTopLevelPasses);
  const uint64_t levelSix = readField(words, LleField::ComputeLimitW10High, 2);
  const unsigned forward = firstForwardSlot(words);
  const bool walksWithLevelSixPasses = forward < kSlots && levelSix > 0;
  if (marked == (walksWithLevelSixPasses ? 1u : 0u)) return "";
  const std::string walk = forward < kSlots ? "slot " + std::to_string(forward) + " of the w10 nest carries forward"
                                            : "no slot of the w10 nest carries forward";
  return fieldText(LleField::ComputeTopLevelPasses, marked) + " with " + fieldText(LleField::ComputeLimitW10High, levelSix, 2) +
         " and " + walk + ": every corpus compute has the bit set exactly where a walk over partial-sum rows counts level-6 passes";
}

}  // namespace coralsim::lle
