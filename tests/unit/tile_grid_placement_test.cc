// Rule 3 of the layer checker's lane layout (sim/layer_check/tile_grid_placement.h): the positions of an
// intermediate layer's several-position packets laid on the 4 x 4 tile grid, each tile's block row-major,
// its row length from the step of its positions' addresses. Geometries written by hand (blocks of unequal
// widths and heights, padded and dense rows), none a corpus program's.
#include <gtest/gtest.h>

#include "sim/layer_check/tensor_comparison.h"
#include "sim/layer_check/tile_grid_placement.h"

namespace coralsim::sim::tile_grid_placement_test {
namespace {

constexpr size_t kC = 4;

// Tile t's block of an H x W x C layer: widths `widths` by grid column, heights `heights` by grid row; its
// positions row-major at `base` + (r x rowStride + c) x C bytes (rowStride = w + pad: a padded grid), each
// lane the byte `valueOf(element)` of the element it holds (so a misplaced position compares unequal).
uint8_t valueOf(size_t element) { return static_cast<uint8_t>(element * 7 + element / 251); }

CapturedCompute layerPacket(const std::vector<size_t>& widths, const std::vector<size_t>& heights, size_t pad, unsigned lanes = kC) {
  CapturedCompute c;
  c.pc = 0x100;
  c.form = lle::ComputeForm::kConvolution;
  c.bytesPerPosition = lanes;
  size_t W = 0;
  for (size_t w : widths) W += w;
  size_t y0 = 0;
  for (unsigned ty = 0; ty < heights.size(); ++ty) {
    size_t x0 = 0;
    for (unsigned tx = 0; tx < widths.size(); ++tx) {
      c.tiles.push_back(ty * static_cast<unsigned>(widths.size()) + tx);
      std::vector<uint64_t> at;
      std::vector<uint8_t> bytes;
      for (size_t r = 0; r < heights[ty]; ++r) {
        for (size_t x = 0; x < widths[tx]; ++x) {
          at.push_back(1000 + (r * (widths[tx] + pad) + x) * lanes);
          for (unsigned l = 0; l < lanes; ++l) bytes.push_back(l < kC ? valueOf(((y0 + r) * W + x0 + x) * kC + l) : 0xee);
        }
      }
      c.positionAt.push_back(at);
      c.lanes.push_back(bytes);
      x0 += widths[tx];
    }
    y0 += heights[ty];
  }
  // tiles ascending, as the capture holds them
  return c;
}

TwinTensor tensorOf(size_t H, size_t W) {
  TwinTensor t{1, "layer", {1, static_cast<int32_t>(H), static_cast<int32_t>(W), static_cast<int32_t>(kC)}, false, {}};
  for (size_t e = 0; e < H * W * kC; ++e) t.bytes.push_back(valueOf(e));
  return t;
}

TEST(TileGridPlacement, RowsShowWhereTheAddressStepChangesAndMustRepeat) {
  EXPECT_EQ(rowLengthOf(std::vector<uint64_t>{0, 4, 8, 20, 24, 28}), 3u);   // rows of 3, stride 20
  EXPECT_EQ(rowLengthOf(std::vector<uint64_t>{0, 4, 8, 12}), std::nullopt);  // dense: no row shows
  EXPECT_EQ(rowLengthOf(std::vector<uint64_t>{0, 4, 8, 20, 24, 40}), 0u);    // the second row steps otherwise
  EXPECT_EQ(rowLengthOf(std::vector<uint64_t>{0, 4, 8, 20, 24}), 0u);        // not whole rows
}

TEST(TileGridPlacement, BlocksOfUnequalSizesTileTheLayerAndEveryPositionIsComparedWhereItBelongs) {
  const std::vector<size_t> widths = {3, 3, 3, 2}, heights = {2, 2, 2, 1};  // 7 x 11 positions
  const std::vector<CapturedCompute> packets = {layerPacket(widths, heights, 2)};
  const std::vector<size_t> layer = {0};
  TwinTensor twin = tensorOf(7, 11);
  const TileGridPlacement grid = TileGridPlacement::of(twin.shape, packets, layer);
  ASSERT_TRUE(grid.placed()) << grid.problem();
  EXPECT_EQ(grid.firstElement(0, 0), 0u);
  EXPECT_EQ(grid.firstElement(5, 4), ((2 + 1) * 11 + 3 + 1) * kC);  // tile (1, 1): row 1, column 1 of its block
  EXPECT_EQ(grid.firstElement(15, 1), (6 * 11 + 10) * kC);          // the last tile: 1 x 2
  EXPECT_EQ(grid.firstElement(15, 2), std::nullopt);
  const TensorComparison c = compareWithTwin(twin, packets, layer);
  EXPECT_EQ(c.gridPlaced, 77u);
  EXPECT_EQ(c.compared, 7u * 11u * kC);
  EXPECT_EQ(c.differing, 0u);
  EXPECT_EQ(c.unplaced, 0u);
  // Tiles 1 and 2 swapped (both 2 x 3): every one of their bytes lands on the other's block and differs.
  std::vector<CapturedCompute> swapped = packets;
  std::swap(swapped[0].lanes[1], swapped[0].lanes[2]);
  const TensorComparison s = compareWithTwin(twin, swapped, layer);
  EXPECT_GT(s.differing, 0u);
  ASSERT_TRUE(s.first);
  EXPECT_EQ(s.first->tile, 1u);
  EXPECT_EQ(s.first->element, 3u * kC);  // tile 1's first position is (0, 3)
}

TEST(TileGridPlacement, DenseRowsAreLaidAsEqualBlocksOnlyWhereEveryTileHoldsOne) {
  const std::vector<size_t> layer = {0};
  const std::vector<CapturedCompute> equal = {layerPacket({2, 2, 2, 2}, {3, 3, 3, 3}, 0)};
  const TensorComparison c = compareWithTwin(tensorOf(12, 8), equal, layer);
  EXPECT_EQ(c.compared, 12u * 8u * kC);
  EXPECT_EQ(c.differing, 0u);
  // Unequal dense blocks show no row: refused, every position unplaced, the reason said.
  const std::vector<CapturedCompute> unequal = {layerPacket({3, 3, 3, 2}, {2, 2, 2, 1}, 0)};
  const TensorComparison u = compareWithTwin(tensorOf(7, 11), unequal, layer);
  EXPECT_EQ(u.compared, 0u);
  EXPECT_EQ(u.unplaced, 77u);
  EXPECT_NE(u.unplacedWhy.find("no row shows"), std::string::npos) << u.unplacedWhy;
}

TEST(TileGridPlacement, APartOfTheGridBlocksThatDoNotAddUpAndWiderLanesAreNotPlaced) {
  const std::vector<size_t> layer = {0};
  // Blocks adding up to 6 x 11 of a 7 x 11 layer (a chunk of it): refused.
  const std::vector<CapturedCompute> chunk = {layerPacket({3, 3, 3, 2}, {2, 2, 1, 1}, 2)};
  const TensorComparison c = compareWithTwin(tensorOf(7, 11), chunk, layer);
  EXPECT_EQ(c.compared, 0u);
  EXPECT_EQ(c.unplaced, 66u);
  EXPECT_NE(c.unplacedWhy.find("cover 6 x 11"), std::string::npos) << c.unplacedWhy;
  // Nine tiles of the grid: refused.
  CapturedCompute part = layerPacket({3, 3, 3}, {2, 2, 3}, 2);
  const TensorComparison p = compareWithTwin(tensorOf(7, 9), std::vector<CapturedCompute>{part}, layer);
  EXPECT_EQ(p.compared, 0u);
  EXPECT_NE(p.unplacedWhy.find("9 tiles"), std::string::npos) << p.unplacedWhy;
  // 8 lanes a position on a 4-channel layer: not this layer's packet, it does not fit.
  const std::vector<CapturedCompute> wide = {layerPacket({3, 3, 3, 2}, {2, 2, 2, 1}, 2, 8)};
  const TensorComparison w = compareWithTwin(tensorOf(7, 11), wide, layer);
  EXPECT_EQ(w.compared, 0u);
  EXPECT_EQ(w.slicesBeyond, 77u);
}

TEST(TileGridPlacement, UndefinedPositionsAreSkippedNotCompared) {
  const std::vector<size_t> layer = {0};
  std::vector<CapturedCompute> packets = {layerPacket({3, 3, 3, 2}, {2, 2, 2, 1}, 2)};
  packets[0].undefined.assign(16, {});
  packets[0].undefined[0] = std::vector<uint8_t>(6, 0);
  packets[0].undefined[0][4] = 1;
  packets[0].lanes[0][4 * kC] ^= 0xff;  // an undefined position holds whatever the memory held
  const TensorComparison c = compareWithTwin(tensorOf(7, 11), packets, layer);
  EXPECT_EQ(c.undefinedPositions, 1u);
  EXPECT_EQ(c.compared, 76u * kC);
  EXPECT_EQ(c.differing, 0u);
}

}  // namespace
}  // namespace coralsim::sim::tile_grid_placement_test
