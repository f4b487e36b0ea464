// The requantisation epilogue's rounding options, against plain double arithmetic written here.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

#include "models/lle/requantizer.h"

namespace coralsim::lle::lle_requantizer_test {
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

// Hardware evidence (docs/decoding-log.md "round18"): the rubensrech 500^2 box convolution's recorded device output
// (ground_truth golden_rb_conv_2d_1_500_500_1_40_40_1_1, 250,000 bytes, equal to the rung's) holds 28 bytes whose
// accumulator, converted to float32 (which drops its low bit above 2^24) and multiplied by the packet's float32
// multiplier 5.0e-6 (bits 0x36a7c5ac, scale 1.0), is an exact tie while the exact product is none. The device wrote
// 130 and 124: ties to even of the float32 product. Double arithmetic gives 129 / 125, half-away 130 / 125.
TEST(LleRequantizer, TheDeviceRoundsTheFloat32ProductHalfToEven) {
  const float mult = std::bit_cast<float>(0x36a7c5acu);
  // The rung's default rounding is the rule under test: a default changed to another option fails here.
  const Requantizer device(1.0f, mult, 0.0f, 255.0f, 0, models::ChipConfig{}.requantRounding);
  EXPECT_EQ(device(25899999), 130) << "27 device bytes: float32 129.5 (exact 129.49999)";
  EXPECT_EQ(device(24900001), 124) << "1 device byte: float32 124.5 (exact 124.500002)";
  const Requantizer away(1.0f, mult, 0.0f, 255.0f, 0, RequantRounding::kFp32HalfAway);
  EXPECT_EQ(away(24900001), 125) << "half-away changes the device's byte";
  const Requantizer fixedPoint(1.0f, mult, 0.0f, 255.0f, 0, RequantRounding::kTfliteFixedPoint);
  EXPECT_EQ(fixedPoint(25899999), 129) << "TFLite's fixed point rounds the exact product: not the device's byte";
  EXPECT_EQ(fixedPoint(24900001), 125);
}

// The compiled average pool's multiplier is one float32 ulp below 1 / n (nin_cnn's 4 x 4 pool: 0.0624999963,
// coralsim disasm), so a sum that is an exact tie of 1 / n lands just short of the half and rounds toward zero on
// both sides; prbodmann's nin_cnn device scores need exactly that ("round18": 30 / 30 images with it, 24 / 30 with
// 1 / 16 itself under half-even). The rung takes the packet's multiplier as it is.
TEST(LleRequantizer, APoolMultiplierOneUlpBelowOneOverNSendsTiesTowardZero) {
  const float below = std::nextafter(0.0625f, 0.0f);
  const Requantizer pool(1.0f, below, -124.0f, 131.0f, 124, RequantRounding::kFp32HalfEven);
  EXPECT_EQ(pool(8), 124) << "0.5 -> 0";
  EXPECT_EQ(pool(104), 124 + 6) << "6.5 -> 6";
  EXPECT_EQ(pool(-56), 124 - 3) << "-3.5 -> -3";
  const Requantizer exact(1.0f, 0.0625f, -124.0f, 131.0f, 124, RequantRounding::kFp32HalfEven);
  EXPECT_EQ(exact(-56), 124 - 4) << "with 1 / 16 itself half-even gives -4";
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
}  // namespace coralsim::lle::lle_requantizer_test
