// The host-bound weight feed's position (lle_fields.def Dma10FeedPosition, docs/decoding-log.md "w3b7"): w3[22:7] of a
// send with Dma10ToOutfeed and Dma10WeightFeed counts the 256-byte rows the executable's weight sends moved before it. Bit
// 7 is its low bit (odd in 291 corpus feeds; the 13 programs that stopped on "w3 bits 7" carry one). A count the rung
// reads nowhere: any value passes the envelope in that form; w3 bit 23 above it stays pinned, and so do the same bits in
// the weight broadcast (Dma10WeightFeed without Dma10ToOutfeed), which carries 0 there in all 907 corpus broadcasts.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_feed_position_test {
namespace {

// What every corpus host-bound send carries in word 3 besides its fields: w3[6:0] = 0x32 in a feed, bits 23 and 39.
constexpr uint64_t kFeedWordThreeMarks = 0x32 | (uint64_t{1} << 23) | (uint64_t{1} << 39);

// A host-bound feed of one row from tile 5 (no corpus feed sends from tile 5 with these positions), at `position`.
models::DecodedPacket feedAt(EnvelopePackets& packets, uint64_t position) {
  models::DecodedPacket p = packets.make(0x10, 0x0020,
                                         {{LleField::Dma10ToOutfeed, 1},
                                          {LleField::Dma10WeightFeed, 1},
                                          {LleField::Dma10ReadForm, 0},
                                          {LleField::Dma10OutfeedForm, 1},
                                          {LleField::Dma10FeedLevelOn, 1},
                                          {LleField::Dma10Channel, 37}});
  auto& words = packets.lastWords();
  words[3].setBits(0, 40, kFeedWordThreeMarks);
  words[3].setBits(7, 16, position);  // as a compiler writes it, whatever the table says
  return p;
}

// A weight broadcast of one row from tile 5 to tiles 0-3 (w2 as all 907 corpus broadcasts: w2[93:92] = 1, bit 88, w2[85:84]
// = 0, w2[82:79] = 0, "c10w0" §B), with `bits` written at w3[22:7].
models::DecodedPacket broadcastWith(EnvelopePackets& packets, uint64_t bits) {
  models::DecodedPacket p = packets.make(0x10, 0x0020,
                                         {{LleField::Dma10WeightFeed, 1},
                                          {LleField::Dma10ReadForm, 0},
                                          {LleField::Dma10FeedLevelOn, 1},
                                          {LleField::Dma10BroadcastTiles, 0xf},
                                          {LleField::Dma10Channel, 37}});
  auto& words = packets.lastWords();
  words[2].setBits(92, 2, 1);
  words[2].setBits(84, 2, 0);
  words[2].setBits(87, 2, 2);
  words[2].setBits(79, 4, 0);
  words[3].setBits(7, 16, bits);
  return p;
}

// Odd positions (bit 7 set: looming's 1, MobileNet v1 0.25's 15) and positions no corpus feed has (the corpus's span is 0
// .. 14,208) pass, read back through the field; the even ones the golden-exact programs carry (0, 100) pass as before.
TEST(LleFeedPosition, AHostBoundFeedTakesAnyPositionAtWordThreeBitsTwentyTwoToSeven) {
  EnvelopePackets packets(0x0300);
  for (const uint64_t position : {uint64_t{0}, uint64_t{1}, uint64_t{15}, uint64_t{100}, uint64_t{20001}, uint64_t{65535}}) {
    const models::DecodedPacket p = feedAt(packets, position);
    EXPECT_EQ(checkEnvelope(p), "") << "position " << position;
    EXPECT_TRUE(fieldPresent(LleField::Dma10FeedPosition, p.words));
    EXPECT_EQ(readField(p.words, LleField::Dma10FeedPosition), position);
  }
}

// The field is 16 bits wide: w3 bit 23 above it, set in every corpus host-bound send, is still pinned.
TEST(LleFeedPosition, WordThreeBitTwentyThreeAboveThePositionStaysPinned) {
  EnvelopePackets packets(0x0300);
  models::DecodedPacket p = feedAt(packets, 77);
  packets.lastWords()[3].setBits(23, 1, 0);
  const std::string why = checkEnvelope(p);
  EXPECT_NE(why.find("word 3"), std::string::npos) << why;
  EXPECT_NE(why.find("23"), std::string::npos) << why;
}

// In the weight broadcast the bits are no position (0 in 907 / 907 corpus broadcasts): pinned there.
TEST(LleFeedPosition, TheWeightBroadcastKeepsThoseBitsPinned) {
  EnvelopePackets packets(0x0300);
  const models::DecodedPacket plain = broadcastWith(packets, 0);
  ASSERT_EQ(checkEnvelope(plain), "");
  for (const uint64_t bits : {uint64_t{1}, uint64_t{0x200}}) {  // bit 7; bit 16 (a position's 512s)
    const models::DecodedPacket p = broadcastWith(packets, bits);
    EXPECT_FALSE(fieldPresent(LleField::Dma10FeedPosition, p.words));
    const std::string why = checkEnvelope(p);
    EXPECT_NE(why.find("word 3"), std::string::npos) << "bits " << bits << ": " << why;
  }
}

}  // namespace
}  // namespace coralsim::lle::lle_feed_position_test
