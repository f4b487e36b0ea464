// The Dense form with the bias array as its whole prefix (models/lle/bias_prefix_dense.h; docs/decoding-log.md
// "loomdense"): 20 lanes (ComputeLaneGroups 4) over K = 3 groups, input zero point 10, weight zero point 3 -- a lane
// count, K and pair of zero points no corpus compute has (looming's @ 0x04ae: 12 lanes, K = 9, zero points 0).
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <span>
#include <vector>

#include "models/lle/bias_prefix_dense.h"

namespace coralsim::lle::lle_bias_prefix_dense_test {
namespace {

constexpr unsigned kTestLanes = 20;
constexpr uint32_t kTestGroups = 3;
constexpr uint8_t kZpWeight = 3;

struct Rows {
  std::array<std::array<uint8_t, 4 * kTestLanes>, 1 + kTestGroups> bytes{};
  Rows() {
    for (auto& row : bytes) row.fill(kZpWeight);  // every weight at its zero point: it adds nothing
    bytes[0].fill(0);                               // the bias row
  }
  void bias(unsigned lane, int32_t value) { std::memcpy(bytes[0].data() + 4 * lane, &value, 4); }
  void weight(uint32_t group, unsigned lane, unsigned inputByte, uint8_t value) { bytes[1 + group][4 * lane + inputByte] = value; }
  std::vector<std::span<const uint8_t>> spans() const {
    std::vector<std::span<const uint8_t>> out;
    for (const auto& row : bytes) out.emplace_back(row);
    return out;
  }
};

const BiasPrefixDenseShape kShape{kTestGroups, kTestLanes, 10, kZpWeight};
// x - zpIn: +2 at group 0 byte 0, +15 at group 1 byte 1, -6 at group 2 byte 3; 0 elsewhere.
const std::array<uint8_t, 4 * kTestGroups> kInput{12, 10, 10, 10, 10, 25, 10, 10, 10, 10, 10, 4};

TEST(BiasPrefixDenseTest, EachLaneSumsItsBiasAndItsOwnWeightsLessBothZeroPoints) {
  Rows rows;
  rows.bias(0, 42);
  rows.bias(5, -1000);
  rows.bias(19, 7);
  rows.weight(0, 5, 0, 9);    // lane 5: (12 - 10) (9 - 3) = 12
  rows.weight(1, 5, 1, 1);    // lane 5: (25 - 10) (1 - 3) = -30
  rows.weight(2, 19, 3, 200);  // lane 19: (4 - 10) (200 - 3) = -1182 (the stored byte is uint8: 200, not -56)
  const auto spans = rows.spans();
  const std::vector<int32_t> sums = biasPrefixDenseSums(kShape, kInput, spans);
  ASSERT_EQ(sums.size(), kTestLanes);
  EXPECT_EQ(sums[0], 42);
  EXPECT_EQ(sums[5], -1000 + 12 - 30);
  EXPECT_EQ(sums[19], 7 - 1182);
  for (unsigned c : {1u, 2u, 4u, 6u, 18u}) EXPECT_EQ(sums[c], 0) << "lane " << c;
}

// Lane c's weight for input byte i of a group sits at byte 4c + i of the group's row (lane-major), not at i x lanes + c:
// a weight at byte 20 of group 0's row is lane 5's weight for input byte 0, not lane 0's for input byte 1.
TEST(BiasPrefixDenseTest, AGroupRowIsLaneMajor) {
  Rows rows;
  rows.weight(0, 5, 0, 4);  // byte 20 of row 1
  const auto spans = rows.spans();
  const std::vector<int32_t> sums = biasPrefixDenseSums(kShape, kInput, spans);
  EXPECT_EQ(sums[5], 2);  // (12 - 10) (4 - 3)
  EXPECT_EQ(sums[0], 0);
}

// Without the prefix (ComputeParamPrefix 0, docs/decoding-log.md "fcx" §A) the rows are the K groups alone: row g is group
// g, and no lane has a bias.
TEST(BiasPrefixDenseTest, WithoutThePrefixTheRowsAreTheGroupsAndNoLaneHasABias) {
  Rows rows;
  rows.weight(0, 5, 0, 9);    // lane 5: (12 - 10) (9 - 3) = 12
  rows.weight(1, 5, 1, 1);    // lane 5: (25 - 10) (1 - 3) = -30
  rows.weight(2, 19, 3, 200);  // lane 19: (4 - 10) (200 - 3) = -1182
  const auto withBiasRow = rows.spans();
  const std::vector<std::span<const uint8_t>> groupsOnly(withBiasRow.begin() + 1, withBiasRow.end());
  BiasPrefixDenseShape shape = kShape;
  shape.biasRow = false;
  const std::vector<int32_t> sums = biasPrefixDenseSums(shape, kInput, groupsOnly);
  ASSERT_EQ(sums.size(), kTestLanes);
  EXPECT_EQ(sums[5], 12 - 30);
  EXPECT_EQ(sums[19], -1182);
  EXPECT_EQ(sums[0], 0);
}

}  // namespace
}  // namespace coralsim::lle::lle_bias_prefix_dense_test
