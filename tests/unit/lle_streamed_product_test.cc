// The streamed product's shape (models/lle/streamed_product.h; docs/decoding-log.md "loom35"): a compute of one-byte
// elements whose second operand a read marked Stage13TakenByCompute streams in, K bytes a position. Here 10 positions
// (the w0 nest 1 x 5 x 2) of K = 4 from narrow byte 148 -- a count and base no corpus compute has (looming's MULs: 256
// positions from byte 0): the input walk must be one run of bytes, the weight walk the same K bytes for every position.
#include <gtest/gtest.h>

#include <string>
#include <vector>
#include <variant>

#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/requantizer.h"
#include "models/lle/streamed_product.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_streamed_product_test {
namespace {

using models::DecodedPacket;

class StreamedProductTest : public ::testing::Test {
 protected:
  void setElement(LleField field, unsigned element, uint64_t value) {
    const LleFieldDef& f = fieldDef(field);
    const unsigned lsb = f.lsb + element * f.stride;
    packets_.lastWords()[lsb / 128].setBits(lsb % 128, f.width, value);
  }

  // K = 4 one-byte elements at Nest37 level 0, 5 x 2 positions at levels 1-2 (strides 4 and 20 bytes: one run), Nest29
  // walking the same 4 bytes for every position (slot carries -3 bytes: wrap -1 unit and low bits 1).
  DecodedPacket product() {
    DecodedPacket p = packets_.make(0x01, 0x0030,
                                    {{LleField::ComputeK4W0, 3}, {LleField::ComputeK4W1, 3}, {LleField::ComputeInputBytes, 1},
                                     {LleField::ComputeInputBytesCode, 1}, {LleField::ComputeInputAt4, 37}, {LleField::ComputeInputByte, 0},
                                     {LleField::ComputePositionStep37, 0}, {LleField::ComputeNest37Limit1, 4},
                                     {LleField::ComputeNest37Carry1, 1}, {LleField::ComputePositions, 1}, {LleField::ComputeNest37Limit3, 0},
                                     {LleField::ComputeK4W7, 3}, {LleField::ComputeLimit29Level3, 0}, {LleField::ComputeKWrapW7, 8191},
                                     {LleField::ComputeLimitW0Level4, 0}});
    for (unsigned e = 0; e < fieldDef(LleField::ComputeNest37LimitHigh).count; ++e) setElement(LleField::ComputeNest37LimitHigh, e, 0);
    for (unsigned e = 0; e < fieldDef(LleField::ComputeLimitW0Levels56).count; ++e) setElement(LleField::ComputeLimitW0Levels56, e, 0);
    setElement(LleField::ComputeLimitW0, 0, 0);
    setElement(LleField::ComputeLimitW0, 1, 4);
    setElement(LleField::ComputeLimitW0, 2, 1);
    setElement(LleField::ComputeLimit29, 0, 4);
    setElement(LleField::ComputeLimit29, 1, 1);
    for (unsigned e = 0; e < fieldDef(LleField::ComputeKWrap29).count; ++e) setElement(LleField::ComputeKWrap29, e, 8191);
    for (unsigned e = 0; e < fieldDef(LleField::ComputeNest29CarryLow).count; ++e) setElement(LleField::ComputeNest29CarryLow, e, 1);
    return p;
  }

  static std::string refusal(const DecodedPacket& p) {
    const auto shape = StreamedProduct::fromPacket(p.words);
    return std::holds_alternative<std::string>(shape) ? std::get<std::string>(shape) : "accepted";
  }

