// The number after a compute's output element size (ComputeOutHalfPositions, w4[98:83]; docs/decoding-log.md "w6b122"
// §D): half the output nest's level-0 positions where ComputeOutputBytes is 0, 0 beside the other sizes. A compute of
// 10 positions at level 0 (ComputeOut37Limit0 9: the corpus's form has 6, 12, 24, 48 or 96) on tiles 3 and 9 with the
// number 5 passes the envelope and its relations; 4 or 6 is refused naming the fields, and so is an odd count of
// positions (7: no half). Beside 4-byte units the number must be 0 (0 beside element size 0 is left to the rung's
// refusal of that size). The bits are written raw, so the test builds on a tree without the field (checked: on the
// previous commit all three tests fail, the pass case refused "word 4 ... bits 85, 83 have no decoded meaning").
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 3) | (1u << 9);
constexpr unsigned kNumberBit = 83;  // w4: after ComputeOutputBytes, w4[82:80]

DecodedPacket compute(EnvelopePackets& f, uint64_t outputBytes, uint64_t levelZeroLimit, uint64_t number) {
  DecodedPacket p = f.make(0x01, kTiles,
                           {{LleField::ComputeOutputBytes, outputBytes}, {LleField::ComputeOut37Flags6, 3},
                            {LleField::ComputeOut37Limit0, levelZeroLimit}});
  f.lastWords()[4].setBits(kNumberBit, 16, number);  // the bits themselves, not through the field's row
  return p;
}

TEST(LleOutputHalfPositions, HalfTheLevelZeroPositionsBesideElementSizeZeroPasses) {
  EnvelopePackets f(0x700);
  const DecodedPacket p = compute(f, 0, 9, 5);
  EXPECT_EQ(p.words[4].bits(kNumberBit, 16), 5u);
  EXPECT_EQ(checkEnvelope(p), "");
}

TEST(LleOutputHalfPositions, AnotherNumberOrAnOddCountIsRefusedNamingTheFields) {
  for (const auto& [limit, number] : {std::pair<uint64_t, uint64_t>{9, 4}, {9, 6}, {6, 3}, {6, 4}}) {
    EnvelopePackets f(0x800);
    const std::string refusal = checkEnvelope(compute(f, 0, limit, number));
    EXPECT_NE(refusal.find("ComputeOutHalfPositions (word 4 bits 98:83) = " + std::to_string(number)), std::string::npos)
        << limit + 1 << " positions, number " << number << ": " << refusal;
    EXPECT_NE(refusal.find("ComputeOut37Limit0"), std::string::npos) << refusal;
  }
}

TEST(LleOutputHalfPositions, BesideFourByteUnitsTheNumberIsZero) {
  EnvelopePackets f(0x900);
  EXPECT_EQ(checkEnvelope(compute(f, 4, 9, 0)), "");
  const std::string refusal = checkEnvelope(compute(f, 4, 9, 5));
  EXPECT_NE(refusal.find("ComputeOutHalfPositions (word 4 bits 98:83) = 5 with ComputeOutputBytes (word 4 bits 82:80) = 4"),
            std::string::npos)
      << refusal;
}

}  // namespace
}  // namespace coralsim::lle
