#pragma once
// A compute's input nest (Nest37, models/isa/compute_loop_nest.def) read as a walk over bytes
// (docs/decoding-log.md "convwire" §A): level 0 steps one input element (ComputeInputBytes), and the
// carry of slot i, applied when level i + 1 counts, is 19 bits in bytes -- the slot's 17-bit wrap
// times 4 plus the two bits between its limit and its wrap (0 in every 4-byte compute of the corpus,
// so the 4-byte forms read the wraps as 4-byte units). All seven levels: levels 4-6 count with
// ComputeNest37LimitHigh and take slots 3-5's carries (ComputeKWrap37[1..3]): conv 1024^2's input copy
// walks 69 rows of its image at level 4, slot 3's carry taking the row's end to the next 1,024-byte row
// (docs/decoding-log.md "conv1024"). Slot 6 (ComputeKWrap37[4]) would apply above level 6: no level
// of the walk takes it.

#include <array>
#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/input_step.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct InputByteWalk {
  static constexpr unsigned kLevels = 7;
  static constexpr unsigned kLowLevels = 4;  // levels 0-3: the ones every executed form but the walks reads
  std::array<uint64_t, kLevels> limits{};      // count - 1
  std::array<int64_t, kLevels> strideBytes{};  // the address change when the level counts

  [[nodiscard]] static InputByteWalk fromPacket(std::span<const isa::Word128> words, uint64_t elementBytes) {
    InputByteWalk walk;
    walk.limits = {readField(words, LleField::ComputeK4W1), readField(words, LleField::ComputeNest37Limit1),
                   readField(words, LleField::ComputePositions), readField(words, LleField::ComputeNest37Limit3),
                   readField(words, LleField::ComputeNest37LimitHigh, 0), readField(words, LleField::ComputeNest37LimitHigh, 1),
                   readField(words, LleField::ComputeNest37LimitHigh, 2)};
    // Slots 2-5's carries: the 17-bit wrap in 4-byte units and its two low bits.
    const auto slotCarry = [&](unsigned element) {
      return 4 * readSigned(words, LleField::ComputeKWrap37, element) +
             static_cast<int64_t>(readField(words, LleField::ComputeNest37CarryLow, element));
    };
    const std::array<int64_t, kLevels - 1> carries = {
        4 * readSigned(words, LleField::ComputePositionStep37) + static_cast<int64_t>(readField(words, LleField::ComputeInputBytesCode)),
        readSigned(words, LleField::ComputeNest37Carry1), slotCarry(0), slotCarry(1), slotCarry(2), slotCarry(3)};
    // Level 0 steps one element, except where the step's high bits name a channel grid's tap column (input_step.h).
    walk.strideBytes[0] = static_cast<int64_t>(walksAChannelGrid(words) ? inputStepBytes(words) : elementBytes);
    // When level i counts, the levels below it have run to their limits and the carry is applied.
    for (unsigned i = 1; i < kLevels; ++i) {
      int64_t stride = carries[i - 1];
      for (unsigned j = 0; j < i; ++j) stride += static_cast<int64_t>(walk.limits[j]) * walk.strideBytes[j];
      walk.strideBytes[i] = stride;
    }
    return walk;
  }

  // True where a level above 3 counts (ComputeNest37LimitHigh not all 0).
  [[nodiscard]] bool countsAboveLevel3() const {
    for (unsigned i = kLowLevels; i < kLevels; ++i) {
      if (limits[i] != 0) return true;
    }
    return false;
  }
};

}  // namespace coralsim::lle
