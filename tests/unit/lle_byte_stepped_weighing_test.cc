// The byte-stepped weighing (models/lle/byte_stepped_weighing.h; docs/decoding-log.md "loomid"): 4-byte input groups, K a
// position, weighed through a weight walk that steps one byte a group over a kept 16-byte block and returns. Here 6
// positions (the w0 nest 1 x 3 x 2) of K = 3 groups from narrow unit 50 -- a K, count and base no corpus compute has
// (looming's identities @ 0x0149 / 0x019a: 256 positions of K = 4 from unit 580).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <variant>
#include <vector>

#include "models/chip_config.h"
#include "models/lle/byte_stepped_weighing.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/requantizer.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_byte_stepped_weighing_test {
namespace {

using models::DecodedPacket;

class ByteSteppedWeighingTest : public ::testing::Test {
 protected:
  void setElement(LleField field, unsigned element, uint64_t value) {
    const LleFieldDef& f = fieldDef(field);
    const unsigned lsb = f.lsb + element * f.stride;
    packets_.lastWords()[lsb / 128].setBits(lsb % 128, f.width, value);
  }
  void setAll(LleField field, uint64_t value) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) setElement(field, e, value);
  }

  // K = 3 groups of 4 bytes at Nest37 level 0 (stride 4), 3 x 2 positions at levels 1-2 (strides 12 and 36 bytes: one run
  // of 18 units); Nest29 stepping 3 bytes at level 0 and back at every level (slot carries -1 unit + 2 bytes = -2), 3 x 2
  // iterations above it at levels 2-3; the w10 nest the same 18.
  DecodedPacket weighing() {
    DecodedPacket p = packets_.make(0x01, 0x0030,
                                    {{LleField::ComputeK4W0, 2}, {LleField::ComputeK4W1, 2}, {LleField::ComputeInputBytes, 4},
                                     {LleField::ComputeInputBytesCode, 0}, {LleField::ComputeInputRingOn, 0}, {LleField::ComputeInputAt4, 50},
                                     {LleField::ComputeInputByte, 0}, {LleField::ComputePositionStep37, 1},
                                     {LleField::ComputeNest37Limit1, 2}, {LleField::ComputeNest37Carry1, 4}, {LleField::ComputePositions, 1},
                                     {LleField::ComputeNest37Limit3, 0}, {LleField::ComputeK4W7, 2}, {LleField::ComputeLimit29Level3, 1},
                                     {LleField::ComputeKWrapW7, 8191}, {LleField::ComputeK4W10, 2}, {LleField::ComputeLimitW10Level3, 1},
                                     {LleField::ComputeLimitW0Level4, 0}});
    setAll(LleField::ComputeNest37LimitHigh, 0);
    setAll(LleField::ComputeLimitW0Levels56, 0);
    setAll(LleField::ComputeLimit29High, 0);
    setAll(LleField::ComputeLimitW10High, 0);
    setElement(LleField::ComputeLimitW0, 0, 0);
    setElement(LleField::ComputeLimitW0, 1, 2);
    setElement(LleField::ComputeLimitW0, 2, 1);
    setElement(LleField::ComputeLimit29, 0, 0);
    setElement(LleField::ComputeLimit29, 1, 2);
    setElement(LleField::ComputeLimitW10, 0, 0);
    setElement(LleField::ComputeLimitW10, 1, 2);
    setAll(LleField::ComputeKWrap29, 8191);
    setAll(LleField::ComputeNest29CarryLow, 2);
    return p;
  }

  static std::string refusal(const DecodedPacket& p) {
    const auto shape = ByteSteppedWeighing::fromPacket(p.words);
    return std::holds_alternative<std::string>(shape) ? std::get<std::string>(shape) : "accepted";
  }

  EnvelopePackets packets_{0x300};
};

TEST_F(ByteSteppedWeighingTest, ItIsTheFormWhereTheWeightNestCarriesAPartOfAUnit) {
  DecodedPacket p = weighing();
  EXPECT_TRUE(ByteSteppedWeighing::isForm(p.words));
  setElement(LleField::ComputeNest29CarryLow, 0, 0);  // whole units: the 4-byte forms' weight walk
  EXPECT_FALSE(ByteSteppedWeighing::isForm(p.words));
}

