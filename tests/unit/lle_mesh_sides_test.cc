// The mesh sides' per-level run mask (docs/decoding-log.md "mesh83"): the slot after a side's last
// limit (w1[85:82] send, w3[34:31] receive) carries bit i for each level of its nest that runs.
#include <gtest/gtest.h>

#include <array>

#include "models/isa/word128.h"
#include "models/lle/mesh_sides.h"

namespace coralsim::lle {
namespace {

// conv 32^2 6x6's 0x18 send (decode-set shape): 2 columns x 13 rows, levels 0 and 1 counting.
std::array<isa::Word128, 6> twoLevelSend(uint64_t sendMask) {
  std::array<isa::Word128, 6> words{};
  words[0].setBits(95, 16, 1);   // Mesh18SendLimit[0]
  words[1].setBits(0, 16, 12);   // Mesh18SendLimit[1] (bit 128)
  words[1].setBits(82, 4, sendMask);
  return words;
}

TEST(LleMeshSides, TheRunMaskSitsAfterTheLastLimit) {
  const auto words = twoLevelSend(3);
  EXPECT_EQ(readField(words, LleField::Mesh18SendLevelOn), 3u);
  EXPECT_EQ(readField(words, LleField::Mesh18SendLimit, 1), 12u);
  EXPECT_EQ(fieldDef(LleField::Mesh18RecvLevelOn).lsb, 3u * 128 + 31);
}

TEST(LleMeshSides, EveryCountingLevelMustHaveItsBit) {
  EXPECT_FALSE(meshLevelMaskConflict(twoLevelSend(3), LleField::Mesh18SendLevelOn, LleField::Mesh18SendLimit));
  // An enabled level with limit 0 runs once: no conflict (mobilenet's 15 over one counting level).
  EXPECT_FALSE(meshLevelMaskConflict(twoLevelSend(15), LleField::Mesh18SendLevelOn, LleField::Mesh18SendLimit));
  EXPECT_EQ(meshLevelMaskConflict(twoLevelSend(1), LleField::Mesh18SendLevelOn, LleField::Mesh18SendLimit), 1u);
}

TEST(LleMeshSides, ABitAboveTheFourLevelsIsNotDecoded) {
  // 0x17's receive mask is the low bits of the 17-bit Fill17Step.
  std::array<isa::Word128, 6> words{};
  words[3].setBits(31, 17, 0x13);
  EXPECT_EQ(meshLevelMaskConflict(words, LleField::Fill17Step, LleField::Fill17Limit), 4u);
}

}  // namespace
}  // namespace coralsim::lle
