// The compute's w15 bit 10 (lle_fields.def ComputeLevelFourPasses; models/lle/level_four_passes.h, partial_sum_walk.h,
// next_packet_watch.h; docs/decoding-log.md "mdense"): the switch of a partial-sum walk whose K passes are counted at the
// w10 nest's levels 3-4, adding into the rows its levels of positions walk one row a position. Computes on tiles 3 and
// 10 with shapes no corpus compute has -- 2 positions at level 2 from row 500, and one position from row 0, each with 3
// passes at level 3 and 2 at level 4 (corpus: 5 x 5, or 3 / 6 at level 4 alone) -- pass the envelope and the relations
// with the bit set; without it, with passes that move rows, with a level above the passes counting or with the bit and
// no walk they are refused by name. The compute-feeding write before them says half their 6 passes (3).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/lle/level_four_passes.h"
#include "models/lle/lle_fields.h"
#include "models/lle/next_packet_watch.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_level_four_passes_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 3) | (1u << 10);

// Level 1 idle, level 2 (slot 1's carry) one row on, level 3 (slot 2) back over that row: its passes add into the
// positions' rows, level 4 (slot 3) back likewise, levels 5-6 idle.
const std::vector<int64_t> kWalk = {0, 1, -1, -1, 0, 0, 0};

class LevelFourPassesTest : public ::testing::Test {
 protected:
  // `positions` at level 2 (1 or 2), 3 passes at level 3, 2 at level 4; `levelFive` - 1 more at level 5.
  DecodedPacket compute(uint64_t bit, const std::vector<int64_t>& wraps, uint64_t row, uint64_t positions = 2, uint64_t levelFive = 1) {
    DecodedPacket p = packets_.make(0x01, kTiles,
                                    {{LleField::ComputeK4W10, 3},
                                     {LleField::ComputeW10Level0Once, 0},
                                     {LleField::ComputeOutputBytes, 4},
                                     {LleField::ComputeLimitW10Level3, 2},
                                     {LleField::ComputePartialSumRow, row},
                                     {LleField::ComputeLevelFourPasses, bit}});
    auto& words = packets_.lastWords();
    setFieldElement(words, LleField::ComputeLimitW10, 1, positions - 1);
    setFieldElement(words, LleField::ComputeLimitW10High, 0, 1);
    setFieldElement(words, LleField::ComputeLimitW10High, 1, levelFive - 1);
    setW10WrapsWithTheirMarks(words, wraps);  // the forward marks go with the carries
    p.words = words;
    return p;
  }

  EnvelopePackets packets_{0x400};
};

TEST_F(LevelFourPassesTest, AWalkOfLevelThreeAndFourPassesUnderTheBitPassesTheEnvelope) {
  const DecodedPacket p = compute(1, kWalk, 500);
  EXPECT_EQ(p.words[15].bits(10, 1), 1u);
  EXPECT_EQ(w10RowStrides(p.words)[2], 1);
  EXPECT_EQ(w10RowStrides(p.words)[3], 0);
  EXPECT_EQ(w10RowStrides(p.words)[4], 0);
  EXPECT_EQ(levelFourPassesProblem(p.words), "");
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
  // One position from row 0 (model_dense's K split walks so, 5 x 5 passes): row 0 is the walk's first row here.
  const DecodedPacket one = compute(1, {1, 1, 0, 0, 0, 0, 0}, 0, 1);
  EXPECT_EQ(checkEnvelope(one), "") << checkEnvelope(one);
}

TEST_F(LevelFourPassesTest, TheSameWalkWithoutTheBitIsRefused) {
  const DecodedPacket p = compute(0, kWalk, 500);
  const std::string why = levelFourPassesProblem(p.words);
  EXPECT_NE(why.find("ComputeLevelFourPasses (word 15 bit 10) = 0 with ComputeLimitW10High[0]"), std::string::npos) << why;
  EXPECT_NE(why.find("level 4's row stride 0 and a slot of the w10 nest carrying forward"), std::string::npos) << why;
  EXPECT_NE(checkEnvelope(p), "");
}

TEST_F(LevelFourPassesTest, TheBitWithoutAWalkIsRefusedNamingTheLevelFourLimit) {
  const DecodedPacket p = compute(1, {0, 0, 0, 0, 0, 0, 0}, 0);
  const std::string why = levelFourPassesProblem(p.words);
  EXPECT_NE(why.find("ComputeLevelFourPasses (word 15 bit 10) = 1 with ComputeLimitW10High[0]"), std::string::npos) << why;
  EXPECT_NE(why.find("no slot of the w10 nest carrying forward"), std::string::npos) << why;
  EXPECT_NE(checkEnvelope(p), "");
}

TEST_F(LevelFourPassesTest, PassesThatMoveRowsOrALevelAboveThemAreRefused) {
  std::vector<int64_t> movingPasses = kWalk;
  movingPasses[3] = 0;  // level 4 one row on a pass
  std::string why = checkEnvelope(compute(1, movingPasses, 500));
  EXPECT_NE(why.find("ComputeWrapW10[3] (the w10 nest's level-3 wrap) moves level 4 (2 passes) by 1 rows"), std::string::npos) << why;
  why = checkEnvelope(compute(1, kWalk, 500, 2, 2));
  EXPECT_NE(why.find("level 5 of the w10 nest counts 2 beside ComputeLevelFourPasses"), std::string::npos) << why;
  std::vector<int64_t> gap = kWalk;
  gap[1] = 2;   // level 2 two rows on: a row left out
  gap[2] = -2;  // the passes still return to the first row
  gap[3] = -2;
  why = checkEnvelope(compute(1, gap, 500));
  EXPECT_NE(why.find("moves level 2 (2 positions) by 2 rows where its positions' rows follow the 1 below them"), std::string::npos) << why;
}

TEST_F(LevelFourPassesTest, TheFeedingWriteSaysHalfTheLevelThreeAndFourPasses) {
  NextPacketWatch watch;
  const auto write = [&](uint64_t pairs) {
    return packets_.make(0x14, kTiles, {{LleField::Stage14FeedsCompute, 1}, {LleField::Stage14SplitPassPairs, pairs}});
  };
  EXPECT_EQ(watch.observe(write(3)), "");
  EXPECT_EQ(watch.observe(compute(1, kWalk, 500)), "");  // 3 x 2 passes: 3 pairs
  EXPECT_EQ(watch.observe(write(1)), "");  // level 3's passes alone, or level 4's, would say 1
  const std::string why = watch.observe(compute(1, kWalk, 500));
  EXPECT_NE(why.find("Stage14SplitPassPairs (word 5 bits 14:0) = 1 before opcode 0x01"), std::string::npos) << why;
  EXPECT_NE(why.find("which splits its reduction into 6 K passes (3 expected)"), std::string::npos) << why;
}

}  // namespace
}  // namespace coralsim::lle::lle_level_four_passes_test