TEST_F(ByteSteppedWeighingTest, ItsPositionsAreTheW0NestAndItsInputOneRunOfUnits) {
  const auto shape = ByteSteppedWeighing::fromPacket(weighing().words);
  ASSERT_TRUE(std::holds_alternative<ByteSteppedWeighing>(shape)) << std::get<std::string>(shape);
  const ByteSteppedWeighing& w = std::get<ByteSteppedWeighing>(shape);
  EXPECT_EQ(w.positions, 6u);
  EXPECT_EQ(w.groups, 3u);
  EXPECT_EQ(w.inputAt, 200u);
  EXPECT_EQ(w.inputBytes(), 72u);
}

TEST_F(ByteSteppedWeighingTest, WalksThatAreNotTheFormAreRefusedNamingTheLevel) {
  DecodedPacket p = weighing();
  setElement(LleField::ComputeNest29CarryLow, 1, 3);  // slot 1 carries -1 byte: level 2 moves one byte on
  EXPECT_NE(refusal(p).find("Nest29's level 2 moves the weight bytes by 1"), std::string::npos) << refusal(p);
  p = weighing();
  setElement(LleField::ComputeNest37Carry1, 0, 8);  // level 2 steps 40 bytes: the second row of positions a unit late
  EXPECT_NE(refusal(p).find("Nest37 reads input group 9 at byte offset 40"), std::string::npos) << refusal(p);
  p = weighing();
  setElement(LleField::ComputeK4W7, 0, 1);
  EXPECT_NE(refusal(p).find("ComputeK4W7 = 1 is not ComputeK4W0 = 2"), std::string::npos) << refusal(p);
  p = weighing();
  setElement(LleField::ComputeLimitW10Level3, 0, 2);
  EXPECT_NE(refusal(p).find("nest counts 27 iterations where the w0 nest counts 18"), std::string::npos) << refusal(p);
}

// Zero point 120, bias -6, multiplier 0.5, output zero point 40, block byte 0 = 3 (no corpus compute has them: looming's
// identities carry 0, 0, 1.0, 0 and the identity block): lane 0 = requant(-6 + (x - 120) x 3), lanes 1-3 requant(-6) = 37.
TEST_F(ByteSteppedWeighingTest, ItsUnitsHoldLaneZeroOfEachPositionsFirstGroupWeighedByBlockByteZero) {
  const ByteSteppedWeighing w = std::get<ByteSteppedWeighing>(ByteSteppedWeighing::fromPacket(weighing().words));
  std::vector<uint8_t> input(72, 120);
  input[0] = 130;       // position 0: (10)(3) - 6 = 24 x 0.5 = 12, + 40 = 52
  input[12] = 110;      // position 1: (-10)(3) - 6 = -36 x 0.5 = -18, + 40 = 22
  input[5 * 12] = 120;  // position 5: -6 x 0.5 = -3, + 40 = 37
  // Unit 0: 3, then bytes the zero-point lanes meet under every reading; units 1-3: byte 0 zero, the rest anything.
  const std::vector<uint8_t> block = {3, 7, 0xfe, 5, 0, 9, 9, 9, 0, 1, 2, 3, 0, 0x80, 0x7f, 4};
  const Requantizer requant(1.0f, 0.5f, -128.0f, 127.0f, 40, models::RequantRounding::kFp32HalfEven);
  const auto units = w.unitsWhereOnlyLaneZeroWeighs(input, block, 120, -6, requant);
  ASSERT_TRUE(std::holds_alternative<std::vector<uint8_t>>(units)) << std::get<std::string>(units);
  const std::vector<uint8_t>& bytes = std::get<std::vector<uint8_t>>(units);
  ASSERT_EQ(bytes.size(), 24u);  // one unit a position
  EXPECT_EQ(bytes[0], 52);
  EXPECT_EQ(bytes[4], 22);
  EXPECT_EQ(bytes[20], 37);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i % 4 == 0) continue;
    EXPECT_EQ(bytes[i], 37) << "byte " << i;
  }
}

