// The one-row partial-sum walk (models/lle/one_row_walk.h, partial_sum_walk.h, next_packet_watch.h; docs/decoding-log.md
// "mnv1psum"): a compute that keeps partial sums in a row while no slot of its w10 nest carries keeps them in that
// one row, its K passes counted at level 1 and its levels above run one whole reduction after another in it (MobileNet
// v1's last pointwise layers: 4 / 8 / 16 / 32 passes at level 1, 4 / 12 / 16 output lane groups at level 2). A compute
// on tiles 4 and 9 with a shape no corpus compute has -- 6 groups at level 0, 6 passes at level 1, 3 iterations at
// level 2, row 700 -- passes the envelope and the relations; the same compute with one carry the decoded walks do not
// make is refused naming the row; the feeding write must say half the 6 level-1 passes (3), not 0.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "models/lle/lle_fields.h"
#include "models/lle/next_packet_watch.h"
#include "models/lle/one_row_walk.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_one_row_walk_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 4) | (1u << 9);

class OneRowWalkTest : public ::testing::Test {
 protected:
  // wrap1: slot 1's wrap (0 in the one-row walk; -1 makes level 2 step back a row, a walk no decoded rule reads).
  DecodedPacket compute(uint64_t row, int64_t wrap1 = 0) {
    DecodedPacket p = packets_.make(0x01, kTiles,
                                    {{LleField::ComputeK4W10, 5},
                                     {LleField::ComputeW10Level0Once, 0},
                                     {LleField::ComputeOutputBytes, 4},
                                     {LleField::ComputePartialSumRow, row}});
    auto& words = packets_.lastWords();
    setFieldElement(words, LleField::ComputeLimitW10, 0, 5);
    setFieldElement(words, LleField::ComputeLimitW10, 1, 2);
    setFieldElement(words, LleField::ComputeWrapW10, 1, static_cast<uint64_t>(wrap1) & 0x1fff);
    p.words = words;
    return p;
  }

  EnvelopePackets packets_{0x400};
};

TEST_F(OneRowWalkTest, ARowWithNoCarryIsOneRowAndPassesTheEnvelope) {
  const DecodedPacket p = compute(700);
  EXPECT_TRUE(keepsSumsInOneRow(p.words));
  EXPECT_EQ(oneRowWalkPasses(p.words), 6u);
  EXPECT_EQ(readField(p.words, LleField::ComputePartialSumWalkOn), 0u);
  EXPECT_EQ(readField(p.words, LleField::ComputeTopLevelPasses), 0u);
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
}

TEST_F(OneRowWalkTest, NoRowOrACarryIsNotTheOneRowWalk) {
  EXPECT_FALSE(keepsSumsInOneRow(compute(0).words));
  EXPECT_FALSE(keepsSumsInOneRow(compute(700, -1).words));
  const std::string why = checkEnvelope(compute(700, -1));
  EXPECT_NE(why.find("ComputePartialSumRow (word 9 bits 121:110) = 700"), std::string::npos) << why;
  EXPECT_NE(why.find("only with the switch on, or under ComputeTopLevelPasses (word 15 bit 12), here 0"), std::string::npos) << why;
}

TEST_F(OneRowWalkTest, TheFeedingWriteSaysHalfTheLevelOnePasses) {
  NextPacketWatch watch;
  const auto write = [&](uint64_t pairs) {
    return packets_.make(0x14, kTiles, {{LleField::Stage14FeedsCompute, 1}, {LleField::Stage14SplitPassPairs, pairs}});
  };
  EXPECT_EQ(watch.observe(write(3)), "");
  EXPECT_EQ(watch.observe(compute(700)), "");
  EXPECT_EQ(watch.observe(write(0)), "");
  const std::string why = watch.observe(compute(700));
  EXPECT_NE(why.find("Stage14SplitPassPairs (word 5 bits 14:0) = 0 before opcode 0x01"), std::string::npos) << why;
  EXPECT_NE(why.find("which splits its reduction into 6 K passes (3 expected)"), std::string::npos) << why;
}

}  // namespace
}  // namespace coralsim::lle::lle_one_row_walk_test
