// The w0 nest's shorter last iteration (models/lle/w0_last_run.h; docs/decoding-log.md "smx"): w1[59:46] a run and w1[61:60] a
// level L in 0x01's layout (ComputeW0LastRun / ComputeW0LastRunLevel) and in the softmax-form 0x02 (Max02LastBeatGroups /
// Max02LastBeatLevel): in the last iteration of level L, level 0 runs run + 1 times. The packets are this test's own: 13 groups
// a K pass at level 2 over 4 passes (the last 5: run 4) and a pass of 9 beats of 6 groups (the last 2: run 1); no corpus
// packet has them (the co-compiled classifiers: 12 groups a pass, 6 / 27 passes, last 4 / 8; MobileNet's 0x02: beats of 4).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/w0_last_run.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_w0_last_run_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 2) | (1u << 14);

struct Nest {
  uint64_t groups = 12;               // ComputeK4W0: 13 groups - 1
  uint64_t level1 = 0, level2 = 3;    // ComputeLimitW0[0], [1]
  uint64_t level = 2, run = 4;        // the last iteration
};

class W0LastRunTest : public ::testing::Test {
 protected:
  DecodedPacket compute(const Nest& n) {
    DecodedPacket p = f.make(0x01, kTiles, {{LleField::ComputeK4W0, n.groups}, {LleField::ComputeW0LastRunLevel, n.level},
                                            {LleField::ComputeW0LastRun, n.run}});
    f.setElement(LleField::ComputeLimitW0, 0, n.level1);
    f.setElement(LleField::ComputeLimitW0, 1, n.level2);
    return p;
  }
  // Max02BeatGroups 5 (6 a beat), Max02Beats 8 (9 beats).
  DecodedPacket pass(uint64_t level, uint64_t run, uint64_t beats = 8) {
    return f.make(0x02, kTiles, {{LleField::Max02BeatGroups, 5}, {LleField::Max02Beats, beats}, {LleField::Max02LastBeatLevel, level},
                                 {LleField::Max02LastBeatGroups, run}, {LleField::Max02Lanes, 4}});
  }
  EnvelopePackets f{0x300};
};

TEST_F(W0LastRunTest, ALastKPassAtLevelTwoDropsTheGroupsItsRunLeaves) {
  const DecodedPacket p = compute({});
  EXPECT_EQ(w0LastRunProblem(p.words), "");
  EXPECT_EQ(w0LastRunShortfall(p.words), 8u);  // 12 - 4: 4 x 13 - 8 = 44 groups
  // A whole nest: no level, no run, nothing dropped.
  const DecodedPacket whole = compute({.level = 0, .run = 0});
  EXPECT_EQ(w0LastRunProblem(whole.words), "");
  EXPECT_EQ(w0LastRunShortfall(whole.words), 0u);
  // Level 1 (the beats) where level 1 counts.
  EXPECT_EQ(w0LastRunProblem(compute({.level1 = 2, .level2 = 0, .level = 1}).words), "");
}

TEST_F(W0LastRunTest, AnotherLevelOrRunIsRefusedNamingTheFields) {
  const auto problem = [&](const Nest& n) { return w0LastRunProblem(compute(n).words); };
  EXPECT_NE(problem({.level = 0}).find("ComputeW0LastRun (word 1 bits 59:46) = 4 while ComputeW0LastRunLevel (word 1 bits 61:60) = 0"),
            std::string::npos)
      << problem({.level = 0});
  EXPECT_NE(problem({.level = 3}).find("ComputeW0LastRunLevel (word 1 bits 61:60) = 3: a shorter last iteration of w0 nest level 3 is not decoded"),
            std::string::npos)
      << problem({.level = 3});
  EXPECT_NE(problem({.level2 = 0}).find("= 2 while ComputeLimitW0[1] = 0: a level that runs once"), std::string::npos) << problem({.level2 = 0});
  EXPECT_NE(problem({.level1 = 1}).find("= 2 while ComputeLimitW0[0] = 1: a level counting between level 0 and L"), std::string::npos)
      << problem({.level1 = 1});
  EXPECT_NE(problem({.run = 12}).find("ComputeW0LastRun (word 1 bits 59:46) = 12 with ComputeW0LastRunLevel (word 1 bits 61:60) = 2 is not "
                                      "below ComputeK4W0 = 12"),
            std::string::npos)
      << problem({.run = 12});
}

TEST_F(W0LastRunTest, TheMaxPassCoversItsGroupsWithAShorterLastBeat) {
  EXPECT_EQ(max02LastBeatProblem(pass(1, 1).words), "");
  EXPECT_EQ(max02WalkGroups(pass(1, 1).words), 50u);  // 8 x 6 + 2
  EXPECT_EQ(max02WalkGroups(pass(0, 0).words), 54u);
  EXPECT_NE(max02LastBeatProblem(pass(0, 1).words).find("Max02LastBeatGroups (word 1 bits 59:46) = 1 while Max02LastBeatLevel"),
            std::string::npos);
  EXPECT_NE(max02LastBeatProblem(pass(2, 1).words).find("Max02LastBeatLevel (word 1 bits 61:60) = 2: every corpus pass"), std::string::npos);
  EXPECT_NE(max02LastBeatProblem(pass(1, 1, 0).words).find("while Max02Beats = 0"), std::string::npos);
  EXPECT_NE(max02LastBeatProblem(pass(1, 5).words).find("= 5 with Max02LastBeatLevel (word 1 bits 61:60) = 1 is not below Max02BeatGroups = 5"),
            std::string::npos);
  EXPECT_NE(checkFieldRelations(0x02, pass(1, 5).words).find("is not below Max02BeatGroups"), std::string::npos)
      << checkFieldRelations(0x02, pass(1, 5).words);
}

// No 0x01 form executes a shorter last iteration yet: the rung refuses the compute by name before it runs, rather than
// running every iteration whole.
TEST_F(W0LastRunTest, AnOpcodeOneComputeWithAShorterLastIterationIsRefusedByName) {
  models::ChipConfig config;
  LleRung rung(config);
  EmptyStreams streams;
  std::string refusal;
  try {
    rung.beginRun();
    rung.packet(compute({}), streams, 0);
  } catch (const models::ChipFault& e) {
    refusal = e.what();
  }
  EXPECT_NE(refusal.find("ComputeW0LastRunLevel (word 1 bits 61:60) = 2, ComputeW0LastRun (word 1 bits 59:46) = 4: a shorter last iteration "
                         "of the w0 nest in an 0x01 compute is not executed"),
            std::string::npos)
      << refusal;
}

}  // namespace
}  // namespace coralsim::lle::lle_w0_last_run_test
