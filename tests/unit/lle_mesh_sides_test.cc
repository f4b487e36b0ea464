// The mesh sides' per-level run mask (docs/decoding-log.md "mesh83"): the slot after a side's last
// limit (w1[85:82] send, w3[34:31] receive) carries bit i for each level of its nest that runs; the
// slot's bits above mark a relay's ring ("relay111").
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "models/isa/word128.h"
#include "models/lle/mesh_sides.h"

namespace coralsim::lle::lle_mesh_sides_test {
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

TEST(LleMeshSides, TheBitsAboveTheFourLevelsAreTheRingMarks) {
  // 0x17's receive mask is the low bits of the 17-bit Fill17Step, its ring marks the bits above
  // (docs/decoding-log.md "relay111"); the other sides' marks are fields of their own.
  std::array<isa::Word128, 6> words{};
  words[3].setBits(31, 17, 0x131);
  EXPECT_EQ(meshLevelMask(words, LleField::Fill17Step), 1u);
  EXPECT_EQ(meshRingMarks(words, LleField::Fill17Step), 0x13u);
  words[1].setBits(82, 17, 0x111);
  EXPECT_EQ(meshLevelMask(words, LleField::Mesh18SendLevelOn), 1u);
  EXPECT_EQ(meshRingMarks(words, LleField::Mesh18SendRingMarks), kMeshRingMarks);
}

TEST(LleMeshSides, ARingIsLevelZeroRefilledByLevelOne) {
  // A 5-unit ring (limit 4, stride 2: carries -8 come back to its first unit) refilled 7 times.
  std::array<isa::Word128, 6> words{};
  words[0].setBits(78, 17, 2);    // Mesh18SendStride
  words[0].setBits(95, 16, 4);    // Mesh18SendLimit[0]
  words[1].setBits(0, 16, 6);     // Mesh18SendLimit[1]
  words[1].setBits(82, 4, 1);     // Mesh18SendLevelOn: level 0 alone
  for (unsigned i = 0; i < 3; ++i) {
    const unsigned lsb = 111 + 33 * i;  // Mesh18SendCarry[i] (w0 bit 111, then w1 bits 16, 49): -8 in 17 bits
    words[lsb / 128].setBits(lsb % 128, 17, (1u << 17) - 8);
  }
  const auto conflict = [&] {
    return meshRingConflict(words, LleField::Mesh18SendLevelOn, LleField::Mesh18SendStride, LleField::Mesh18SendLimit,
                            LleField::Mesh18SendCarry);
  };
  ASSERT_EQ(readSigned(words, LleField::Mesh18SendCarry, 2), -8);
  EXPECT_FALSE(conflict());
  words[1].setBits(82, 4, 3);
  EXPECT_EQ(conflict(), "its run mask is not level 0 alone");
  words[1].setBits(82, 4, 1);
  words[0].setBits(78, 17, 1);  // stride 1: -8 no longer comes back to the first unit
  EXPECT_EQ(conflict(), "a carry does not come back to the ring's first unit");
}

// The shorter last repetition of a side (docs/decoding-log.md "short18") at the 0x11's bits of its own nest:
// send w1 bit 121, w1[120:105], w1[137:123]; receive w3 bit 70, w3[69:54], w3[86:72]. A 6-unit ring refilled
// 9 times whose last refill keeps 4 units (no corpus side has this shape) walks 58 units; a shortfall that is
// not limit0 - LastRun, or the flag with level 2 counting, is a conflict naming the fields.
TEST(LleMeshSides, ASidesLastRepetitionMayRunShorter) {
  std::array<isa::Word128, 6> words{};
  words[0].setBits(78, 17, 1);   // Mesh16SendStride
  words[0].setBits(95, 16, 5);   // Mesh16SendLimit[0]
  words[1].setBits(0, 16, 9);    // Mesh16SendLimit[1]
  words[1].setBits(121, 1, 1);   // Mesh16SendLastRunOn
  words[1].setBits(105, 16, 3);  // Mesh16SendLastRun
  words[1].setBits(123, 5, 2);   // Mesh16SendLastShort, low bits (w1[127:123])
  const MeshLayout& m = *meshLayoutOf(0x16);
  ASSERT_EQ(readField(words, m.sendLast.shortfall), 2u);
  EXPECT_EQ(fieldDef(m.recvLast.on).lsb, 3u * 128 + 70);
  EXPECT_EQ(fieldDef(m.recvLast.shortfall).lsb, 3u * 128 + 72);
  EXPECT_FALSE(lastRepetitionConflict(words, m.sendLast));
  const auto nest = meshNest(words, m.sendAt4, m.sendStride, m.sendLimit, m.sendCarry, m.sendLast);
  EXPECT_EQ(nest.units(), 58u);
  words[2].setBits(0, 10, 1);  // the shortfall's high bits (w2[9:0]): 2 + 32 units, not 5 - 3
  EXPECT_EQ(lastRepetitionConflict(words, m.sendLast),
            "Mesh16SendLastShort = 34 with Mesh16SendLastRun = 3 is not the units the last repetition drops from "
            "Mesh16SendLimit[0] = 5 (docs/decoding-log.md \"oldrecv\", \"short18\")");
  words[2].setBits(0, 10, 0);
  words[1].setBits(33, 16, 1);  // Mesh16SendLimit[2]
  EXPECT_EQ(lastRepetitionConflict(words, m.sendLast),
            "Mesh16SendLastRunOn = 1 with Mesh16SendLimit[2] counting: which iteration of a level above the short one runs "
            "Mesh16SendLastRun is not decoded");
}

// The flag's high bit (docs/decoding-log.md "w7codes" §C): send w1[122:121], receive w3[71:70] name the level L whose
// last iteration runs every level-0 run short. A side of positions 6 units long moved as a 4-unit pass and a 2-unit one
// (limits 3, 4, 1: 4 units, 5 positions, 2 passes; L = 2, LastRun 1, LastShort 2 -- no corpus side has this shape)
// walks 4 x 5 + 2 x 5 = 30 units, each of the 30 units of the five positions once; L = 2 with level 3 counting, or
// L = 1 with level 2 counting, is a conflict naming the fields.
TEST(LleMeshSides, ASidesShortLevelMayBeItsHighestCountingLevel) {
  std::array<isa::Word128, 6> words{};
  const MeshLayout& m = *meshLayoutOf(0x16);
  const auto set = [&](LleField field, unsigned i, uint64_t value) {
    const LleFieldDef& f = fieldDef(field);
    const unsigned lsb = f.lsb + i * f.stride;
    words[lsb / 128].setBits(lsb % 128, f.width, value);  // no field here straddles a word
  };
  set(LleField::Mesh16SendStride, 0, 1);
  set(LleField::Mesh16SendLimit, 0, 3);
  set(LleField::Mesh16SendLimit, 1, 4);
  set(LleField::Mesh16SendLimit, 2, 1);
  set(LleField::Mesh16SendCarry, 0, 6 - 3);                           // the next position 6 units on
  set(LleField::Mesh16SendCarry, 1, (4 - (3 + 4 * 6)) & 0x1ffff);     // the second pass at unit 4
  set(LleField::Mesh16SendLastRun, 0, 1);
  words[1].setBits(123, 5, 2);  // Mesh16SendLastShort, low bits (w1[127:123]; the field goes on into word 2)
  set(LleField::Mesh16SendLastRunOn, 0, 2);
  ASSERT_EQ(words[1].bits(121, 2), 2u);  // w1 bit 122 set, bit 121 clear
  EXPECT_FALSE(lastRepetitionConflict(words, m.sendLast));
  const auto nest = meshNest(words, m.sendAt4, m.sendStride, m.sendLimit, m.sendCarry, m.sendLast);
  EXPECT_EQ(nest.units(), 30u);
  std::vector<int64_t> units;
  nest.forEachUnit([&](int64_t unit) { units.push_back(unit); });
  ASSERT_EQ(units.size(), 30u);
  EXPECT_EQ(std::vector<int64_t>(units.begin() + 20, units.end()), (std::vector<int64_t>{4, 5, 10, 11, 16, 17, 22, 23, 28, 29}));
  std::sort(units.begin(), units.end());
  for (int64_t k = 0; k < 30; ++k) EXPECT_EQ(units[static_cast<size_t>(k)], k);
  set(LleField::Mesh16SendLimit, 3, 1);
  EXPECT_EQ(lastRepetitionConflict(words, m.sendLast),
            "Mesh16SendLastRunOn = 2 with Mesh16SendLimit[3] counting: which iteration of a level above the short one runs "
            "Mesh16SendLastRun is not decoded");
  set(LleField::Mesh16SendLimit, 3, 0);
  set(LleField::Mesh16SendLastRunOn, 0, 1);
  EXPECT_TRUE(lastRepetitionConflict(words, m.sendLast).has_value());
}

}  // namespace
}  // namespace coralsim::lle::lle_mesh_sides_test