TEST_F(ByteSteppedWeighingTest, ItsUnitsAreRefusedWhereAnotherLaneOrBlockByteWeighs) {
  const ByteSteppedWeighing w = std::get<ByteSteppedWeighing>(ByteSteppedWeighing::fromPacket(weighing().words));
  const Requantizer requant(1.0f, 0.5f, -128.0f, 127.0f, 40, models::RequantRounding::kFp32HalfEven);
  std::vector<uint8_t> block(16, 0);
  block[0] = 1;
  std::vector<uint8_t> input(72, 120);
  input[(4 * 3 + 1) * 4 + 0] = 119;  // position 4, group 1, lane 0
  const auto in = w.unitsWhereOnlyLaneZeroWeighs(input, block, 120, 0, requant);
  ASSERT_TRUE(std::holds_alternative<std::string>(in));
  EXPECT_NE(std::get<std::string>(in).find("position 4 group 1 lane 0: input byte 119"), std::string::npos) << std::get<std::string>(in);
  input.assign(72, 120);
  input[2 * 12 + 3] = 0;  // position 2, group 0, lane 3
  const auto lane = w.unitsWhereOnlyLaneZeroWeighs(input, block, 120, 0, requant);
  ASSERT_TRUE(std::holds_alternative<std::string>(lane));
  EXPECT_NE(std::get<std::string>(lane).find("position 2 group 0 lane 3"), std::string::npos) << std::get<std::string>(lane);
  input.assign(72, 120);
  block[8] = 1;  // unit 2 byte 0
  const auto blk = w.unitsWhereOnlyLaneZeroWeighs(input, block, 120, 0, requant);
  ASSERT_TRUE(std::holds_alternative<std::string>(blk));
  EXPECT_NE(std::get<std::string>(blk).find("block unit 2 byte 0 = 1"), std::string::npos) << std::get<std::string>(blk);
}

// The softmax's one-position form (bright's 0x07d1, docs/decoding-log.md "trk14c"): K = 4 groups read as one run with no
// tap-row level, so Nest37's level-0 wrap is +1 unit (on to the next unit) and levels 1-4 return (-3), and Nest29's slots
// return 3 bytes (-1 unit + 1 byte), which the K-wrap rows (-(K - 1) units) do not describe. The form's own walk check
// holds them; a walk it refuses keeps the rows.
TEST_F(ByteSteppedWeighingTest, OnePositionsPlusOneLevelZeroWrapIsTheRunAndNotAKWrapError) {
  DecodedPacket p = packets_.make(0x01, 0x0030,
                                  {{LleField::ComputeK4W0, 3}, {LleField::ComputeK4W1, 3}, {LleField::ComputeInputBytes, 4},
                                   {LleField::ComputeInputBytesCode, 0}, {LleField::ComputeInputRingOn, 0}, {LleField::ComputeInputAt4, 50},
                                   {LleField::ComputeInputByte, 0}, {LleField::ComputePositionStep37, 1},
                                   {LleField::ComputeNest37Limit1, 0}, {LleField::ComputePositions, 0},
                                   {LleField::ComputeNest37Limit3, 0}, {LleField::ComputeK4W7, 3}, {LleField::ComputeLimit29Level3, 0},
                                   {LleField::ComputeKWrapW7, 8191}, {LleField::ComputeK4W10, 3}, {LleField::ComputeLimitW10Level3, 0},
                                   {LleField::ComputeLimitW0Level4, 0}});
  setAll(LleField::ComputeNest37LimitHigh, 0);
  setAll(LleField::ComputeLimitW0Levels56, 0);
  setAll(LleField::ComputeLimit29High, 0);
  setAll(LleField::ComputeLimitW10High, 0);
  setAll(LleField::ComputeLimitW0, 0);
  setAll(LleField::ComputeLimit29, 0);
  setAll(LleField::ComputeLimitW10, 0);
  setAll(LleField::ComputeKWrap29, 8191);
  setAll(LleField::ComputeNest29CarryLow, 1);
  setAll(LleField::ComputeNest37CarryLow, 0);
  setAll(LleField::ComputeKWrap37, (1u << 17) - 3);
  setElement(LleField::ComputeKWrap37, 0, 1);
  ASSERT_EQ(refusal(p), "accepted");
  EXPECT_EQ(checkFieldRelations(0x01, p.words).find("ComputeKWrap"), std::string::npos) << checkFieldRelations(0x01, p.words);
  setElement(LleField::ComputeNest29CarryLow, 0, 0);  // whole units: not the form, the K-wrap row applies
  EXPECT_NE(checkFieldRelations(0x01, p.words).find("ComputeKWrap37[0] (word 2 bits 82:66) = 1"), std::string::npos) << checkFieldRelations(0x01, p.words);
  setElement(LleField::ComputeNest29CarryLow, 0, 1);
  setElement(LleField::ComputeK4W7, 0, 2);  // a walk the form refuses keeps the row
  EXPECT_NE(refusal(p), "accepted");
  EXPECT_NE(checkFieldRelations(0x01, p.words).find("ComputeKWrap37[0] (word 2 bits 82:66) = 1"), std::string::npos) << checkFieldRelations(0x01, p.words);
}

}  // namespace
}  // namespace coralsim::lle::lle_byte_stepped_weighing_test

