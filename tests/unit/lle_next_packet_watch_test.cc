// NextPacketWatch (models/lle/next_packet_watch.h; docs/decoding-log.md "stride" §B): a 0x14's w4 bit 101
// (Stage14FeedsCompute) says what comes next on each of its tiles -- set: a compute or a mesh 0x18, never
// a 0x11; clear: never a compute. Tiles 3 and 9 together (a mask no corpus 0x14 has), fences between,
// packets on other tiles in between: only the next packet on each of the write's own tiles is judged.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/lle/lle_fields.h"
#include "models/lle/next_packet_watch.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle {
namespace {

using models::DecodedPacket;

class NextPacketWatchTest : public ::testing::Test {
 protected:
  DecodedPacket make(uint8_t op, uint16_t mask, bool feedsCompute = false) {
    if (op != 0x14) return packets_.make(op, mask);
    return packets_.make(op, mask, {{LleField::Stage14FeedsCompute, feedsCompute ? 1 : 0}});
  }

  NextPacketWatch watch;

 private:
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

}  // namespace
}  // namespace coralsim::lle
