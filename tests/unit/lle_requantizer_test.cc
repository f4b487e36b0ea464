// The requantisation epilogue's rounding options, against plain double arithmetic written here.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "models/lle/requantizer.h"

namespace coralsim::lle {
namespace {

using models::RequantRounding;

TEST(LleRequantizer, Fp32OptionsDifferOnlyOnTies) {
  // 5 x 0.5 = 2.5 exactly: half-even gives 2, half-away 3; 7 x 0.5 = 3.5: both 4.
  const Requantizer even(0.5f, 1.0f, -128.0f, 127.0f, 0, RequantRounding::kFp32HalfEven);
  const Requantizer away(0.5f, 1.0f, -128.0f, 127.0f, 0, RequantRounding::kFp32HalfAway);
  EXPECT_EQ(even(5), 2);
  EXPECT_EQ(away(5), 3);
  EXPECT_EQ(even(7), 4);
  EXPECT_EQ(away(7), 4);
  EXPECT_EQ(even(-5) , 0) << "clamped at -128 + zp 0 would be negative: saturates to 0";
}

TEST(LleRequantizer, ClampsWidenedByOneUlpGiveTheIntegralBound) {
  // Dense-256: clamps 126.0000076 / -129.0000153 with zp_out 129 (docs/isa.md §4.2).
  const float hi = std::nextafter(126.0f, 200.0f);
  const float lo = std::nextafter(-129.0f, -200.0f);
  for (RequantRounding r : {RequantRounding::kFp32HalfEven, RequantRounding::kFp32HalfAway,
                            RequantRounding::kTfliteFixedPoint}) {
    const Requantizer q(1.0f, 1.0f, lo, hi, 129, r);
    EXPECT_EQ(q(1000), 255);
    EXPECT_EQ(q(126), 255);
    EXPECT_EQ(q(125), 254);
    EXPECT_EQ(q(-1000), 0);
    EXPECT_EQ(q(-129), 0);
    EXPECT_EQ(q(0), 129);
  }
}

TEST(LleRequantizer, Fp32MatchesDoubleArithmeticAwayFromTies) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> accs(-200000, 200000);
  std::uniform_real_distribution<float> scales(1e-5f, 1e-3f);
  for (int i = 0; i < 20000; ++i) {
    const int32_t acc = accs(rng);
    const float scale = scales(rng);
    const double exact = static_cast<double>(static_cast<float>(acc) * scale);
    if (std::abs(exact - std::floor(exact) - 0.5) < 1e-6) continue;
    const double expected = std::clamp(std::round(exact), -10.0, 200.0) + 10.0;
    const Requantizer q(scale, 1.0f, -10.0f, 200.0f, 10, RequantRounding::kFp32HalfEven);
    ASSERT_EQ(q(acc), static_cast<uint8_t>(expected)) << acc << " x " << scale;
  }
}

TEST(LleRequantizer, FixedPointIsWithinOneOfExactAndFollowsGemmlowpOnTies) {
  int32_t m = 0;
  int shift = 0;
  quantizeMultiplier(0.5, m, shift);
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 0);
  EXPECT_EQ(multiplyByQuantizedMultiplier(3, m, shift), 2);    // 1.5 -> 2
  // gemmlowp's doubling high multiply nudges negatives by 1 - 2^30 and truncates: -1.5 -> -1.
  EXPECT_EQ(multiplyByQuantizedMultiplier(-3, m, shift), -1);
  quantizeMultiplier(3.0, m, shift);
  EXPECT_EQ(shift, 2);
  EXPECT_EQ(multiplyByQuantizedMultiplier(7, m, shift), 21);
  std::mt19937 rng(11);
  std::uniform_int_distribution<int32_t> accs(-100000, 100000);
  std::uniform_real_distribution<double> mults(1e-5, 1e-2);
  for (int i = 0; i < 20000; ++i) {
    const int32_t acc = accs(rng);
    const double mult = mults(rng);
    quantizeMultiplier(mult, m, shift);
    const double exact = acc * mult;
    ASSERT_LE(std::abs(multiplyByQuantizedMultiplier(acc, m, shift) - exact), 1.0) << acc << " x " << mult;
  }
}

TEST(LleRequantizer, FixedPointSaturatesAScaleFarAboveTfliteRange) {
  // A scale of 2^118 (what a parameter read where the compiler put none can give): every non-zero accumulator
  // saturates before the high multiply (int32 max or min times the multiplier's 0.5 gives +-2^30), zero stays zero,
  // and nothing shifts past its width (the ASan+UBSan suite checks that part).
  int32_t m = 0;
  int shift = 0;
  quantizeMultiplier(std::ldexp(1.0, 118), m, shift);
  EXPECT_EQ(shift, 119);
  EXPECT_EQ(multiplyByQuantizedMultiplier(1, m, shift), 1 << 30);
  EXPECT_EQ(multiplyByQuantizedMultiplier(-1, m, shift), -(1 << 30));
  EXPECT_EQ(multiplyByQuantizedMultiplier(0, m, shift), 0);
  const Requantizer requant(std::ldexp(1.0f, 118), 1.0f, -128.0f, 127.0f, 0, models::RequantRounding::kTfliteFixedPoint);
  EXPECT_EQ(requant(5), 127);
}

TEST(LleRequantizer, RoundingNamesParseBack) {
  for (RequantRounding r : {RequantRounding::kFp32HalfEven, RequantRounding::kFp32HalfAway,
                            RequantRounding::kTfliteFixedPoint}) {
    RequantRounding parsed{};
    ASSERT_TRUE(models::parseRequantRounding(models::requantRoundingName(r), parsed));
    EXPECT_EQ(parsed, r);
  }
  RequantRounding parsed{};
  EXPECT_FALSE(models::parseRequantRounding("nearest", parsed));
}

}  // namespace
}  // namespace coralsim::lle
