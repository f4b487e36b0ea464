// NextPacketWatch (models/lle/next_packet_watch.h; docs/decoding-log.md "stride" §B): a 0x14's w4 bit 101
// (Stage14FeedsCompute) says what comes next on each of its tiles -- set: a compute or a mesh 0x18, never
// a 0x11; clear: never a compute. Tiles 3 and 9 together (a mask no corpus 0x14 has), fences between,
// packets on other tiles in between: only the next packet on each of the write's own tiles is judged.
// A compute-feeding write's w5[14:0] (Stage14SplitPassPairs, "ring128") is judged against that compute: half
// its split reduction's K passes (11 here, 5 pairs: no corpus compute splits into an odd count but 27) where
// its partial-sum walk is on, else 0.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/lle/lle_fields.h"
#include "models/lle/next_packet_watch.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_next_packet_watch_test {
namespace {

using models::DecodedPacket;

class NextPacketWatchTest : public ::testing::Test {
 protected:
  DecodedPacket make(uint8_t op, uint16_t mask, bool feedsCompute = false) {
    if (op != 0x14) return packets_.make(op, mask);
    return packets_.make(op, mask, {{LleField::Stage14FeedsCompute, feedsCompute ? 1 : 0}});
  }

  // A compute-feeding write saying `pairs`.
  DecodedPacket feedingWrite(uint16_t mask, uint64_t pairs) {
    return packets_.make(0x14, mask, {{LleField::Stage14FeedsCompute, 1}, {LleField::Stage14SplitPassPairs, pairs}});
  }

  // A compute whose w10 nest's level 2 counts `passes` (ComputeLimitW10[1] + 1), its walk switch `walkOn`.
  DecodedPacket splitCompute(uint16_t mask, uint64_t passes, bool walkOn) {
    DecodedPacket p = packets_.make(0x01, mask, {{LleField::ComputePartialSumWalkOn, walkOn ? 1 : 0}});
    const LleFieldDef& level = fieldDef(LleField::ComputeLimitW10);
    const uint32_t lsb = level.lsb + level.stride;  // element 1
    packets_.lastWords()[lsb / 128].setBits(lsb % 128, level.width, passes - 1);
    return p;
  }

  NextPacketWatch watch;
  EnvelopePackets packets_{0x40};
};

constexpr uint16_t kTiles = (1u << 3) | (1u << 9);

TEST_F(NextPacketWatchTest, AComputeFeedingWriteIsFollowedByComputesOnEachOfItsTiles) {
  EXPECT_EQ(watch.observe(make(0x14, kTiles, true)), "");
  EXPECT_EQ(watch.observe(make(0x1a, 0)), "");              // a fence moves no data
  EXPECT_EQ(watch.observe(make(0x11, 1u << 4)), "");        // another tile's receive
  EXPECT_EQ(watch.observe(make(0x01, 1u << 3)), "");        // tile 3's compute
  EXPECT_EQ(watch.observe(make(0x18, 1u << 9)), "");        // tile 9's mesh send (9 corpus writes)
  EXPECT_EQ(watch.observe(make(0x11, kTiles)), "");         // the expectation was used: a receive is free again
}

TEST_F(NextPacketWatchTest, AReceiveAfterAComputeFeedingWriteIsRefusedNamingTheField) {
  EXPECT_EQ(watch.observe(make(0x14, kTiles, true)), "");
  EXPECT_EQ(watch.observe(make(0x01, 1u << 3)), "");
  const std::string why = watch.observe(make(0x11, 1u << 9));
  EXPECT_NE(why.find("Stage14FeedsCompute (word 4 bit 101) = 1"), std::string::npos) << why;
  EXPECT_NE(why.find("next on tile 9, where opcode 0x11"), std::string::npos) << why;
}

TEST_F(NextPacketWatchTest, AComputeAfterAWriteWithoutTheBitIsRefused) {
  EXPECT_EQ(watch.observe(make(0x14, kTiles, false)), "");
  EXPECT_EQ(watch.observe(make(0x11, 1u << 9)), "");  // a receive may follow it
  const std::string why = watch.observe(make(0x01, 1u << 3));
  EXPECT_NE(why.find("Stage14FeedsCompute (word 4 bit 101) = 0 says no compute comes next on tile 3"), std::string::npos) << why;
  watch.clear();
  EXPECT_EQ(watch.observe(make(0x01, kTiles)), "");  // cleared: nothing expected
}

TEST_F(NextPacketWatchTest, AComputeFeedingWriteSaysHalfTheKPassesOfTheSplitComputeAfterIt) {
  EXPECT_EQ(watch.observe(feedingWrite(kTiles, 5)), "");
  EXPECT_EQ(watch.observe(splitCompute(1u << 3, 11, true)), "");  // 11 passes: 5 pairs, rounded down
  EXPECT_EQ(watch.observe(splitCompute(1u << 9, 11, true)), "");
  EXPECT_EQ(watch.observe(feedingWrite(kTiles, 0)), "");
  EXPECT_EQ(watch.observe(splitCompute(1u << 3, 11, false)), "");  // no walk: the level counts something else, 0 expected
  EXPECT_EQ(watch.observe(make(0x18, 1u << 9)), "");                 // a mesh send: 0 expected
}

TEST_F(NextPacketWatchTest, AnotherSplitPassValueIsRefusedNamingTheField) {
  EXPECT_EQ(watch.observe(feedingWrite(kTiles, 6)), "");  // the pairs rounded up
  std::string why = watch.observe(splitCompute(1u << 9, 11, true));
  EXPECT_NE(why.find("Stage14SplitPassPairs (word 5 bits 14:0) = 6 before opcode 0x01"), std::string::npos) << why;
  EXPECT_NE(why.find("on tile 9, which splits its reduction into 11 K passes (5 expected)"), std::string::npos) << why;
  watch.clear();
  EXPECT_EQ(watch.observe(feedingWrite(kTiles, 5)), "");
  why = watch.observe(splitCompute(1u << 3, 11, false));  // the same level counting, no walk
  EXPECT_NE(why.find("= 5 before opcode 0x01"), std::string::npos) << why;
  EXPECT_NE(why.find("on tile 3, which walks no partial sums (0 expected)"), std::string::npos) << why;
  watch.clear();
  EXPECT_EQ(watch.observe(feedingWrite(kTiles, 1)), "");
  why = watch.observe(make(0x18, 1u << 9));
  EXPECT_NE(why.find("= 1 before opcode 0x18"), std::string::npos) << why;
  watch.clear();
  // A write that feeds no compute: the bits are not this field (pinned by the envelope), the watch leaves them.
  EXPECT_EQ(watch.observe(packets_.make(0x14, kTiles, {{LleField::Stage14FeedsCompute, 0}, {LleField::Stage14SplitPassPairs, 3}})), "");
  EXPECT_EQ(watch.observe(make(0x11, kTiles)), "");
}

}  // namespace
}  // namespace coralsim::lle::lle_next_packet_watch_test
