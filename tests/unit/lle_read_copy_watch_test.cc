// The copy marks of a read routed (0, 1) (lle_fields.def Stage13TakenByCopy / Stage13TakenByCopyHigh, w4 bits 36 / 38
// beside bit 35; models/lle/routed_read_mark.h, models/lle/read_copy_watch.h; docs/decoding-log.md "mnv1b"): a read so
// marked is taken by the 0x14 next on each of its tiles, which names it (Stage14CopyStream = Stage13Channel). Tiles 5 and
// 11, stream 3,001 -- a mask and tag no corpus read has. The watch passes the pair, refuses another packet, a 0x14 of
// another stream and a chunk that ends first; one copy mark without the other is refused as never seen.
#include <gtest/gtest.h>

#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/read_copy_watch.h"
#include "models/lle/routed_read_mark.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_read_copy_watch_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 5) | (1u << 11);
constexpr uint64_t kStream = 3001;

class ReadCopyWatchTest : public ::testing::Test {
 protected:
  // A read routed by w3 bit 107 alone, w2 bit 97 clear, w4 bits 35 / 36 / 38 as given (raw bits).
  DecodedPacket read(uint64_t bit36, uint64_t bit38) {
    DecodedPacket p = packets_.make(0x13, kTiles, {{LleField::Stage13Channel, kStream}, {LleField::Stage13RepeatSlot, 0}});
    const LleFieldDef& route = fieldDef(LleField::Stage13Route);
    auto& words = packets_.lastWords();
    words[route.lsb / 128].setBits(route.lsb % 128, 1, 0);
    words[(route.lsb + route.stride) / 128].setBits((route.lsb + route.stride) % 128, 1, 1);
    words[4].setBits(35, 1, 1);
    words[4].setBits(36, 1, bit36);
    words[4].setBits(38, 1, bit38);
    words[4].setBits(39, 1, 0);
    return p;
  }
  // A staging write of `stream`; `tileRead` sets w4 bit 103 (Stage14TakesTileRead), else bit 104 (Stage14TakesDelivered).
  DecodedPacket write(uint16_t mask, uint64_t stream, bool tileRead) {
    return packets_.make(0x14, mask,
                         {{LleField::Stage14CopyStream, stream}, {LleField::Stage14TakesTileRead, tileRead ? 1u : 0u},
                          {LleField::Stage14TakesDelivered, tileRead ? 0u : 1u}});
  }
  DecodedPacket fence() { return packets_.make(0x1a, 0); }

  EnvelopePackets packets_{0x300};
};

TEST_F(ReadCopyWatchTest, BothCopyMarksBesideBit35AreACopiedReadNotAComputesStream) {
  const DecodedPacket copied = read(1, 1);
  EXPECT_TRUE(fieldPresent(LleField::Stage13TakenByCopy, copied.words));
  EXPECT_EQ(readField(copied.words, LleField::Stage13TakenByCopy), 1u);
  EXPECT_EQ(readField(copied.words, LleField::Stage13TakenByCopyHigh), 1u);
  EXPECT_TRUE(isTakenByCopy(copied));
  EXPECT_FALSE(isTakenByCompute(copied));
  EXPECT_EQ(routedReadMarkProblem(copied, false), "");
  EXPECT_EQ(checkEnvelope(copied), "") << checkEnvelope(copied);
  for (const auto& [a, b] : {std::pair<uint64_t, uint64_t>{1, 0}, {0, 1}}) {
    const DecodedPacket half = read(a, b);
    EXPECT_FALSE(isTakenByCopy(half));
    const std::string why = routedReadMarkProblem(half, false);
    EXPECT_NE(why.find("the copy marks come only together"), std::string::npos) << why;
  }
}

TEST_F(ReadCopyWatchTest, TheZeroX14NextOnEachTileNamingTheStreamPassesTheWatch) {
  ReadCopyWatch watch;
  EXPECT_EQ(watch.observe(read(1, 1)), "");
  EXPECT_EQ(watch.observe(fence()), "");  // a fence moves no data
  EXPECT_EQ(watch.observe(write(1u << 5, kStream, true)), "");
  EXPECT_TRUE(watch.lastWasCopy());
  EXPECT_NE(watch.finish(), "");  // tile 11 still waits
  EXPECT_EQ(watch.observe(write(1u << 11, kStream, true)), "");
  EXPECT_EQ(watch.finish(), "");
  // A 0x14 after that on the same tiles is not a copy of it, and says so (bit 104); saying bit 103 there is refused.
  EXPECT_EQ(watch.observe(write(kTiles, kStream, false)), "");
  EXPECT_FALSE(watch.lastWasCopy());
  const std::string why = watch.observe(write(kTiles, kStream, true));
  EXPECT_NE(why.find("Stage14TakesTileRead (word 4 bit 103) = 1, Stage14TakesDelivered (word 4 bit 104) = 0 where the packet just "
                     "before it on some tile is not a 0x13 of its stream"),
            std::string::npos)
      << why;
}

TEST_F(ReadCopyWatchTest, AWriteJustAfterTheReadOfItsStreamThatSaysItTakesADeliveredStreamIsRefused) {
  ReadCopyWatch watch;
  EXPECT_EQ(watch.observe(read(1, 1)), "");
  const std::string why = watch.observe(write(kTiles, kStream, false));
  EXPECT_NE(why.find("= 0, Stage14TakesDelivered (word 4 bit 104) = 1 where the packet just before it on every one of its tiles is a "
                     "0x13 of its stream 3001"),
            std::string::npos)
      << why;
}

TEST_F(ReadCopyWatchTest, AnotherPacketAnotherStreamOrTheChunksEndRefusesTheRead) {
  {
    ReadCopyWatch watch;
    EXPECT_EQ(watch.observe(read(1, 1)), "");
    const std::string why = watch.observe(write(kTiles, kStream + 1, true));
    EXPECT_NE(why.find("copy of stream 3001"), std::string::npos) << why;
    EXPECT_NE(why.find("copies stream 3002"), std::string::npos) << why;
  }
  {
    ReadCopyWatch watch;
    EXPECT_EQ(watch.observe(read(1, 1)), "");
    const std::string why = watch.observe(packets_.make(0x01, 1u << 11));
    EXPECT_NE(why.find("on tile 11 the next packet is opcode 0x01"), std::string::npos) << why;
  }
  {
    ReadCopyWatch watch;
    EXPECT_EQ(watch.observe(read(1, 1)), "");
    EXPECT_NE(watch.finish().find("on tile 5 the chunk ends first"), std::string::npos) << watch.finish();
  }
  {
    // A read without the copy marks asks nothing of the next packet.
    ReadCopyWatch watch;
    EXPECT_EQ(watch.observe(read(0, 0)), "");
    EXPECT_EQ(watch.observe(packets_.make(0x01, kTiles)), "");
    EXPECT_EQ(watch.finish(), "");
  }
}

}  // namespace
}  // namespace coralsim::lle::lle_read_copy_watch_test
