// The 0x13 read's partial-run mark (models/lle/read_partial_run.h; lle_fields.def Stage13PartialRunLevel w2[64:62],
// Stage13PartialRun w2[61:46], Stage13PartialRunRest w2[79:65]; docs/decoding-log.md "w2k13"). The reads here are this
// test's own (tiles 2 and 7, stream 3,013; no corpus read has these shapes): a kept read of 3 pixels x 5 rows of 20-unit
// pixels whose level 0 interleaves the pixels (step 20), level 1 runs 12 units, level 2 the rows, level 3 two lane groups
// (+12) -- its unit level is level 1 (limit 11), the second lane group's valid part 8 units: L = 3, run 7, rest 4; and a
// linear read of 3 rows of 64 units whose unit level is level 0 (limit 63): L = 1, run 9, rest 54. Accepted; a rest that
// does not complete the unit level's limit, L below a counting level, L on a level that does not count, L beyond the nest,
// and a run without L are refused naming the field.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/lle/read_partial_run.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_read_partial_run_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 2) | (1u << 7);
constexpr uint64_t kStream = 3013;
class ReadPartialRunTest : public ::testing::Test {
 protected:
  // The pixel read with the triple (level, run, rest); level 4 counting `top` times.
  DecodedPacket pixelRead(uint64_t level, uint64_t run, uint64_t rest, uint64_t top = 1) {
    DecodedPacket p = packets_.make(0x13, kTiles,
                                    {{LleField::Stage13Channel, kStream}, {LleField::Stage13LoopOn, 1}, {LleField::Stage13Groups, 2},
                                     {LleField::Stage13Step, 20}, {LleField::Stage13RepeatSlot, 1}});
    const uint64_t limits[4] = {11, 4, 1, top - 1};
    // Carries: the level's stride less the walk below it (loop_nest.h): 1 - 40, 60 - 51, 12 - 291, 0 - 303.
    const int64_t wraps[4] = {-39, 9, -279, -303};
    for (unsigned e = 0; e < 4; ++e) {
      packets_.setElement(LleField::Stage13OuterOn, e, limits[e] != 0 ? 1 : 0);
      packets_.setElement(LleField::Stage13OuterLimit, e, limits[e]);
      packets_.setSignedElement(LleField::Stage13Wrap, e, limits[e] != 0 ? wraps[e] : 0);
    }
    setTriple(level, run, rest);
    return p;
  }

  // The linear read: 3 rows of 64 units, one after the other (level 0 +1, level 1 +64).
  DecodedPacket linearRead(uint64_t level, uint64_t run, uint64_t rest) {
    DecodedPacket p = packets_.make(0x13, kTiles,
                                    {{LleField::Stage13Channel, kStream}, {LleField::Stage13LoopOn, 1}, {LleField::Stage13Groups, 63},
                                     {LleField::Stage13Step, 1}, {LleField::Stage13RepeatSlot, 1}});
    packets_.setElement(LleField::Stage13OuterOn, 0, 1);
    packets_.setElement(LleField::Stage13OuterLimit, 0, 2);
    packets_.setSignedElement(LleField::Stage13Wrap, 0, 1);
    setTriple(level, run, rest);
    return p;
  }

  void setTriple(uint64_t level, uint64_t run, uint64_t rest) {
    packets_.setElement(LleField::Stage13PartialRunLevel, 0, level);
    packets_.setElement(LleField::Stage13PartialRun, 0, run);
    packets_.setElement(LleField::Stage13PartialRunRest, 0, rest);
  }

  EnvelopePackets packets_{0x700};
};

TEST_F(ReadPartialRunTest, ThePartialLaneGroupOfAnInterleavedPixelReadIsAccepted) {
  const DecodedPacket p = pixelRead(3, 7, 4);
  EXPECT_EQ(readField(p.words, LleField::Stage13PartialRunLevel), 3u);
  EXPECT_EQ(readField(p.words, LleField::Stage13PartialRun), 7u);
  EXPECT_EQ(readField(p.words, LleField::Stage13PartialRunRest), 4u);
  EXPECT_EQ(readPartialRunProblem(p.words), "");
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
  // Without the triple the same read is accepted too: the mark moves no byte.
  const DecodedPacket whole = pixelRead(0, 0, 0);
  EXPECT_EQ(checkEnvelope(whole), "") << checkEnvelope(whole);
}

TEST_F(ReadPartialRunTest, TheLastRowOfALinearReadIsAccepted) {
  const DecodedPacket p = linearRead(1, 9, 54);
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
}

TEST_F(ReadPartialRunTest, ARestThatDoesNotCompleteTheUnitLevelsLimitIsRefused) {
  const std::string why = checkEnvelope(pixelRead(3, 7, 5));
  EXPECT_NE(why.find("Stage13PartialRunRest"), std::string::npos) << why;
  EXPECT_NE(why.find("limit 11 of level 1"), std::string::npos) << why;
  // The linear read's unit level is level 0 (limit 63), not level 1 (limit 2).
  const std::string linear = checkEnvelope(linearRead(1, 9, 53));
  EXPECT_NE(linear.find("limit 63 of level 0"), std::string::npos) << linear;
  // A run past the limit.
  EXPECT_NE(checkEnvelope(pixelRead(3, 12, 0)).find("Stage13PartialRunRest"), std::string::npos);
}

TEST_F(ReadPartialRunTest, ALevelThatIsNotTheOutermostCountingOneIsRefused) {
  const std::string above = checkEnvelope(pixelRead(3, 7, 4, 2));  // level 4 counts above L = 3
  EXPECT_NE(above.find("Stage13PartialRunLevel"), std::string::npos) << above;
  EXPECT_NE(above.find("level 4"), std::string::npos) << above;
  const std::string idle = checkEnvelope(pixelRead(4, 7, 4));  // L = 4, which runs once
  EXPECT_NE(idle.find("does not count"), std::string::npos) << idle;
  EXPECT_NE(checkEnvelope(pixelRead(5, 7, 4)).find("Stage13PartialRunLevel"), std::string::npos);
}

TEST_F(ReadPartialRunTest, ARunWithoutItsLevelIsRefused) {
  const std::string why = checkEnvelope(pixelRead(0, 7, 4));
  EXPECT_NE(why.find("Stage13PartialRun"), std::string::npos) << why;
}

}  // namespace
}  // namespace coralsim::lle::lle_read_partial_run_test
