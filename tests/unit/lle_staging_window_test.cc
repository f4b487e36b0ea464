// Which input addresses name a staging window (models/lle/staging_window.h): its first unit or that
// unit plus whole windows, and -- for a reader whose input is a ring of two image rows -- the ring's
// second half (docs/decoding-log.md "stride" §C: the stride sweep's 48-unit rows in a 512-byte ring,
// read at unit 256 and 320). A 30-unit window at unit 200 read through a 352-byte ring (44 units a
// half) is no corpus layout.
#include <gtest/gtest.h>

#include "models/lle/staging_window.h"

namespace coralsim::lle::lle_staging_window_test {
namespace {

TEST(LleStagingWindow, TheSecondHalfOfATwoRowInputRingNamesTheWindow) {
  const StagingWindow window{200, 30, 5, {}, 0};
  constexpr uint64_t kRingHalfUnits = 352 / 8;
  EXPECT_TRUE(window.isNamedBy(200));
  EXPECT_TRUE(window.isNamedBy(230));   // one window on
  EXPECT_FALSE(window.isNamedBy(244));  // half the ring on, without a ring
  EXPECT_TRUE(window.isNamedBy(244, kRingHalfUnits));
  EXPECT_TRUE(window.isNamedBy(200, kRingHalfUnits));
  EXPECT_FALSE(window.isNamedBy(245, kRingHalfUnits));
  EXPECT_FALSE(window.isNamedBy(288, kRingHalfUnits));  // a whole ring on is not its second half
  EXPECT_FALSE(window.isNamedBy(199, kRingHalfUnits));
}

}  // namespace
}  // namespace coralsim::lle::lle_staging_window_test
