// The w10 nest's level-0 mark (models/lle/w10_level0_once.h; lle_fields.def ComputeW10Level0Once, w9 bit 122;
// docs/decoding-log.md "w9b122"): set in exactly the corpus computes whose w10 nest runs its level 0 once
// (ComputeK4W10 = 0). Computes on tiles 3 and 9 with level-0 limits 0 and 45 (45 + 1 = 46 K groups: no corpus
// compute counts that) and w9[54:51]'s pinned run of the stride sweep's 1 x 1 (bits 51, 53, 54 beside the declared
// bit 52): the mark agreeing with the limit passes the envelope and the relations whichever it is -- model_conv's
// 7 x 7 compute @ 0x021e, mark clear beside that run, was refused on main naming w9 bit 122 --, a mark that
// disagrees is refused naming both fields.
#include <gtest/gtest.h>

#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/lle/w10_level0_once.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_w10_level0_once_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 3) | (1u << 9);
constexpr uint64_t kCountingLimit = 45;

class W10Level0OnceTest : public ::testing::Test {
 protected:
  DecodedPacket compute(uint64_t level0Limit, uint64_t mark) {
    DecodedPacket p = packets_.make(0x01, kTiles,
                                    {{LleField::ComputeK4W10, level0Limit}, {LleField::ComputeW10Level0Once, mark},
                                     {LleField::ComputeOutputBytes, 4}, {LleField::ComputeFlagW9Bit52, 1}});
    auto& words = packets_.lastWords();
    words[9].setBits(51, 1, 1);  // raw bits: the stride sweep's w9[54:51] run, undecoded, pinned by its envelope row
    words[9].setBits(53, 2, 3);
    return p;
  }

  EnvelopePackets packets_{0x300};
};

TEST_F(W10Level0OnceTest, AMarkThatAgreesWithTheLevel0LimitPassesTheEnvelopeEitherWay) {
  const DecodedPacket once = compute(0, 1);
  EXPECT_EQ(once.words[9].bits(122, 1), 1u);
  EXPECT_EQ(w10Level0OnceProblem(once.words), "");
  EXPECT_EQ(checkEnvelope(once), "") << checkEnvelope(once);
  const DecodedPacket counting = compute(kCountingLimit, 0);
  EXPECT_EQ(counting.words[9].bits(122, 1), 0u);
  EXPECT_EQ(readField(counting.words, LleField::ComputeK4W10), kCountingLimit);
  EXPECT_EQ(w10Level0OnceProblem(counting.words), "");
  EXPECT_EQ(checkEnvelope(counting), "") << checkEnvelope(counting);
}

TEST_F(W10Level0OnceTest, AMarkThatDisagreesWithTheLevel0LimitIsRefusedNamingBothFields) {
  const std::string clearOnce = checkEnvelope(compute(0, 0));
  EXPECT_NE(clearOnce.find("ComputeW10Level0Once (word 9 bit 122) = 0 with ComputeK4W10 (word 10 bits 22:9) = 0"), std::string::npos)
      << clearOnce;
  const std::string setCounting = checkEnvelope(compute(kCountingLimit, 1));
  EXPECT_NE(setCounting.find("ComputeW10Level0Once (word 9 bit 122) = 1 with ComputeK4W10 (word 10 bits 22:9) = 45"), std::string::npos)
      << setCounting;
  EXPECT_NE(setCounting.find("runs once"), std::string::npos) << setCounting;
}

}  // namespace
}  // namespace coralsim::lle::lle_w10_level0_once_test
