#include "models/lle/two_byte_element_broadcast.h"

#include "models/lle/input_byte_walk.h"
#include "models/lle/lle_fields.h"
#include "models/lle/unrequantised_copy.h"

namespace coralsim::lle {

bool TwoByteElementBroadcast::isBroadcastCopy(std::span<const isa::Word128> words) {
  if (!isUnrequantisedCopy(words) || readField(words, LleField::ComputeInputBytes) != kUnitBytes ||
      readField(words, LleField::ComputeInputRingOn) != 0) {
    return false;
  }
  const InputByteWalk walk = InputByteWalk::fromPacket(words, kUnitBytes);
  for (unsigned level = 0; level < InputByteWalk::kLevels; ++level) {
    if ((level == 1) != (walk.limits[level] != 0)) return false;
  }
  return walk.strideBytes[1] == 0;
}

std::variant<uint64_t, std::string> TwoByteElementBroadcast::elementBytes(std::span<const isa::Word128> words) {
  const int64_t carry = readSigned(words, LleField::ComputeNest37Carry1);
  const int64_t wrap1 = readSigned(words, LleField::ComputeKWrap37, 1);
  const int64_t wrap3 = readSigned(words, LleField::ComputeKWrap37, 3);
  if (carry <= 0 || carry % 4 != 0 || wrap1 != carry / 4 || wrap3 != carry / 4) {
    return "the broadcast copy's idle Nest37 carries (ComputeNest37Carry1 = " + std::to_string(carry) + " bytes, ComputeKWrap37[1] = " +
           std::to_string(wrap1) + ", [3] = " + std::to_string(wrap3) + " units) name no element width (4 x E bytes and E units)";
  }
  return static_cast<uint64_t>(carry / 4);
}

std::variant<std::array<uint8_t, TwoByteElementBroadcast::kUnitBytes>, std::string> TwoByteElementBroadcast::lanes(std::span<const uint8_t> group,
                                                                                                                    std::span<const uint8_t> block) {
  if (group.size() != kUnitBytes) return std::string("a group that is not 4 bytes");
  if (block.size() != kUnitBytes * kUnitBytes) return "a kept block of " + std::to_string(block.size()) + " bytes, not 16";
  std::array<uint8_t, kUnitBytes> out{};
  for (uint64_t c = 0; c < kUnitBytes; ++c) {
    for (uint64_t b = kElements; b < kUnitBytes; ++b) {
      if (block[kUnitBytes * c + b] != 0) {
        return "block unit " + std::to_string(c) + " byte " + std::to_string(b) + " = " + std::to_string(block[kUnitBytes * c + b]) +
               ": a weight for a third 2-byte element, which a 4-byte group does not hold";
      }
    }
    int64_t sum = 0;
    for (uint64_t k = 0; k < kElements; ++k) {
      const int64_t element = group[kElementBytes * k] | (int64_t{group[kElementBytes * k + 1]} << 8);
      sum += element * int64_t{static_cast<int8_t>(block[kUnitBytes * c + k])};
    }
    if (sum < 0 || sum > 255) {
      return "lane " + std::to_string(c) + "'s sum " + std::to_string(sum) +
             " does not fit one byte: how the unrequantised copy writes a wider sum is not decoded";
    }
    out[c] = static_cast<uint8_t>(sum);
  }
  return out;
}

}  // namespace coralsim::lle
