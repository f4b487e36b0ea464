// The tile MAC array against a direct evaluation of the wide-memory weight layout of docs/isa.md
// §5.1, and the NLU table decoder against the ISA table's own field positions.
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

#include "models/isa/packet_fields.h"
#include "models/lle/mac_array.h"
#include "models/lle/nlu_apply.h"
#include "models/lle/nlu_table.h"

namespace coralsim::lle::lle_mac_nlu_test {
namespace {

TEST(LleMac, MatchesTheLayoutFormulaOfTheDenseTemplates) {
  std::mt19937 rng(3);
  for (uint32_t n : {4u, 64u, 256u, 1024u}) {
    std::vector<int8_t> w(64 * n);  // W[c][i]
    std::vector<uint8_t> x(n);
    for (auto& v : w) v = static_cast<int8_t>(rng());
    for (auto& v : x) v = static_cast<uint8_t>(rng());
    const int32_t zp = static_cast<int32_t>(rng() % 256);
    // byte(c, i) at (i / 4) x 256 + c x 4 + (i % 4) = W[c][i] XOR 0x80
    std::vector<uint8_t> wide(64 * n);
    for (uint32_t c = 0; c < 64; ++c) {
      for (uint32_t i = 0; i < n; ++i) wide[(i / 4) * 256 + c * 4 + i % 4] = static_cast<uint8_t>(w[c * n + i]) ^ 0x80;
    }
    for (MacPath path : {MacPath::kPortable, MacPath::kAvx512Vnni}) {  // VNNI falls back when absent
      int32_t acc[64];
      macGroups(x.data(), zp, wide.data(), n / 4, acc, path);
      for (uint32_t c = 0; c < 64; ++c) {
        int64_t expected = 0;
        for (uint32_t i = 0; i < n; ++i) expected += (int64_t{x[i]} - zp) * w[c * n + i];
        ASSERT_EQ(acc[c], expected) << "n " << n << " lane " << c << " path " << static_cast<int>(path);
      }
    }
  }
}

TEST(LleNlu, DecodesTheTableAtTheIsaFieldPositionsAndEvaluatesPerSegment) {
  std::array<isa::Word128, 13> words{};
  const auto op = static_cast<isa::Opcode>(0x19);
  const isa::FieldDef* coef = isa::findPacketField(op, "coef");
  const isa::FieldDef* bp = isa::findPacketField(op, "bp");
  ASSERT_TRUE(coef && bp);
  auto put = [&](uint32_t lsb, float v) {
    const uint32_t bits = std::bit_cast<uint32_t>(v);
    for (unsigned b = 0; b < 32; ++b) words[(lsb + b) / 128].setBits((lsb + b) % 128, 1, (bits >> b) & 1);
  };
  // Segment s: y = s + 0.5 x (c0 = s, c1 = 0.5); breakpoints -3, -2, ..., 3.
  for (unsigned s = 0; s < 8; ++s) {
    put(coef->elementLsb(s * 5), static_cast<float>(s));
    put(coef->elementLsb(s * 5 + 1), 0.5f);
  }
  for (unsigned b = 0; b < 7; ++b) put(bp->elementLsb(b), static_cast<float>(b) - 3.0f);
  const NluTable t = NluTable::fromPacket(words);
  EXPECT_EQ(t.breakpoints[0], -3.0f);
  EXPECT_EQ(t.coef[7][0], 7.0f);
  EXPECT_EQ(t.segmentOf(-10.0f), 0u);
  EXPECT_EQ(t.segmentOf(-3.0f), 1u);
  EXPECT_EQ(t.segmentOf(2.5f), 6u);
  EXPECT_EQ(t.segmentOf(3.0f), 7u);
  EXPECT_FLOAT_EQ(t.evaluate(2.5f), 6.0f + 1.25f);
  EXPECT_FLOAT_EQ(t.evaluate(-10.0f), 0.0f - 5.0f);
}

// The application (ComputeNluApply, docs/decoding-log.md "nlu" §D): acc x scale x mult clamped in
// float32 is the table's x (not rounded first), the value is rounded half-even and saturated to 16 bits.
TEST(LleNlu, AnApplicationClampsTheScaledAccumulatorIntoTheTableAndSaturatesToSixteenBits) {
  NluTable t;
  // Segment s: y = 1000 s + 0.5 + 10 x; the last segment jumps above 16 bits, the first below 0.
  for (unsigned s = 0; s < 8; ++s) t.coef[s] = {1000.0f * static_cast<float>(s) + 0.5f, 10.0f, 0.0f, 0.0f, 0.0f};
  t.coef[0][0] = -500.0f;
  t.coef[7][0] = 80000.0f;
  for (unsigned b = 0; b < 7; ++b) t.breakpoints[b] = static_cast<float>(b) - 3.0f;
  const NluApplication apply(0.5f, 0.25f, -3.5f, 2.75f);  // x = acc / 8, clamped to [-3.5, 2.75]
  EXPECT_EQ(apply.input(3), 0.375f);          // not rounded to 0 before the table
  EXPECT_EQ(apply(t, 3), 4004u);              // segment 4: 4000.5 + 3.75 = 4004.25
  EXPECT_EQ(apply(t, -4), 2996u);             // x = -0.5, segment 3: 3000.5 - 5 = 2995.5 -> 2996 (half-even)
  EXPECT_EQ(apply.input(1000), 2.75f);        // clamped above: segment 6, 6000.5 + 27.5 = 6028
  EXPECT_EQ(apply(t, 1000), 6028u);
  EXPECT_EQ(apply.input(-1000), -3.5f);       // clamped below: segment 0, -500 - 35 -> 0
  EXPECT_EQ(apply(t, -1000), 0u);
  const NluApplication wide(1.0f, 1.0f, -10.0f, 10.0f);
  EXPECT_EQ(wide(t, 5), 65535u);              // segment 7: 80050.5 saturates
  EXPECT_EQ(wide(t, -2), 1980u);              // x = -2 opens segment 2: 2000.5 - 20 = 1980.5 -> 1980 (half-even)
}

}  // namespace
}  // namespace coralsim::lle::lle_mac_nlu_test