  EnvelopePackets packets_{0x300};
};

TEST_F(StreamedProductTest, ItsPositionsAreTheW0NestAndItsInputOneRunOfBytes) {
  const auto shape = StreamedProduct::fromPacket(product().words);
  ASSERT_TRUE(std::holds_alternative<StreamedProduct>(shape)) << std::get<std::string>(shape);
  const StreamedProduct& p = std::get<StreamedProduct>(shape);
  EXPECT_EQ(p.positions, 10u);
  EXPECT_EQ(p.elements, 4u);
  EXPECT_EQ(p.inputAt, 148u);
  EXPECT_EQ(p.bytes(), 40u);  // the stream the read must bring
}

TEST_F(StreamedProductTest, AnInputWalkThatIsNotOneRunIsRefusedNamingTheByte) {
  DecodedPacket p = product();
  setElement(LleField::ComputeNest37Carry1, 0, 2);  // level 2 steps 21 bytes: the second row of positions starts a byte late
  const std::string why = refusal(p);
  EXPECT_NE(why.find("Nest37 reads input byte 20 at offset 21"), std::string::npos) << why;
}

TEST_F(StreamedProductTest, WeightBytesThatMoveBetweenPositionsAreRefused) {
  DecodedPacket p = product();
  setElement(LleField::ComputeNest29CarryLow, 0, 2);  // slot 0 carries -2 bytes: each position one byte further on
  const std::string why = refusal(p);
  EXPECT_NE(why.find("Nest29's level 1 moves the weight bytes by 1"), std::string::npos) << why;
}

TEST_F(StreamedProductTest, ANest37LevelZeroThatIsNotTheKElementsIsRefused) {
  DecodedPacket p = product();
  setElement(LleField::ComputeK4W1, 0, 1);
  const std::string why = refusal(p);
  EXPECT_NE(why.find("ComputeK4W1 = 1 is not ComputeK4W0 = 3"), std::string::npos) << why;
}

// The product's units ("loom13"): one 4-byte unit a K element, executed where every element but a position's first is the
// zero point on both sides (any lane rule then gives the same bytes). Zero points 120 / 131, multiplier 0.05 and output zero
// point 3 (so requant(0) = 3, not a raw 0) -- no corpus compute has them (looming's MULs: 128 / 128 and 127 / 127, zero point 0).
TEST_F(StreamedProductTest, ItsUnitsHoldThePositionsFirstProductInLaneZeroWhereOtherElementsAreZeroPoints) {
  const auto shape = StreamedProduct::fromPacket(product().words);
  ASSERT_TRUE(std::holds_alternative<StreamedProduct>(shape)) << std::get<std::string>(shape);
  const StreamedProduct& p = std::get<StreamedProduct>(shape);
  ASSERT_EQ(p.bytes(), 40u);
  std::vector<uint8_t> input(40, 120), stream(40, 131);
  input[0] = 150, stream[0] = 171;  // (30)(40) = 1,200 x 0.05 = 60, + 3 = 63
  input[4] = 100, stream[4] = 111;  // (-20)(-20) = 400 x 0.05 = 20, + 3 = 23
  input[8] = 200, stream[8] = 131;  // x (0): 0, + 3 = 3
  const Requantizer requant(1.0f, 0.05f, 0.0f, 255.0f, 3, models::RequantRounding::kFp32HalfEven);
  const auto units = p.unitsWhereOnlyFirstElementsWeigh(input, stream, 120, 131, requant);
  ASSERT_TRUE(std::holds_alternative<std::vector<uint8_t>>(units)) << std::get<std::string>(units);
  const std::vector<uint8_t>& bytes = std::get<std::vector<uint8_t>>(units);
  ASSERT_EQ(bytes.size(), 160u);  // 10 positions x K = 4 units of 4 bytes
  EXPECT_EQ(bytes[0], 63);        // position 0, element 0, lane 0
  EXPECT_EQ(bytes[16], 23);       // position 1's first unit
  EXPECT_EQ(bytes[32], 3);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i % 16 == 0) continue;  // lane 0 of each position's first unit
    EXPECT_EQ(bytes[i], 3) << "byte " << i;
  }
}

TEST_F(StreamedProductTest, ItsUnitsAreRefusedWhereAnotherElementWeighsNamingThePositionAndElement) {
  const StreamedProduct p = std::get<StreamedProduct>(StreamedProduct::fromPacket(product().words));
  const Requantizer requant(1.0f, 0.05f, 0.0f, 255.0f, 3, models::RequantRounding::kFp32HalfEven);
  std::vector<uint8_t> input(40, 120), stream(40, 131);
  input[7 * 4 + 2] = 119;
  const auto in = p.unitsWhereOnlyFirstElementsWeigh(input, stream, 120, 131, requant);
  ASSERT_TRUE(std::holds_alternative<std::string>(in));
  EXPECT_NE(std::get<std::string>(in).find("position 7 element 2: input byte 119"), std::string::npos) << std::get<std::string>(in);
  input[7 * 4 + 2] = 120;
  stream[3 * 4 + 1] = 0;
  const auto st = p.unitsWhereOnlyFirstElementsWeigh(input, stream, 120, 131, requant);
  ASSERT_TRUE(std::holds_alternative<std::string>(st));
  EXPECT_NE(std::get<std::string>(st).find("position 3 element 1: input byte 120, stream byte 0"), std::string::npos)
      << std::get<std::string>(st);
}

}  // namespace
}  // namespace coralsim::lle::lle_streamed_product_test
