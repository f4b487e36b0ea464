// A parameter pop's length as whole passes over its ring (models/lle/whole_ring_pop.h; docs/decoding-log.md "fcx" §B):
// PopBeatsHigh > 0, PopBeatsLow 0 and a repeat of 0 read as PopBeatsHigh + 1 whole rings; any other shape keeps the
// pop's other readings (nullopt). A ring of 40 beats, which no corpus parameter pop has (1,024 in all multi-beat ones).
#include <gtest/gtest.h>

#include "models/lle/whole_ring_pop.h"

namespace coralsim::lle::lle_whole_ring_pop_test {
namespace {

constexpr uint64_t kRingBeats = 40;

TEST(WholeRingPop, HighPassesAndAWholeLastPassAreHighPlusOneRings) {
  EXPECT_EQ(wholeRingPassBeats(3, 0, 0, kRingBeats), 4 * kRingBeats);
  EXPECT_EQ(wholeRingPassBeats(1, 0, 0, kRingBeats), 2 * kRingBeats);
  // The trackers' pops: 3 passes over the 1,024-beat parameter ring and a whole one, 4,096 beats (not 3 x 1,024 + 1).
  EXPECT_EQ(wholeRingPassBeats(3, 0, 0, 1024), 4096u);
}

TEST(WholeRingPop, OtherShapesAreNotIt) {
  EXPECT_FALSE(wholeRingPassBeats(0, 0, 0, kRingBeats).has_value());   // the one-beat form: its own reading
  EXPECT_FALSE(wholeRingPassBeats(3, 5, 0, kRingBeats).has_value());   // a partial last pass
  EXPECT_FALSE(wholeRingPassBeats(3, 0, 17, kRingBeats).has_value());  // a repeat restating a length
}

}  // namespace
}  // namespace coralsim::lle::lle_whole_ring_pop_test
