// The second nest of a read a softmax pass takes (models/lle/read_beat_walk.h; docs/decoding-log.md "nin16"): the taker's beat
// walk -- Stage13Repeats its groups a beat, Stage13StreamBeats its beats, and a shorter last beat in the mesh sides' triple
// (Stage13RepeatLastRun / LastRunLevel / LastShort, L = 1) -- and the sent-into-sum mark (Stage13SentIntoSum, w3 bit 108).
// The reads here are this test's own: tiles 5 and 9, stream 3,011, 7 groups paced as beats of 3 (3 + 3 + 1: run 0, rest 2);
// no corpus read has them (nin_cnn's: tile 0, 5 groups as 3 + 2; MobileNet's: beats of 4).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/read_beat_walk.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_read_beat_walk_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 5) | (1u << 9);
constexpr uint64_t kStream = 3011;

struct Walk {
  uint64_t repeats = 2;  // groups a beat - 1
  uint64_t beats = 2;    // beats - 1
  uint64_t level = 1, run = 0, rest = 2;
  uint64_t route105 = 1, route107 = 1, sentIntoSum = 1, maxPassMark = 1, level1On = 0;
};

class ReadBeatWalkTest : public ::testing::Test {
 protected:
  DecodedPacket read(const Walk& w) {
    DecodedPacket p = f.make(0x13, kTiles,
                             {{LleField::Stage13Step, 1}, {LleField::Stage13LoopOn, 1}, {LleField::Stage13Groups, 6},
                              {LleField::Stage13Channel, kStream}, {LleField::Stage13RepeatSlot, 1}, {LleField::Stage13RepeatOn, 1},
                              {LleField::Stage13W4On, 1}, {LleField::Stage13W4Bit59, 1}});
    f.setSignedElement(LleField::Stage13Wrap, 0, -6);
    f.setElement(LleField::Stage13Repeats, 0, w.repeats);
    for (unsigned e = 0; e < 3; ++e) f.setSignedElement(LleField::Stage13RepeatWrap, e, -static_cast<int64_t>(w.repeats));
    f.setElement(LleField::Stage13RepeatLevel1On, 0, w.level1On);
    if (w.level1On == 0) f.setElement(LleField::Stage13StreamBeats, 0, w.beats);
    f.setElement(LleField::Stage13RepeatLastRunLevel, 0, w.level);
    f.setElement(LleField::Stage13RepeatLastRun, 0, w.run);
    f.setElement(LleField::Stage13RepeatLastShort, 0, w.rest);
    f.setElement(LleField::Stage13Route, 0, w.route105);
    f.setElement(LleField::Stage13Route, 1, w.route107);
    f.setElement(LleField::Stage13SentIntoSum, 0, w.sentIntoSum);
    f.setElement(LleField::Stage13MaxPassMark, 0, w.maxPassMark);
    f.setElement(LleField::Stage13MaxPassBeats, 0, 0xffff);
    return p;
  }
  // The sum: `beatGroups` - 1 and `beats` - 1 as ComputeK4W0 / ComputeLimitW0[0], naming `tag`.
  DecodedPacket sum(uint16_t mask, uint64_t tag, uint64_t beatGroups = 2, uint64_t beats = 2) {
    return f.make(0x03, mask, {{LleField::ComputeStreamTag, tag}, {LleField::ComputeK4W0, beatGroups}, {LleField::ComputeLimitW0, beats}});
  }
  std::string taker(const std::vector<DecodedPacket>& program) { return sentIntoSumTakerProblem(program, 0); }

  EnvelopePackets f{0x600};
};

TEST_F(ReadBeatWalkTest, AShorterLastBeatSplitsTheLevelZeroLimitInTheLastBeat) {
  const DecodedPacket p = read({});
  EXPECT_EQ(readBeatWalkLastRunProblem(p.words), "");
  EXPECT_EQ(readBeatWalkGroups(p.words), 7u);  // 3 x 3 - 2
  EXPECT_EQ(sentIntoSumProblem(p.words), "");
  EXPECT_EQ(checkFieldRelations(0x13, p.words), "");
  // A whole walk: no triple, 3 x 3.
  EXPECT_EQ(readBeatWalkGroups(read({.level = 0, .run = 0, .rest = 0}).words), 9u);
  // The triple without its level is refused by the relations (CORAL_LLE_ONLY_IF); with it, a rest that is not the limit
  // less the run, level 2, a level 1 that runs once, or the two-level second nest are refused naming the fields.
  EXPECT_NE(checkFieldRelations(0x13, read({.level = 0}).words), "");
  EXPECT_NE(readBeatWalkLastRunProblem(read({.rest = 1}).words).find("does not split Stage13Repeats = 2"), std::string::npos);
  EXPECT_NE(readBeatWalkLastRunProblem(read({.run = 3, .rest = 0}).words).find("does not split"), std::string::npos);
  EXPECT_NE(readBeatWalkLastRunProblem(read({.level = 2}).words).find("names level 1 of its second nest (14 / 14)"), std::string::npos);
  EXPECT_NE(readBeatWalkLastRunProblem(read({.beats = 0}).words).find("while Stage13StreamBeats = 0"), std::string::npos);
  EXPECT_NE(readBeatWalkLastRunProblem(read({.level1On = 1}).words).find("with Stage13RepeatLevel1On"), std::string::npos);
}

TEST_F(ReadBeatWalkTest, TheSentIntoSumMarkIsASentMarkedReadWithTheSumsBeatWalk) {
  EXPECT_EQ(sentIntoSumProblem(read({.sentIntoSum = 0, .maxPassMark = 0}).words), "");
  EXPECT_NE(sentIntoSumProblem(read({.route107 = 0}).words).find("not routed (1, 1)"), std::string::npos);
  EXPECT_NE(sentIntoSumProblem(read({.maxPassMark = 0}).words).find("without Stage13MaxPassMark"), std::string::npos);
  EXPECT_NE(sentIntoSumProblem(read({.level1On = 1}).words).find("without the one-level second nest"), std::string::npos);
}

TEST_F(ReadBeatWalkTest, TheSumNextOnEveryTileNamingItsChannelWithItsBeatWalkTakesTheSentRead) {
  EXPECT_EQ(taker({read({}), f.make(0x17, 1u << 2), f.make(0x1a, 0), sum(kTiles, kStream)}), "");
  EXPECT_EQ(taker({read({.sentIntoSum = 0}), f.make(0x01, kTiles)}), "");  // no mark: not this check's
  EXPECT_NE(taker({read({}), sum(kTiles, kStream + 1)}).find("sums stream 3012"), std::string::npos);
  EXPECT_NE(taker({read({}), sum(1u << 5, kStream)}).find("runs on tiles"), std::string::npos);
  EXPECT_NE(taker({read({}), sum(kTiles, kStream, 3, 1)}).find("walks beats of ComputeK4W0 + 1 = 4 groups"), std::string::npos);
  EXPECT_NE(taker({read({}), f.make(0x01, kTiles, {{LleField::ComputeStreamTag, kStream}})}).find("is no sum (opcode 0x03)"),
            std::string::npos);
  EXPECT_NE(taker({read({}), f.make(0x17, kTiles)}).find("no compute follows it on tiles"), std::string::npos);
}

}  // namespace
}  // namespace coralsim::lle::lle_read_beat_walk_test
