// The 0x03's table application (models/lle/reduced_table_application.h, docs/decoding-log.md "trk14"): x = m 4^k with m in
// [1, 4) from x's float32 exponent, the table's value at m times 2^-k, rounded half-even and saturated to 16 bits.
// A table no corpus program loads: every segment the constant 1000 s + 64 (s its segment) plus 256 x, breakpoints 1.25 ... 3.75
// and two beyond 4 that a reduced input never reaches.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "models/lle/reduced_table_application.h"

namespace coralsim::lle::lle_reduced_table_application_test {
namespace {

NluTable table() {
  NluTable t;
  for (unsigned s = 0; s < NluTable::kSegments; ++s) t.coef[s] = {1000.0f * static_cast<float>(s) + 64.0f, 256.0f, 0.0f, 0.0f, 0.0f};
  t.breakpoints = {1.25f, 1.75f, 2.25f, 2.75f, 3.75f, 5.0f, 9.0f};
  return t;
}

TEST(LleReducedTableApplication, TheInputIsBroughtIntoOneFactorOfFourAndTheValueScaledBackByTheHalfPower) {
  const NluTable t = table();
  struct Case {
    float x;
    int k;
    float m;
    unsigned segment;
  } cases[] = {
      {1.0f, 0, 1.0f, 0},        // the interval's first point: no reduction
      {3.9f, 0, 3.9f, 5},        // the segment past 3.75 reached (3.75 <= 3.9 < 5)
      {4.0f, 1, 1.0f, 0},        // 4^1 exactly: m = 1, not 4
      {200.0f, 3, 3.125f, 4},    // an odd exponent (2^7 <= 200): m in [2, 4)
      {100.0f, 3, 1.5625f, 1},   // an even one (2^6 <= 100): m in [1, 2)
      {0.3f, -1, 1.2f, 0},       // below 1: k negative, the value scaled up
      {0.1f, -2, 1.6f, 1},
  };
  for (const Case& c : cases) {
    const auto a = ReducedTableApplication::of(t, c.x);
    ASSERT_TRUE(a.has_value()) << c.x;
    EXPECT_EQ(a->k, c.k) << c.x;
    EXPECT_FLOAT_EQ(a->m, c.m) << c.x;
    const double value = 1000.0 * c.segment + 64.0 + 256.0 * static_cast<double>(c.m);
    EXPECT_NEAR(a->value, value, 1e-3) << c.x;
    EXPECT_EQ(a->result, static_cast<uint16_t>(std::nearbyint(value * std::ldexp(1.0, -c.k)))) << c.x;
  }
}

TEST(LleReducedTableApplication, ResultsRoundHalfEvenSaturateAndAnInputWithoutAnExponentIsNotApplied) {
  NluTable t = table();
  // A constant 5 at m = 1: 5 x 2^-1 = 2.5 rounds to 2 (half-even; std::round gives 3), 5 x 2^-2 = 1.25 to 1.
  t.coef[0] = {5.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  EXPECT_EQ(ReducedTableApplication::of(t, 4.0f)->result, 2u);
  EXPECT_EQ(ReducedTableApplication::of(t, 16.0f)->result, 1u);
  // 5 x 2^15 at m = 1, x = 4^-15: 163,840 saturates to 65,535; a negative value to 0.
  EXPECT_EQ(ReducedTableApplication::of(t, std::ldexp(1.0f, -30))->result, 65535u);
  t.coef[0] = {-5.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  EXPECT_EQ(ReducedTableApplication::of(t, 1.0f)->result, 0u);
  for (const float x : {0.0f, -1.0f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
    EXPECT_FALSE(ReducedTableApplication::of(t, x).has_value()) << x;
  }
}

}  // namespace
}  // namespace coralsim::lle::lle_reduced_table_application_test
