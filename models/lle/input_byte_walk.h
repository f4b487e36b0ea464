#pragma once
// A compute's input nest (Nest37, models/isa/compute_loop_nest.def) read as a walk over bytes
// (docs/decoding-log.md "convwire" §A): level 0 steps one input element (ComputeInputBytes), and the
// carry of slot i, applied when level i + 1 counts, is 19 bits in bytes -- the slot's 17-bit wrap
// times 4 plus the two bits between its limit and its wrap (0 in every 4-byte compute of the corpus,
// so the 4-byte forms read the wraps as 4-byte units). Levels 0-3 from the declared fields; levels 4-6
// (ComputeNest37LimitHigh, carries ComputeKWrap37[1..3]) only where the caller's form walks them (the
// unrequantised copy, docs/decoding-log.md "copy117"), else they stay at limit 0 (the forms that use this
// refuse a count there, or walk it themselves, as the convolution does).

#include <array>
#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct InputByteWalk {
  static constexpr unsigned kLevels = 7;
  std::array<uint64_t, kLevels> limits{};      // count - 1
  std::array<int64_t, kLevels> strideBytes{};  // the address change when the level counts

  [[nodiscard]] static InputByteWalk fromPacket(std::span<const isa::Word128> words, uint64_t elementBytes, bool highLevels = false) {
    InputByteWalk walk;
    walk.limits = {readField(words, LleField::ComputeK4W1), readField(words, LleField::ComputeNest37Limit1),
                   readField(words, LleField::ComputePositions), readField(words, LleField::ComputeNest37Limit3), 0, 0, 0};
    std::array<int64_t, kLevels - 1> carries = {
        4 * readSigned(words, LleField::ComputePositionStep37) + static_cast<int64_t>(readField(words, LleField::ComputeInputBytesCode)),
        readSigned(words, LleField::ComputeNest37Carry1),
        4 * readSigned(words, LleField::ComputeKWrap37, 0) + static_cast<int64_t>(readField(words, LleField::ComputeNest37CarryLow, 0)), 0, 0, 0};
    for (unsigned high = 0; highLevels && high < 3; ++high) {
      walk.limits[4 + high] = readField(words, LleField::ComputeNest37LimitHigh, high);
      carries[3 + high] = 4 * readSigned(words, LleField::ComputeKWrap37, 1 + high) +
                          static_cast<int64_t>(readField(words, LleField::ComputeNest37CarryLow, 1 + high));
    }
    walk.strideBytes[0] = static_cast<int64_t>(elementBytes);
    // When level i counts, the levels below it have run to their limits and the carry is applied.
    for (unsigned i = 1; i < kLevels; ++i) {
      int64_t stride = carries[i - 1];
      for (unsigned j = 0; j < i; ++j) stride += static_cast<int64_t>(walk.limits[j]) * walk.strideBytes[j];
      walk.strideBytes[i] = stride;
    }
    return walk;
  }
};

}  // namespace coralsim::lle
