#include "models/lle/requantizer.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace coralsim::lle {

void quantizeMultiplier(double multiplier, int32_t& quantizedMultiplier, int& shift) {
  if (multiplier == 0.0 || !std::isfinite(multiplier)) {
    quantizedMultiplier = 0;
    shift = 0;
    return;
  }
  const double q = std::frexp(multiplier, &shift);  // multiplier = q x 2^shift, q in [0.5, 1)
  auto fixed = static_cast<int64_t>(std::llround(q * static_cast<double>(1LL << 31)));
  if (fixed == (1LL << 31)) {  // q rounded up to 1.0
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) {  // too small to represent: zero, as TFLite does
    shift = 0;
    fixed = 0;
  }
  quantizedMultiplier = static_cast<int32_t>(fixed);
}

namespace {

int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::max();
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = ab >= 0 ? (1LL << 30) : (1 - (1LL << 30));
  return static_cast<int32_t>((ab + nudge) / (1LL << 31));
}

int32_t roundingDivideByPot(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((1LL << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

}  // namespace

int32_t multiplyByQuantizedMultiplier(int32_t x, int32_t quantizedMultiplier, int shift) {
  // A multiplier of 2^32 or more saturates every non-zero x, and 2^-31 or less rounds it away; the shifts are held
  // there so that a scale far outside TFLite's range (a parameter read where the compiler put none) cannot shift an
  // int64 by its width (undefined behaviour; seen at 2^119 under UBSan) and still gives the saturated / rounded value.
  const int leftShift = std::min(shift > 0 ? shift : 0, 32);
  const int rightShift = std::min(shift > 0 ? 0 : -shift, 31);
  const auto shifted = static_cast<int32_t>(
      std::clamp<int64_t>(static_cast<int64_t>(x) * (int64_t{1} << leftShift), std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max()));
  return roundingDivideByPot(saturatingRoundingDoublingHighMul(shifted, quantizedMultiplier), rightShift);
}

Requantizer::Requantizer(float scale, float mult, float clampLo, float clampHi, int32_t zpOut,
                         models::RequantRounding rounding)
    : scale_(scale), mult_(mult), lo_(clampLo), hi_(clampHi), zpOut_(zpOut), rounding_(rounding) {
  if (rounding_ == models::RequantRounding::kTfliteFixedPoint) {
    quantizeMultiplier(static_cast<double>(scale) * static_cast<double>(mult), quantizedMultiplier_, shift_);
  }
}

uint8_t Requantizer::operator()(int32_t acc) const {
  // Clamp first, then round (docs/isa.md §4.2). The compiler widens the integral bounds by one
  // float32 ulp (Dense-256: 126.0000076, -129.0000153), which this order absorbs exactly.
  float value = 0.0f;
  switch (rounding_) {
    case models::RequantRounding::kFp32HalfEven:
    case models::RequantRounding::kFp32HalfAway:
      // float32 products in this order (acc x scale, then x mult): the stored scale is already the
      // rounded float32 effective scale, so the first product is the device's.
      value = static_cast<float>(acc) * scale_ * mult_;
      break;
    case models::RequantRounding::kTfliteFixedPoint:
      value = static_cast<float>(multiplyByQuantizedMultiplier(acc, quantizedMultiplier_, shift_));
      break;
  }
  const float clamped = std::min(std::max(value, lo_), hi_);
  const float rounded =
      rounding_ == models::RequantRounding::kFp32HalfAway ? std::round(clamped) : std::nearbyint(clamped);
  // Saturation to the uint8 output after the zero point is an assumption (the clamps already keep
  // every supported template inside 0..255); infinite clamps fall back on it.
  const float shifted = rounded + static_cast<float>(zpOut_);
  return static_cast<uint8_t>(std::clamp(shifted, 0.0f, 255.0f));
}

}  // namespace coralsim::lle
