// The softmax sum's table application (opcode 0x03, docs/decoding-log.md "trk14"): the sum times ComputeMult, clamped,
// is brought into the one factor of four the tile's table covers (the 1/sqrt table T1 fits 65536 / sqrt(2x) on [1.17, 4.08],
// "nlu" section B) by an even power of two taken from its float32 exponent, x = m 4^k with m in [1, 4); the table's value at
// m is scaled back by 2^-k (what 1/sqrt(x) = 1/sqrt(m) 2^-k says) and rounded half-even, saturated to 16 bits, as every table
// result is (nlu_apply.h). Why an even power and 2^-k: the only table an 0x03 applies is T1, whose value at 4m is half its
// value at m; the 0x03's one mark w15 bit 27 (no 0x01 carries it) is read as this reduction (Guess: one form in the corpus).
#pragma once

#include <cstdint>
#include <optional>

#include "models/lle/nlu_table.h"

namespace coralsim::lle {

struct ReducedTableApplication {
  float m = 0;        // x / 4^k, in [1, 4)
  int k = 0;          // x = m 4^k
  float value = 0;    // the table's value at m (float32)
  uint16_t result = 0;  // round_half_even(value 2^-k), saturated to 0 .. 65535

  // x must be finite and positive (an exponent to take); nullopt otherwise (a sum of exponentials is at least one
  // 65535 e^0 times the multiplier: the corpus never reaches zero).
  [[nodiscard]] static std::optional<ReducedTableApplication> of(const NluTable& table, float x);
};

}  // namespace coralsim::lle
