// The odometer the TTU's address nests share (models/lle/loop_nest.h): level 0 steps by its step,
// and when level i counts the address changes by carry[i - 1] from the last unit visited. Sizes no
// corpus program has: a level-0 step of 3, a level that runs once with a carry that must never be
// applied, a negative and a positive carry, and a nest that comes back over its own units.

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "models/lle/loop_nest.h"

namespace coralsim::lle::lle_loop_nest_test {
namespace {

std::vector<int64_t> walk(const auto& nest) {
  std::vector<int64_t> units;
  nest.forEachUnit([&](int64_t unit) { units.push_back(unit); });
  return units;
}

// Levels (innermost first) 3 x 1 x 2 x 3 from unit 40, step 3; carries +100 (level 1, runs once: never
// applied), -5 (level 2), +7 (level 3).
LoopNest<4> stridedNest() { return LoopNest<4>::fromCarries(40, {2, 0, 1, 2}, 3, {100, -5, 7}); }

TEST(LoopNestTest, EachCountingLevelChangesTheAddressByItsCarryFromTheLastUnit) {
  const LoopNest<4> nest = stridedNest();
  const std::vector<int64_t> units = walk(nest);
  EXPECT_EQ(units, (std::vector<int64_t>{40, 43, 46, 41, 44, 47,    // level 0 by 3; level 2's -5 after 46
                                         54, 57, 60, 55, 58, 61,    // level 3's +7 after 47
                                         68, 71, 74, 69, 72, 75}));  // and after 61
  // The convention itself, independent of the sequence above: between consecutive units the
  // address changes by the step while level 0 counts, else by the carry of the level that counts.
  std::vector<int64_t> changes;
  for (size_t k = 1; k < units.size(); ++k) changes.push_back(units[k] - units[k - 1]);
  EXPECT_EQ(changes, (std::vector<int64_t>{3, 3, -5, 3, 3, 7, 3, 3, -5, 3, 3, 7, 3, 3, -5, 3, 3}));
}

TEST(LoopNestTest, QueriesAnswerForTheWholeWalk) {
  const LoopNest<4> nest = stridedNest();
  EXPECT_EQ(nest.units(), 18u);
  EXPECT_EQ(nest.lowestUnit(), 40);
  EXPECT_EQ(nest.highestUnit(), 75);
  EXPECT_EQ(nest.countingLevels(), 0b1101u);
  EXPECT_EQ(nest.countingLevel(), std::nullopt);
  EXPECT_FALSE(nest.contiguous());
  EXPECT_FALSE(nest.revisitsAUnit());
  EXPECT_TRUE(nest.staysInside(76));
  EXPECT_FALSE(nest.staysInside(75)) << "unit 75 is past a 75-unit memory";
  EXPECT_FALSE(nest.staysInside(76, -41)) << "moved down 41 units, unit 40 lands below 0";
  EXPECT_TRUE(nest.staysInside(36, -40));
  EXPECT_FALSE(LoopNest<4>::fromCarries(0, {2, 0, 1, 2}, 1, {0, 0, 0}).staysInside(17)) << "18 units never fit 17";
}

TEST(LoopNestTest, AnOuterLevelWhoseCarryGoesBackRevisitsUnits) {
  // Four units, then back 2 from the last: level 1 strides one unit, so its passes overlap.
  const LoopNest<3> window = LoopNest<3>::fromCarries(0, {3, 2, 0}, 1, {-2, 9});
  EXPECT_EQ(walk(window), (std::vector<int64_t>{0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5}));
  EXPECT_TRUE(window.revisitsAUnit());
  EXPECT_EQ(window.countingLevel(), std::nullopt);
  // A carry of +1 continues where the pass ended: the same twelve units once each.
  const LoopNest<3> onward = LoopNest<3>::fromCarries(0, {3, 2, 0}, 1, {1, 9});
  EXPECT_EQ(walk(onward), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_FALSE(onward.revisitsAUnit());
  EXPECT_FALSE(onward.contiguous()) << "an outer level counts, whatever the units it reaches";
}

TEST(LoopNestTest, OnlyLevelZeroStepsAndOneCountingLevelIsNamed) {
  const LoopNest<5> run = LoopNest<5>::fromCarries(7, {4, 0, 0, 0, 0}, 1, {-1, -2, -3, -4});
  EXPECT_TRUE(run.contiguous());
  EXPECT_EQ(run.countingLevel(), 0u);
  EXPECT_EQ(walk(run), (std::vector<int64_t>{7, 8, 9, 10, 11}));
  EXPECT_FALSE(LoopNest<5>::fromCarries(7, {4, 0, 0, 0, 0}, 2, {0, 0, 0, 0}).contiguous()) << "a step of 2 leaves gaps";
  const LoopNest<5> single = LoopNest<5>::fromCarries(7, {}, 5, {1, 2, 3, 4});
  EXPECT_EQ(single.units(), 1u);
  EXPECT_EQ(single.countingLevel(), 0u);
  EXPECT_EQ(walk(single), (std::vector<int64_t>{7}));
  // Level 3 alone: the levels below run once, so its stride is its carry.
  const LoopNest<5> outer = LoopNest<5>::fromCarries(0, {0, 0, 0, 2, 0}, 1, {11, 12, -13, 14});
  EXPECT_EQ(outer.countingLevel(), 3u);
  EXPECT_EQ(walk(outer), (std::vector<int64_t>{0, -13, -26}));
  EXPECT_FALSE(outer.staysInside(1000));
  EXPECT_TRUE(outer.staysInside(1000, 26));
}

// A shorter last repetition (docs/decoding-log.md "oldrecv", "short18"): the walk's last pass of level 0 stops
// lastPassDrops units early -- a 5-unit ring walked 3 times whose last pass keeps 2 units (no corpus nest has
// this shape) visits 12 units, not 15, and ends on the ring's second unit; a chained walk is the shorter run.
TEST(LoopNestTest, TheLastPassOfLevelZeroMayEndEarly) {
  LoopNest<4> ring = LoopNest<4>::fromCarries(30, {4, 2, 0, 0}, 1, {-4, -4, -4});
  ring.lastPassDrops = 3;
  EXPECT_EQ(ring.units(), 12u);
  EXPECT_EQ(walk(ring), (std::vector<int64_t>{30, 31, 32, 33, 34, 30, 31, 32, 33, 34, 30, 31}));
  LoopNest<4> rows = LoopNest<4>::fromCarries(0, {3, 2, 0, 0}, 1, {1, 1, 1});
  rows.lastPassDrops = 1;
  ASSERT_TRUE(rows.asOneRun().has_value());
  EXPECT_EQ(rows.asOneRun()->units, 11u);
  EXPECT_EQ(walk(rows).back(), 10);
}

// A short level above 1 (docs/decoding-log.md "w7codes" §C): every level-0 run of level 2's last iteration ends
// lastPassDrops units early -- 3 positions of 6 units walked as a 4-unit pass and a 2-unit one visit each of their 18
// units once (no corpus nest has this shape); the short runs have full ones after them, so the walk is no one run.
TEST(LoopNestTest, EveryRunOfTheShortLevelsLastIterationMayEndEarly) {
  LoopNest<4> passes = LoopNest<4>::fromCarries(0, {3, 2, 1, 0}, 1, {3, -11, 0});
  passes.lastPassDrops = 2;
  passes.shortFromLevel = 2;
  EXPECT_EQ(passes.units(), 18u);
  EXPECT_EQ(walk(passes), (std::vector<int64_t>{0, 1, 2, 3, 6, 7, 8, 9, 12, 13, 14, 15, 4, 5, 10, 11, 16, 17}));
  EXPECT_FALSE(passes.asOneRun().has_value());
  EXPECT_FALSE(passes.revisitsAUnit());
}

TEST(LoopNestTest, UnitsSaturateInsteadOfWrapping) {
  const LoopNest<5> huge = LoopNest<5>::fromCarries(0, {0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF}, 1, {0, 0, 0, 0});
  EXPECT_EQ(huge.units(), UINT64_MAX);
  EXPECT_FALSE(huge.staysInside(UINT64_MAX / 2));
}

}  // namespace
}  // namespace coralsim::lle::lle_loop_nest_test
