#include "models/lle/one_row_walk.h"

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {
constexpr unsigned kSlots = 7;  // the w10 nest's slots (ComputeWrapW10's elements)
}  // namespace

bool keepsSumsInOneRow(std::span<const isa::Word128> words) {
  if (readField(words, LleField::ComputePartialSumRow) == 0) return false;
  for (unsigned slot = 0; slot < kSlots; ++slot) {
    if (readSigned(words, LleField::ComputeWrapW10, slot) != 0 || readField(words, LleField::ComputeW10CarryLow, slot) != 0) return false;
  }
  return true;
}

uint64_t oneRowWalkPasses(std::span<const isa::Word128> words) { return readField(words, LleField::ComputeLimitW10, 0) + 1; }

}  // namespace coralsim::lle
