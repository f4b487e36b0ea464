// The softmax's x - max compute form (docs/decoding-log.md "soft14" §B): two-byte input elements weighed by 16-bit
// weights (ComputeInputBytes 2, ComputeWideWeights) with a bias prefix (ComputeParamPrefix 1). Its w12[35:32] is 0
// in all 70 corpus computes of the form, where every other compute with the prefixed w12 pattern (w12 bits 123, 107,
// 86:85, 66) carries an odd code 2N + 1 there. What the 0 says is not decoded: the envelope pins it to bright 64^2's
// sixteen x - max computes (scripts/regen-lle-envelopes.sh, xmax01). The decoded w12 fields here are this test's own
// (code 3, image mark 77, block mark 9: no corpus compute of the form has them); the pinned bits are the form's.
// Checked: with main's envelopes the form's word 12 is refused naming bit 32.
#include <gtest/gtest.h>

#include <string>

#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_x_minus_max_form_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTile = 1u << 9;

class XMinusMaxFormTest : public ::testing::Test {
 protected:
  // The form's compute with w12[35:32] = `code` (bit 32 the code's mark, bits 33-34 declared flags, bit 35 pinned).
  DecodedPacket compute(uint64_t code) {
    DecodedPacket p = packets_.make(0x01, kTile,
                                    {{LleField::ComputeInputBytes, 2}, {LleField::ComputeInputBytesCode, 2}, {LleField::ComputeWideWeights, 1},
                                     {LleField::ComputeParamPrefix, 1}, {LleField::ComputeCodeW12, 3}, {LleField::ComputeImageMark, 77},
                                     {LleField::ComputeParamBlockMark, 9}, {LleField::ComputeImagePositionsOn, 1},
                                     {LleField::ComputeImagePositionsOnAgain, 1}});
    auto& w12 = packets_.lastWords()[12];
    for (const unsigned bit : {123u, 107u, 86u, 85u, 66u, 44u}) w12.setBits(bit, 1, 1);  // the prefixed computes' w12 pattern
    w12.setBits(32, 4, code);
    p.words = packets_.lastWords();
    return p;
  }

  EnvelopePackets packets_{0x600};
};

TEST_F(XMinusMaxFormTest, ItsWordTwelveWithoutTheOddCodePassesTheEnvelope) {
  const DecodedPacket p = compute(0);
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
  // The prefixed computes' odd codes pass as before (1 and 9: rows of the decode set).
  EXPECT_EQ(checkEnvelope(compute(1)), "");
  EXPECT_EQ(checkEnvelope(compute(9)), "");
}

// Bit 32 is the code's declared mark since "trkfc" §A: bit 35 without it is refused by the form check (word12_form.h).
TEST_F(XMinusMaxFormTest, BitThirtyFiveWithoutTheCodesMarkIsRefusedNamingIt) {
  const std::string why = checkEnvelope(compute(8));
  EXPECT_NE(why.find("word 12"), std::string::npos) << why;
  EXPECT_NE(why.find("ComputeCodeW12HighMark (word 12 bit 32) = 0 with w12[35:33] = 4"), std::string::npos) << why;
}

}  // namespace
}  // namespace coralsim::lle::lle_x_minus_max_form_test
