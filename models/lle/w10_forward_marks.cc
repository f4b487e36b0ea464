#include "models/lle/w10_forward_marks.h"

#include <cstdint>

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr unsigned kSlots = 7;  // the w10 nest's slots (ComputeWrapW10's elements)

// Slot 0's mark is the field the walk was first decoded by (ComputePartialSumWalkOn, "ring9" §D); slots 1-6 go on
// from the next bit.
uint64_t forwardMark(std::span<const isa::Word128> words, unsigned slot) {
  return slot == 0 ? readField(words, LleField::ComputePartialSumWalkOn) : readField(words, LleField::ComputeW10ForwardMark, slot - 1);
}

std::string markText(std::span<const isa::Word128> words, unsigned slot) {
  return slot == 0 ? fieldText(LleField::ComputePartialSumWalkOn, forwardMark(words, 0))
                   : fieldText(LleField::ComputeW10ForwardMark, forwardMark(words, slot), slot - 1);
}

}  // namespace

std::string w10ForwardMarksProblem(std::span<const isa::Word128> words) {
  const LleFieldDef& marks = fieldDef(LleField::ComputeW10ForwardMark);
  if (words.size() <= (marks.lsb + marks.count - 1) / 128) return "";
  for (unsigned slot = 0; slot < kSlots; ++slot) {
    const int64_t wrap = readSigned(words, LleField::ComputeWrapW10, slot);
    const uint64_t low = readField(words, LleField::ComputeW10CarryLow, slot);
    const int64_t carry = 4 * wrap + static_cast<int64_t>(low);
    const uint64_t marked = forwardMark(words, slot);
    if (marked == (carry > 0 ? 1u : 0u)) continue;
    return markText(words, slot) + " with ComputeWrapW10[" + std::to_string(slot) + "] = " + std::to_string(wrap) +
           " and " + fieldText(LleField::ComputeW10CarryLow, low, slot) + " (carry 4 x wrap + low = " + std::to_string(carry) +
           "): the mark says level " + std::to_string(slot + 1) + " of the w10 nest " +
           (marked != 0 ? "moves forward" : "does not move forward") +
           ", its carry says otherwise (every corpus compute has the mark set exactly where the carry is positive)";
  }
  return "";
}

}  // namespace coralsim::lle
