// The arbiter between a host withdrawing a URB and the device taking it (sim/urb_arbiter.h).
#include <gtest/gtest.h>

#include "sim/urb_arbiter.h"

namespace coralsim::sim::urb_arbiter_test {
namespace {

TEST(UrbArbiter, AWithdrawnUrbCannotBeClaimedAndAClaimedOneCannotBeWithdrawn) {
  UrbArbiter arbiter;
  arbiter.expect(1);
  arbiter.expect(2);
  EXPECT_FALSE(arbiter.withdrawn(1));
  EXPECT_TRUE(arbiter.withdraw(1));
  EXPECT_TRUE(arbiter.withdrawn(1));
  EXPECT_FALSE(arbiter.claim(1)) << "the device completed a URB its host had withdrawn";
  EXPECT_TRUE(arbiter.claim(2));
  EXPECT_FALSE(arbiter.withdraw(2)) << "a URB the device completed was reported withdrawn";
  EXPECT_EQ(arbiter.trackedCount(), 0u) << "claimed ids must leave the table";
}

TEST(UrbArbiter, EachUrbIsWithdrawnAtMostOnceAndUnknownIdsAreNot) {
  UrbArbiter arbiter;
  arbiter.expect(7);
  EXPECT_TRUE(arbiter.withdraw(7));
  EXPECT_FALSE(arbiter.withdraw(7));
  EXPECT_FALSE(arbiter.withdraw(8));
  arbiter.forget(7);
  EXPECT_EQ(arbiter.trackedCount(), 0u);
}

TEST(UrbArbiter, UrbsNoHostAnnouncedAreAlwaysClaimable) {
  // The USB function is also driven directly (no Device in front): such URBs are never withdrawn.
  UrbArbiter arbiter;
  EXPECT_TRUE(arbiter.claim(42));
  EXPECT_TRUE(arbiter.claim(42));
}

TEST(UrbArbiter, ClearForgetsEveryUrbOfTheLease) {
  UrbArbiter arbiter;
  arbiter.expect(1);
  arbiter.expect(2);
  EXPECT_TRUE(arbiter.withdraw(2));
  arbiter.clear();
  EXPECT_EQ(arbiter.trackedCount(), 0u);
  EXPECT_FALSE(arbiter.withdraw(1));
}

}  // namespace
}  // namespace coralsim::sim::urb_arbiter_test
