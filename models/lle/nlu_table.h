// The non-linear unit's table (packet 0x19, docs/isa.md §4.4): a piecewise quartic polynomial,
// 8 segments x 5 float32 coefficients and 7 breakpoints. A tile keeps the last table it was sent.
// An element-wise compute with ComputeNluApply evaluates it (nlu_apply.h); the corpus's two tables
// are 65535 e^x and 65536 / sqrt(2x) (docs/decoding-log.md "nlu" §B).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "models/isa/word128.h"

namespace coralsim::lle {

struct NluTable {
  static constexpr unsigned kSegments = 8;
  static constexpr unsigned kCoefficients = 5;

  std::array<std::array<float, kCoefficients>, kSegments> coef{};
  std::array<float, kSegments - 1> breakpoints{};
  uint32_t tail = 0;

  // From the words of a 0x19 packet (13 words).
  [[nodiscard]] static NluTable fromPacket(std::span<const isa::Word128> words);

  // The segment x falls in: s such that breakpoints[s-1] <= x < breakpoints[s].
  [[nodiscard]] unsigned segmentOf(float x) const;
  // c0 + c1 x + c2 x^2 + c3 x^3 + c4 x^4 of x's segment, in float32 (Horner).
  [[nodiscard]] float evaluate(float x) const;
};

}  // namespace coralsim::lle
