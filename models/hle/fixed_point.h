// TFLite's integer requantisation arithmetic (the gemmlowp "double rounding" form that TFLite's
// builtin kernels use by default): a real multiplier becomes a Q31 mantissa and a power-of-two
// exponent, and accumulators are scaled with a saturating rounding doubling high multiply followed
// by a rounding (half away from zero) right shift.
#pragma once

#include <cstdint>

namespace coralsim::hle {

struct QuantizedMultiplier {
  int32_t multiplier = 0;  // Q31 mantissa in [2^30, 2^31), or 0
  int shift = 0;           // > 0: left shift, < 0: right shift
};

// frexp() split with the mantissa rounded to 31 bits; multipliers too small to represent are 0.
QuantizedMultiplier quantizeMultiplier(double realMultiplier);

// The high 32 bits of 2 * a * b, rounded to nearest the way gemmlowp does (nudge by 2^30 towards
// the sign, then truncate), saturating the one overflow case a = b = INT32_MIN.
int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b);

// x / 2^exponent rounded to nearest, ties away from zero.
int32_t roundingDivideByPot(int32_t x, int exponent);

// x * multiplier * 2^shift with TFLite's rounding.
int32_t multiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier m);

// x * multiplier * 2^shift the way TFLite 2.9's x86 GEMM back end requantises CONV_2D outputs:
// the same saturating rounding doubling high multiply, then a right shift that rounds ties towards
// +infinity ((v + 2^(s-1)) >> s) instead of away from zero. Differs from
// multiplyByQuantizedMultiplier only on negative exact halves, which only linear layers (no ReLU
// clamp) show. (A single-rounding 64-bit form was tried and mismatches TFLite 2.9 from the first
// layer of DeepLab v3 on.)
int32_t multiplyByQuantizedMultiplierGemm(int32_t x, QuantizedMultiplier m);

// TFLite's TfLiteRound: round half away from zero.
int32_t roundToInt(float value);

}  // namespace coralsim::hle
