#include "models/hle/fixed_point.h"

#include <cmath>
#include <limits>

namespace coralsim::hle {

QuantizedMultiplier quantizeMultiplier(double realMultiplier) {
  QuantizedMultiplier out;
  if (realMultiplier == 0.0) return out;
  int exponent = 0;
  const double mantissa = std::frexp(realMultiplier, &exponent);  // in [0.5, 1)
  auto q = static_cast<int64_t>(std::round(mantissa * static_cast<double>(int64_t{1} << 31)));
  if (q == (int64_t{1} << 31)) {  // rounding reached 1.0: renormalise
    q /= 2;
    ++exponent;
  }
  if (exponent < -31) return out;  // below the smallest shift TFLite applies: flush to zero
  out.multiplier = static_cast<int32_t>(q);
  out.shift = exponent;
  return out;
}

int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::max();
  const int64_t product = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = product >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  return static_cast<int32_t>((product + nudge) / (int64_t{1} << 31));
}

int32_t roundingDivideByPot(int32_t x, int exponent) {
  if (exponent <= 0) return x;
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

int32_t multiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier m) {
  const int leftShift = m.shift > 0 ? m.shift : 0;
  const int rightShift = m.shift > 0 ? 0 : -m.shift;
  // The left shift wraps like TFLite's int32 arithmetic would (it never overflows for sane
  // accumulators); done in unsigned to keep it defined.
  const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << leftShift);
  return roundingDivideByPot(saturatingRoundingDoublingHighMul(shifted, m.multiplier), rightShift);
}

int32_t multiplyByQuantizedMultiplierGemm(int32_t x, QuantizedMultiplier m) {
  const int leftShift = m.shift > 0 ? m.shift : 0;
  const int rightShift = m.shift > 0 ? 0 : -m.shift;
  const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << leftShift);
  const int32_t high = saturatingRoundingDoublingHighMul(shifted, m.multiplier);
  if (rightShift == 0) return high;
  // Arithmetic shift floors, so adding half first rounds ties towards +infinity.
  const int64_t rounded = (static_cast<int64_t>(high) + (int64_t{1} << (rightShift - 1))) >> rightShift;
  return static_cast<int32_t>(rounded);
}

int32_t roundToInt(float value) { return static_cast<int32_t>(std::round(value)); }

}  // namespace coralsim::hle
