// The broadcast copy of 2-byte elements (models/lle/two_byte_element_broadcast.h; docs/decoding-log.md "trk16" §A): the
// element width its idle Nest37 carries name, and the lanes of a group read as two 16-bit elements. Values no corpus
// packet holds (elements 200 and 3, a block weighing them in the order 0, 1, 1, 0; Nest37Limit1 5).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "models/lle/lle_fields.h"
#include "models/lle/two_byte_element_broadcast.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_two_byte_element_broadcast_test {
namespace {

std::vector<uint8_t> blockOf(const std::array<uint32_t, 4>& units) {
  std::vector<uint8_t> block;
  for (const uint32_t v : units) {
    for (unsigned b = 0; b < 4; ++b) block.push_back(static_cast<uint8_t>(v >> (8 * b)));
  }
  return block;
}

TEST(TwoByteElementBroadcast, EachLaneWeighsTheGroupsTwoSixteenBitElementsByBytesZeroAndOneOfItsUnit) {
  const std::vector<uint8_t> group = {200, 0, 3, 0};  // elements 200 and 3
  // Units 1, 256, 256, 1 (bytes: 1 at byte 0 or byte 1): lanes (element 0, element 1, element 1, element 0).
  const auto lanes = TwoByteElementBroadcast::lanes(group, blockOf({1, 256, 256, 1}));
  ASSERT_EQ(lanes.index(), 0u) << std::get<std::string>(lanes);
  EXPECT_EQ(std::get<0>(lanes), (std::array<uint8_t, 4>{200, 3, 3, 200}));  // the byte rule would give 200, 0, 0, 200
  // The trackers' block (1, 256, 1, 256) on 0x07d1's (u_lo, u_hi) = (124, 57): u = 14,716 as a 16-bit element twice.
  const auto tracker = TwoByteElementBroadcast::lanes(std::vector<uint8_t>{124, 0, 57, 0}, blockOf({1, 256, 1, 256}));
  ASSERT_EQ(tracker.index(), 0u);
  EXPECT_EQ(std::get<0>(tracker), (std::array<uint8_t, 4>{124, 57, 124, 57}));
}

TEST(TwoByteElementBroadcast, AThirdElementsWeightOrASumWiderThanAByteIsRefusedByName) {
  const auto third = TwoByteElementBroadcast::lanes(std::vector<uint8_t>{1, 0, 2, 0}, blockOf({1, 256, 0x10000, 1}));
  ASSERT_EQ(third.index(), 1u);
  EXPECT_NE(std::get<std::string>(third).find("block unit 2 byte 2"), std::string::npos) << std::get<std::string>(third);
  const auto wide = TwoByteElementBroadcast::lanes(std::vector<uint8_t>{0x2c, 0x01, 0, 0}, blockOf({1, 256, 1, 256}));  // element 300
  ASSERT_EQ(wide.index(), 1u);
  EXPECT_NE(std::get<std::string>(wide).find("lane 0's sum 300"), std::string::npos) << std::get<std::string>(wide);
}

TEST(TwoByteElementBroadcast, TheIdleCarriesNameTheElementWidthAndTheWalkIsOneGroupReRead) {
  EnvelopePackets packets(0x300);
  const auto copy = [&](uint64_t carry1, uint64_t wrap1, uint64_t wrap3, uint64_t limit1, uint64_t step) {
    const models::DecodedPacket p =
        packets.make(0x01, 1, {{LleField::ComputeUnrequantisedCopy, 1}, {LleField::ComputeInputBytes, 4}, {LleField::ComputeInputRingOn, 0},
                               {LleField::ComputeK4W1, 0}, {LleField::ComputeNest37Limit1, limit1}, {LleField::ComputePositions, 0},
                               {LleField::ComputeNest37Limit3, 0}, {LleField::ComputeNest37Carry1, carry1}, {LleField::ComputePositionStep37, step},
                               {LleField::ComputeInputBytesCode, 0}});
    for (unsigned e = 0; e < 3; ++e) packets.setElement(LleField::ComputeNest37LimitHigh, e, 0);
    packets.setElement(LleField::ComputeKWrap37, 1, wrap1);
    packets.setElement(LleField::ComputeKWrap37, 3, wrap3);
    return p;
  };
  const models::DecodedPacket two = copy(8, 2, 2, 5, 0);
  EXPECT_TRUE(TwoByteElementBroadcast::isBroadcastCopy(two.words));
  const auto width = TwoByteElementBroadcast::elementBytes(two.words);
  ASSERT_TRUE(std::holds_alternative<uint64_t>(width)) << std::get<std::string>(width);
  EXPECT_EQ(std::get<uint64_t>(width), 2u);
  const models::DecodedPacket one = copy(4, 1, 1, 5, 0);
  EXPECT_EQ(std::get<uint64_t>(TwoByteElementBroadcast::elementBytes(one.words)), 1u);
  // Carries that disagree name no width.
  const models::DecodedPacket odd = copy(8, 1, 2, 5, 0);
  ASSERT_TRUE(std::holds_alternative<std::string>(TwoByteElementBroadcast::elementBytes(odd.words)));
  EXPECT_NE(std::get<std::string>(TwoByteElementBroadcast::elementBytes(odd.words)).find("ComputeKWrap37[1] = 1"), std::string::npos);
  // No counting level 1, or a level 1 that moves (one unit a step): no broadcast of one group.
  EXPECT_FALSE(TwoByteElementBroadcast::isBroadcastCopy(copy(8, 2, 2, 0, 0).words));
  EXPECT_FALSE(TwoByteElementBroadcast::isBroadcastCopy(copy(8, 2, 2, 5, 1).words));
}

}  // namespace
}  // namespace coralsim::lle::lle_two_byte_element_broadcast_test
