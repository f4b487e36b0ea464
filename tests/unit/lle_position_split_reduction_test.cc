// The reduction split over Nest37's position level (models/lle/position_split_reduction.h, docs/decoding-log.md "trkfc"
// §B): one output position of (K + 1) x P groups read as one run, the unapplied level-1 carry (ComputePositionStep37)
// (K + 1) x (P - 1) + 1 units. The walk here is this test's own (K + 1 = 6 groups over P = 7 positions: step 37; no
// corpus compute has it -- the trackers' are 32 x 32, step 993, and 32 x 128, step 4,065).
#include <gtest/gtest.h>

#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/position_split_reduction.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_position_split_reduction_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTile = 1u << 3;
constexpr uint64_t kK = 5;  // ComputeK4W1: 6 groups a position
constexpr uint64_t kP = 6;  // ComputePositions: 7 positions

uint64_t twos(int64_t value, LleField field) { return static_cast<uint64_t>(value) & ((uint64_t{1} << fieldDef(field).width) - 1); }

class PositionSplitReductionTest : public ::testing::Test {
 protected:
  // The form's compute: every nest counts the 6 groups at level 0 and the 7 positions at level 1 (Nest37: level 2),
  // positions following each other (slot 1's carry 4 bytes), one output position, the K-loop wraps -(iterations - 1)
  // for Nest37 and -K for the weight nests (the stream's next block into the same window).
  DecodedPacket compute(int64_t step) {
    packets_.make(0x01, kTile,
                  {{LleField::ComputeInputBytes, 4}, {LleField::ComputeK4W0, kK}, {LleField::ComputeK4W1, kK}, {LleField::ComputeK4W7, kK},
                   {LleField::ComputeK4W10, kK}, {LleField::ComputePositions, kP}, {LleField::ComputeOutPositions, 0},
                   {LleField::ComputePositionLoopOn, 1}});
    packets_.setElement(LleField::ComputePositionStep37, 0, twos(step, LleField::ComputePositionStep37));
    packets_.setElement(LleField::ComputeNest37Carry1, 0, 4);
    packets_.setElement(LleField::ComputeLimit29, 0, kP);
    packets_.setElement(LleField::ComputeLimitW10, 0, kP);
    packets_.setElement(LleField::ComputeLimitW0, 0, kP);
    const auto iterations = static_cast<int64_t>((kK + 1) * (kP + 1));
    for (unsigned e = 0; e < fieldDef(LleField::ComputeKWrap37).count; ++e) {
      packets_.setElement(LleField::ComputeKWrap37, e, twos(-(iterations - 1), LleField::ComputeKWrap37));
    }
    for (unsigned e = 0; e < fieldDef(LleField::ComputeKWrap29).count; ++e) {
      packets_.setElement(LleField::ComputeKWrap29, e, twos(-static_cast<int64_t>(kK), LleField::ComputeKWrap29));
    }
    packets_.setElement(LleField::ComputeKWrapW7, 0, twos(-static_cast<int64_t>(kK), LleField::ComputeKWrapW7));
    return last();
  }

  DecodedPacket last() {
    DecodedPacket p;
    p.opcode = static_cast<isa::Opcode>(0x01);
    p.words = packets_.lastWords();
    p.tilePacket = true;
    p.tileMask = kTile;
    return p;
  }

  EnvelopePackets packets_{0x700};
};

constexpr int64_t kWholeWalkStep = (kK + 1) * kP + 1;  // 37

TEST_F(PositionSplitReductionTest, ItsLevelOneCarryTakesLevelOnePastTheWholeRun) {
  const DecodedPacket p = compute(kWholeWalkStep);
  EXPECT_TRUE(isPositionSplitReduction(p.words));
  EXPECT_EQ(positionSplitReductionProblem(p.words), "");
  // The relation table's one-output rows (PositionStep37 = P = 7, ComputeOutPositions = ComputePositions) are the form's.
  const std::string why = checkFieldRelations(0x01, p.words);
  EXPECT_EQ(why.find("ComputePositionStep37"), std::string::npos) << why;
  EXPECT_EQ(why.find("ComputeOutPositions"), std::string::npos) << why;
}

TEST_F(PositionSplitReductionTest, AnotherStepIsRefusedNamingTheFieldAndTheWholeWalk) {
  for (const int64_t step : {kWholeWalkStep - 1, kWholeWalkStep + 1, static_cast<int64_t>(kP + 1), int64_t{1}}) {
    const DecodedPacket p = compute(step);
    ASSERT_TRUE(isPositionSplitReduction(p.words));
    const std::string why = positionSplitReductionProblem(p.words);
    EXPECT_NE(why.find("ComputePositionStep37"), std::string::npos) << step << ": " << why;
    EXPECT_NE(why.find("= 37 units"), std::string::npos) << step << ": " << why;
    EXPECT_EQ(checkFieldRelations(0x01, p.words), why);
  }
}

TEST_F(PositionSplitReductionTest, PositionsNotFollowingEachOtherOrNestsCountingOtherwiseAreRefused) {
  compute(kWholeWalkStep);
  packets_.setElement(LleField::ComputeNest37Carry1, 0, 8);
  EXPECT_NE(positionSplitReductionProblem(last().words).find("ComputeNest37Carry1"), std::string::npos);
  compute(kWholeWalkStep);
  packets_.setElement(LleField::ComputeK4W7, 0, kK - 1);
  EXPECT_NE(positionSplitReductionProblem(last().words).find("ComputeK4W7"), std::string::npos);
  compute(kWholeWalkStep);
  packets_.setElement(LleField::ComputeLimitW0, 0, kP - 1);
  EXPECT_NE(positionSplitReductionProblem(last().words).find("ComputeLimitW0[0]"), std::string::npos);
  compute(kWholeWalkStep);
  packets_.setElement(LleField::ComputeLimitW10, 1, 2);
  EXPECT_NE(positionSplitReductionProblem(last().words).find("ComputeLimitW10[1]"), std::string::npos);
  compute(kWholeWalkStep);
  packets_.setElement(LleField::ComputeNest37Limit3, 0, 1);
  EXPECT_NE(positionSplitReductionProblem(last().words).find("ComputeNest37Limit3"), std::string::npos);
}

TEST_F(PositionSplitReductionTest, OtherFormsAreNotIt) {
  // Positions in the output nest (the element-wise / convolution reading), a prefix, a weight nest not counting the
  // positions, one group a position: the relation table's rows stay theirs.
  compute(kWholeWalkStep);
  packets_.setElement(LleField::ComputeOutPositions, 0, kP);
  EXPECT_FALSE(isPositionSplitReduction(last().words));
  compute(kWholeWalkStep);
  packets_.setElement(LleField::ComputeParamPrefix, 0, 2);
  EXPECT_FALSE(isPositionSplitReduction(last().words));
  compute(kWholeWalkStep);
  packets_.setElement(LleField::ComputeLimit29, 0, kP - 1);
  EXPECT_FALSE(isPositionSplitReduction(last().words));
  compute(kWholeWalkStep);
  packets_.setElement(LleField::ComputeK4W1, 0, 0);
  EXPECT_FALSE(isPositionSplitReduction(last().words));
  // Outside the form the one-output rows refuse the whole-walk step as before.
  compute(kWholeWalkStep);
  packets_.setElement(LleField::ComputeLimit29, 0, kP - 1);
  EXPECT_NE(checkFieldRelations(0x01, last().words), "");
}

}  // namespace
}  // namespace coralsim::lle::lle_position_split_reduction_test
