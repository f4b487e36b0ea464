// The non-linear unit's table (packet 0x19, docs/isa.md §4.4): a piecewise quartic polynomial,
// 8 segments x 5 float32 coefficients and 7 breakpoints. A tile keeps the last table it was sent.
// Which compute mode applies it is not decoded yet, so the rung loads and keeps tables but no
// supported compute packet evaluates one (the envelope pins the mode bits).
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