namespace coralsim::lle::lle_byte_stepped_weighing_test {
namespace {

// The diagonal rule (docs/decoding-log.md "trk15"): lane c of a position = bias + sum over k of (lane c of group k - zpIn)
// x signed byte k of block unit c. Position 1 of 6 differs from the zero point 100; the block is no identity, so the
// rotating read (lane c from lane (c - k) mod 4 of group k: lane 0 = 5 + 20 - 3 + 0 = 22) and the step-ignoring
// readings give other sums. Byte 3 of every unit is past K = 3 and weighs nothing.
TEST_F(ByteSteppedWeighingTest, TheDiagonalRuleWeighsLaneCOfGroupKByByteKOfBlockUnitC) {
  const ByteSteppedWeighing w = std::get<ByteSteppedWeighing>(ByteSteppedWeighing::fromPacket(weighing().words));
  std::vector<uint8_t> input(72, 100);
  const uint8_t position1[12] = {110, 90, 101, 100, 100, 104, 100, 99, 102, 100, 100, 100};
  std::copy(std::begin(position1), std::end(position1), input.begin() + 12);
  const std::vector<uint8_t> block = {2, 3, 5, 99, 7, 0xff, 4, 99, 1, 1, 1, 99, 0xfe, 6, 0, 99};
  const auto sums = w.diagonalLaneSums(input, block, 100, 5);
  ASSERT_TRUE(std::holds_alternative<std::vector<int32_t>>(sums)) << std::get<std::string>(sums);
  const std::vector<int32_t>& s = std::get<std::vector<int32_t>>(sums);
  ASSERT_EQ(s.size(), 24u);  // 4 lanes a position
  EXPECT_EQ(s[4], 35);   // 5 + 10 x 2 + 0 x 3 + 2 x 5
  EXPECT_EQ(s[5], -69);  // 5 - 10 x 7 + 4 x -1 + 0 x 4
  EXPECT_EQ(s[6], 6);    // 5 + 1 x 1
  EXPECT_EQ(s[7], -1);   // 5 + 0 x -2 + -1 x 6
  for (size_t i = 0; i < s.size(); ++i) {
    if (i / 4 == 1) continue;
    EXPECT_EQ(s[i], 5) << "lane sum " << i;
  }
  EXPECT_NE(std::get<std::string>(w.diagonalLaneSums(input, std::vector<uint8_t>(12, 0), 100, 5)).find("not 16"), std::string::npos);
}

// 16-bit results: the sum x multiplier clamped, rounded half-even, saturated to 0 .. 65,535, low byte first.
TEST_F(ByteSteppedWeighingTest, SixteenBitResultsRoundHalfEvenClampAndSaturateLowByteFirst) {
  const std::vector<int32_t> sums = {35, -69, 6, 13107, 27000, 1, 3, 5};
  const std::vector<uint8_t> clamped = ByteSteppedWeighing::sixteenBitResults(sums, 2.5f, -1000.0f, 60000.0f);
  ASSERT_EQ(clamped.size(), 16u);
  const auto at = [&](const std::vector<uint8_t>& b, size_t i) { return unsigned{b[2 * i]} | unsigned{b[2 * i + 1]} << 8; };
  EXPECT_EQ(at(clamped, 0), 88u);     // 87.5 -> 88 (even)
  EXPECT_EQ(at(clamped, 1), 0u);      // -172.5: saturated at 0
  EXPECT_EQ(at(clamped, 2), 15u);
  EXPECT_EQ(at(clamped, 3), 32768u);  // 32,767.5 -> 32,768 (even)
  EXPECT_EQ(at(clamped, 4), 60000u);  // 67,500 clamped by ClampHi
  EXPECT_EQ(at(clamped, 5), 2u);      // 2.5 -> 2 (even)
  EXPECT_EQ(at(clamped, 6), 8u);      // 7.5 -> 8
  EXPECT_EQ(clamped[6], 0x00);
  EXPECT_EQ(clamped[7], 0x80);  // 32,768's high byte second
  const std::vector<uint8_t> open = ByteSteppedWeighing::sixteenBitResults(sums, 2.5f, -1e30f, 1e30f);
  EXPECT_EQ(at(open, 4), 65535u);  // 67,500 saturated to 16 bits
}

}  // namespace
}  // namespace coralsim::lle::lle_byte_stepped_weighing_test
