#include "models/lle/level_four_passes.h"

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr unsigned kSlots = 7;  // the w10 nest's slots (ComputeWrapW10's elements)
constexpr unsigned kPassLevel = 4;

// Whether some slot's carry is positive: a carry is 4 x wrap + its low bits, as the forward marks read it.
bool someSlotCarriesForward(std::span<const isa::Word128> words) {
  for (unsigned slot = 0; slot < kSlots; ++slot) {
    const int64_t carry = 4 * readSigned(words, LleField::ComputeWrapW10, slot) +
                          static_cast<int64_t>(readField(words, LleField::ComputeW10CarryLow, slot));
    if (carry > 0) return true;
  }
  return false;
}

std::array<int64_t, kSlots> w10Limits(std::span<const isa::Word128> words) {
  return {static_cast<int64_t>(readField(words, LleField::ComputeK4W10)), static_cast<int64_t>(readField(words, LleField::ComputeLimitW10, 0)),
          static_cast<int64_t>(readField(words, LleField::ComputeLimitW10, 1)), static_cast<int64_t>(readField(words, LleField::ComputeLimitW10Level3)),
          static_cast<int64_t>(readField(words, LleField::ComputeLimitW10High, 0)), static_cast<int64_t>(readField(words, LleField::ComputeLimitW10High, 1)),
          static_cast<int64_t>(readField(words, LleField::ComputeLimitW10High, 2))};
}

}  // namespace

std::array<int64_t, 7> w10RowStrides(std::span<const isa::Word128> words) {
  const std::array<int64_t, kSlots> limits = w10Limits(words);
  std::array<int64_t, kSlots> strides{};
  for (unsigned level = 1; level < kSlots; ++level) {
    strides[level] = readSigned(words, LleField::ComputeWrapW10, level - 1);
    for (unsigned below = 1; below < level; ++below) strides[level] += limits[below] * strides[below];
  }
  return strides;
}

std::string levelFourPassesProblem(std::span<const isa::Word128> words) {
  const LleFieldDef& bit = fieldDef(LleField::ComputeLevelFourPasses);
  if (words.size() <= bit.lsb / 128) return "";
  const uint64_t marked = readField(words, LleField::ComputeLevelFourPasses);
  const uint64_t levelFour = readField(words, LleField::ComputeLimitW10High, 0);
  const int64_t stride = w10RowStrides(words)[kPassLevel];
  const bool forward = someSlotCarriesForward(words);
  const bool walksWithLevelFourPasses = forward && levelFour > 0 && stride == 0;
  if (marked == (walksWithLevelFourPasses ? 1u : 0u)) return "";
  return fieldText(LleField::ComputeLevelFourPasses, marked) + " with " + fieldText(LleField::ComputeLimitW10High, levelFour, 0) +
         ", level 4's row stride " + std::to_string(stride) + " and " +
         (forward ? "a slot of the w10 nest carrying forward" : "no slot of the w10 nest carrying forward") +
         ": every corpus compute has the bit set exactly where a walk over partial-sum rows counts passes (row stride 0) at level 4";
}

}  // namespace coralsim::lle
