// The compute's w15 bit 12 (lle_fields.def ComputeTopLevelPasses; models/lle/top_level_passes.h, partial_sum_walk.h,
// next_packet_watch.h; docs/decoding-log.md "w15b12"): the switch of a partial-sum walk whose K passes are counted at
// the w10 nest's level 6, adding into the rows its levels of positions walk one row a position. A compute on tiles 2
// and 13 with a shape no corpus compute has -- 3 positions at level 3, 2 at level 4, 3 passes at level 6 (corpus
// passes are 2, 4, 8, 12 or 16), from row 300 -- passes the envelope and the relations with the bit set; without it,
// with passes that move rows, with positions out of the nest's order or with the bit and no walk it is refused by name.
// The compute-feeding write before it says half its 3 passes (1), as the write before model_conv's @ 0x0599 says 1 of 2.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/lle/lle_fields.h"
#include "models/lle/next_packet_watch.h"
#include "models/lle/packet_envelope.h"
#include "models/lle/top_level_passes.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_top_level_passes_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 2) | (1u << 13);

// The seven slots' wraps: level 3 (slot 2's carry) one row on, level 4 (slot 3) one row past level 3's 3 rows, level 5
// idle, level 6 (slot 5) back over the 2 + 1 x 3 rows the levels below walked: the passes add into the same 6 rows.
const std::vector<int64_t> kWalk = {0, 0, 1, 1, 0, -5, 0};

class TopLevelPassesTest : public ::testing::Test {
 protected:
  DecodedPacket compute(uint64_t bit, const std::vector<int64_t>& wraps, uint64_t row = 300) {
    DecodedPacket p = packets_.make(0x01, kTiles,
                                    {{LleField::ComputeK4W10, 5},
                                     {LleField::ComputeW10Level0Once, 0},
                                     {LleField::ComputeOutputBytes, 4},
                                     {LleField::ComputeLimitW10Level3, 2},
                                     {LleField::ComputePartialSumRow, row},
                                     {LleField::ComputeTopLevelPasses, bit}});
    auto& words = packets_.lastWords();
    setFieldElement(words, LleField::ComputeLimitW10High, 0, 1);
    setFieldElement(words, LleField::ComputeLimitW10High, 2, 2);
    setW10WrapsWithTheirMarks(words, wraps);  // the forward marks go with the carries
    p.words = words;
    return p;
  }

  EnvelopePackets packets_{0x400};
};

TEST_F(TopLevelPassesTest, AWalkOfLevelSixPassesUnderTheBitPassesTheEnvelope) {
  const DecodedPacket p = compute(1, kWalk);
  EXPECT_EQ(readField(p.words, LleField::ComputeLimitW10High, 2), 2u);
  EXPECT_EQ(readSigned(p.words, LleField::ComputeWrapW10, 5), -5);
  EXPECT_EQ(p.words[15].bits(12, 1), 1u);
  EXPECT_EQ(topLevelPassesProblem(p.words), "");
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
}

TEST_F(TopLevelPassesTest, TheSameWalkWithoutTheBitIsRefusedNamingIt) {
  const std::string why = checkEnvelope(compute(0, kWalk));
  EXPECT_NE(why.find("ComputePartialSumRow (word 9 bits 121:110) = 300"), std::string::npos) << why;
  EXPECT_NE(why.find("only with the switch on, or under ComputeTopLevelPasses (word 15 bit 12), here 0"), std::string::npos) << why;
}

TEST_F(TopLevelPassesTest, TheBitWithoutAWalkIsRefusedNamingTheLevelSixLimit) {
  const std::string why = checkEnvelope(compute(1, {0, 0, 0, 0, 0, 0, 0}, 0));
  EXPECT_NE(why.find("ComputeTopLevelPasses (word 15 bit 12) = 1 with ComputeLimitW10High[2]"), std::string::npos) << why;
  EXPECT_NE(why.find("no slot of the w10 nest carries forward"), std::string::npos) << why;
}

TEST_F(TopLevelPassesTest, PassesThatMoveRowsOrPositionsOutOfOrderAreRefused) {
  std::vector<int64_t> movingPasses = kWalk;
  movingPasses[5] = -4;  // level 6 one row on a pass
  std::string why = checkEnvelope(compute(1, movingPasses));
  EXPECT_NE(why.find("ComputeWrapW10[5] (the w10 nest's level-5 wrap) moves level 6 (3 passes) by 1 rows"), std::string::npos) << why;
  std::vector<int64_t> gap = kWalk;
  gap[3] = 2;   // level 4 four rows on: a row left out after level 3's three
  gap[5] = -6;  // the passes still return to the first row
  why = checkEnvelope(compute(1, gap));
  EXPECT_NE(why.find("moves level 4 (2 positions) by 4 rows where its positions' rows follow the 3 below them"), std::string::npos) << why;
}

// Row 0 under the bit is the walk's first row (docs/decoding-log.md "wrap10": the 179 corpus level-6 walks from row 0 --
// MobileNet v2 wo_fc, the PoseNet 353x481 / 481x641 quant decoders -- have the shape of the 29 from a row > 0): the same
// walk from row 0 passes, and from row 0 a walk of another shape is refused naming its wrap, not its row. Without the
// bit, row 0 with wraps stays "a walk without its first row". Fails on main 79eaec7 (row 0 refused whatever the bit).
TEST_F(TopLevelPassesTest, AWalkOfLevelSixPassesFromRowZeroIsCheckedAsFromAnyRow) {
  const DecodedPacket p = compute(1, kWalk, 0);
  EXPECT_EQ(readField(p.words, LleField::ComputePartialSumRow), 0u);
  EXPECT_EQ(readField(p.words, LleField::ComputePartialSumWalkOn), 0u);
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
  std::vector<int64_t> movingPasses = kWalk;
  movingPasses[5] = -4;
  std::string why = checkEnvelope(compute(1, movingPasses, 0));
  EXPECT_NE(why.find("ComputePartialSumRow (word 9 bits 121:110) = 0: ComputeWrapW10[5] (the w10 nest's level-5 wrap) moves level 6"),
            std::string::npos)
      << why;
  why = checkEnvelope(compute(0, kWalk, 0));
  EXPECT_NE(why.find("with ComputePartialSumRow (word 9 bits 121:110) = 0: a walk over partial-sum rows without its first row"),
            std::string::npos)
      << why;
}

TEST_F(TopLevelPassesTest, TheFeedingWriteSaysHalfTheLevelSixPasses) {
  NextPacketWatch watch;
  const auto write = [&](uint64_t pairs) {
    return packets_.make(0x14, kTiles, {{LleField::Stage14FeedsCompute, 1}, {LleField::Stage14SplitPassPairs, pairs}});
  };
  EXPECT_EQ(watch.observe(write(1)), "");
  EXPECT_EQ(watch.observe(compute(1, kWalk)), "");  // 3 passes: 1 pair, rounded down
  EXPECT_EQ(watch.observe(write(0)), "");
  const std::string why = watch.observe(compute(1, kWalk));
  EXPECT_NE(why.find("Stage14SplitPassPairs (word 5 bits 14:0) = 0 before opcode 0x01"), std::string::npos) << why;
  EXPECT_NE(why.find("which splits its reduction into 3 K passes (1 expected)"), std::string::npos) << why;
}

}  // namespace
}  // namespace coralsim::lle::lle_top_level_passes_test
