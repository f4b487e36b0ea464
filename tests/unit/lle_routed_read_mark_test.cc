// The consumer marks of a read routed (0, 1) (models/lle/routed_read_mark.h; lle_fields.def Stage13TakenByCompute,
// w4 bit 35, and Stage13LeavesTile, w4 bit 39; docs/decoding-log.md "loomgab"): one-hot in the corpus -- bit 39
// where the bytes leave the tile (run as a sent read), bit 35 where a compute on the read's tiles takes them as
// the stream its tag names (executed where that compute, issued just before the read, waits for it: the streamed
// product, docs/decoding-log.md "loom35"; otherwise refused naming the field and the stream). Tiles 5 and 11, stream 3,001,
// narrow unit 77 -- a mask, tag and base no corpus read has. Both marks or neither are refused as never seen; the
// same bit 35 in a read of another form (sent 1, 1: the max-pass mark; kept 0, 0) is not this field's business.
#include <gtest/gtest.h>

#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/routed_read_mark.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_routed_read_mark_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 5) | (1u << 11);
constexpr uint64_t kStream = 3001;

class RoutedReadMarkTest : public ::testing::Test {
 protected:
  // A read routed by w3 bit 107 alone (`route105` 0) or by both bits, w2 bit 97 `repeatSlot`, the two marks as given.
  DecodedPacket read(uint64_t route105, uint64_t route107, uint64_t repeatSlot, uint64_t bit35, uint64_t bit39) {
    DecodedPacket p = packets_.make(0x13, kTiles,
                                    {{LleField::Stage13Channel, kStream}, {LleField::Stage13NarrowAt4, 77},
                                     {LleField::Stage13RepeatSlot, repeatSlot}});
    const LleFieldDef& route = fieldDef(LleField::Stage13Route);
    auto& words = packets_.lastWords();
    words[route.lsb / 128].setBits(route.lsb % 128, 1, route105);
    words[(route.lsb + route.stride) / 128].setBits((route.lsb + route.stride) % 128, 1, route107);
    words[4].setBits(35, 1, bit35);  // raw bits: the test does not lean on the fields' positions alone
    words[4].setBits(39, 1, bit39);
    return p;
  }

  EnvelopePackets packets_{0x200};
};

TEST_F(RoutedReadMarkTest, AReadWhoseBytesLeaveTheTilePassesTheEnvelopeAndTheMarks) {
  const DecodedPacket sent = read(0, 1, 0, 0, 1);
  EXPECT_TRUE(fieldPresent(LleField::Stage13LeavesTile, sent.words));
  EXPECT_EQ(readField(sent.words, LleField::Stage13LeavesTile), 1u);
  EXPECT_EQ(routedReadMarkProblem(sent, false), "");
  // The envelope takes both marks as decoded in this form: only what the rung says of them decides.
  EXPECT_EQ(checkEnvelope(sent), "") << checkEnvelope(sent);
  EXPECT_EQ(checkEnvelope(read(0, 1, 0, 1, 0)), "") << checkEnvelope(read(0, 1, 0, 1, 0));
}

TEST_F(RoutedReadMarkTest, AReadAComputeTakesIsRefusedNamingTheMarkAndTheStreamUnlessTheComputeWaits) {
  const DecodedPacket taken = read(0, 1, 0, 1, 0);
  EXPECT_TRUE(isTakenByCompute(taken));
  const std::string why = routedReadMarkProblem(taken, false);
  EXPECT_NE(why.find("Stage13TakenByCompute (word 4 bit 35) = 1, Stage13LeavesTile (word 4 bit 39) = 0"), std::string::npos) << why;
  EXPECT_NE(why.find("the stream of a compute on its tiles (ComputeStreamTag = Stage13Channel 3001"), std::string::npos) << why;
  EXPECT_NE(why.find("not executed"), std::string::npos) << why;
  // The compute issued just before it waits for it: the streamed product runs (lle_streamed_product_test.cc).
  EXPECT_EQ(routedReadMarkProblem(taken, true), "");
  EXPECT_FALSE(isTakenByCompute(read(0, 1, 0, 0, 1)));
}

TEST_F(RoutedReadMarkTest, BothMarksOrNeitherAreRefusedAsNeverSeen) {
  for (const uint64_t both : {0u, 1u}) {
    const std::string why = routedReadMarkProblem(read(0, 1, 0, both, both), both == 1);
    EXPECT_NE(why.find("= " + std::to_string(both) + " in a read routed (0, 1): the marks are one-hot"), std::string::npos) << why;
  }
}

TEST_F(RoutedReadMarkTest, TheSameBitsInReadsOfOtherFormsAreNotTheseMarks) {
  const DecodedPacket sent = read(1, 1, 1, 1, 0);  // a sent read marked for a max pass: bit 35 is Stage13MaxPassMark
  EXPECT_FALSE(fieldPresent(LleField::Stage13TakenByCompute, sent.words));
  EXPECT_EQ(routedReadMarkProblem(sent, false), "");
  const DecodedPacket kept = read(0, 0, 1, 1, 0);  // a kept read: bit 35 belongs to the w4 marks
  EXPECT_FALSE(fieldPresent(LleField::Stage13TakenByCompute, kept.words));
  EXPECT_EQ(routedReadMarkProblem(kept, false), "");
}

}  // namespace
}  // namespace coralsim::lle::lle_routed_read_mark_test
