// The convolution's weight walk over its taps (models/lle/weight_group_walk.h, docs/decoding-log.md "conv7") on
// packets of words alone: Nest29's reduction levels carry +1 (the next group), its levels above -(groups - 1).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/weight_group_walk.h"

namespace coralsim::lle::lle_weight_group_walk_test {
namespace {

struct Words {
  std::array<isa::Word128, 17> words{};
  // Nest29's slot `level`: the level's limit and the carry applied when the level above counts.
  void slot(unsigned level, uint64_t limit, int64_t carry) {
    const isa::ComputeNestDef& def = isa::computeNestDef(isa::ComputeNest::Nest29);
    isa::writePacketBits(words, def.limitLsb(level), def.limitWidth, limit);
    isa::writePacketBits(words, def.wrapLsb(level), def.wrapWidth, static_cast<uint64_t>(carry) & ((uint64_t{1} << def.wrapWidth) - 1));
  }
  void carryLow(unsigned slotIndex, uint64_t low) {
    const isa::ComputeNestDef& def = isa::computeNestDef(isa::ComputeNest::Nest29);
    isa::writePacketBits(words, def.limitLsb(slotIndex) + def.limitWidth, 2, low);
  }
};

// 3 K groups at level 0, 2 x 5 taps at levels 1-2 (+1 each: rows 15 groups apart), then 4 positions and 2 output
// rows that return (-29): model_conv's 32-channel layers have 8 groups and 7 x 7 taps; no corpus compute these sizes.
Words kGroupsThenTaps() {
  Words w;
  w.slot(0, 2, 1);
  w.slot(1, 4, 1);
  w.slot(2, 1, -29);
  w.slot(3, 3, -29);
  w.slot(4, 1, -29);
  return w;
}

TEST(LleWeightGroupWalk, TheReductionsLevelsStepTheGroupsBelowThemAndTheLevelsAboveReturn) {
  EXPECT_EQ(weightGroupWalkProblem(kGroupsThenTaps().words), "");
  // The kernel at level 0 alone (every wrap -ComputeK4W0: the rubensrech convolutions) is the same walk.
  Words level0;
  level0.slot(0, 8, -8);
  level0.slot(1, 63, -8);
  for (unsigned level = 2; level < 7; ++level) level0.slot(level, 0, -8);
  EXPECT_EQ(weightGroupWalkProblem(level0.words), "");
  // Level 0 once, the taps at levels 1-2 (model_conv's 3-channel layer): carries +1, +1, then -(taps - 1).
  Words taps;
  taps.slot(0, 0, 1);
  taps.slot(1, 6, 1);
  taps.slot(2, 6, -47);
  taps.slot(3, 0, -48);
  taps.slot(4, 31, -48);
  taps.slot(5, 31, -48);
  EXPECT_EQ(weightGroupWalkProblem(taps.words), "");
}

TEST(LleWeightGroupWalk, AWalkThatSkipsOrRepeatsGroupsIsRefusedNamingTheWrap) {
  Words gap = kGroupsThenTaps();
  gap.slot(1, 4, 2);  // tap rows 16 groups apart: group 15 never read
  const std::string skipped = weightGroupWalkProblem(gap.words);
  EXPECT_NE(skipped.find("ComputeKWrap29[0] (word 8 bits 19:7) = 2 makes Nest29 level 2 step 16 weight groups, not the 15"),
            std::string::npos)
      << skipped;
  Words again = kGroupsThenTaps();
  again.slot(0, 2, 0);  // each tap column two groups on: columns share a group
  const std::string repeated = weightGroupWalkProblem(again.words);
  EXPECT_NE(repeated.find("ComputeKWrapW7 (word 7 bits 118:106) = 0 makes Nest29 level 1 step 2 weight groups, not the 3"), std::string::npos)
      << repeated;
  Words moving = kGroupsThenTaps();
  moving.slot(3, 3, -28);  // the output rows one group on
  const std::string moved = weightGroupWalkProblem(moving.words);
  EXPECT_NE(moved.find("ComputeKWrap29[2] (word 8 bits 77:65) = -28 makes Nest29 level 4, above the reduction's 30 groups, step 1"),
            std::string::npos)
      << moved;
  Words bytes = kGroupsThenTaps();
  bytes.carryLow(1, 2);
  const std::string partial = weightGroupWalkProblem(bytes.words);
  EXPECT_NE(partial.find("ComputeNest29CarryLow[1]"), std::string::npos) << partial;
  EXPECT_NE(partial.find("at Nest29 level 2: a carry that is not a whole weight group"), std::string::npos) << partial;
}

}  // namespace
}  // namespace coralsim::lle::lle_weight_group_walk_test
