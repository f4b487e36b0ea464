// The layer checker's pure parts (sim/layer_check/): the lane layout (rule 1: one position a tile,
// the packet's lanes per slice, tiles ascending, positions after channel blocks, padding lanes
// ignored; rule 2: several positions a tile through an OutputLayout), the comparison of captured
// lanes with a twin tensor (int8 flipped to the device's uint8, the first difference is the lowest
// element beyond the tolerance), and the capture's grouping of per-tile calls into packets.
#include <gtest/gtest.h>

#include <array>

#include "sim/layer_check/compute_capture.h"
#include "sim/layer_check/lane_layout.h"
#include "sim/layer_check/tensor_comparison.h"

namespace coralsim::sim::layer_check_comparison_test {
namespace {

TEST(LaneLayout, OnePositionTakesItsChannelsFromConsecutiveTiles) {
  const std::vector<int32_t> dense256 = {1, 256};
  EXPECT_EQ(placeLane(dense256, 0, 0).element, 0u);
  EXPECT_EQ(placeLane(dense256, 1, 5).element, 69u);
  EXPECT_EQ(placeLane(dense256, 3, 63).element, 255u);
  EXPECT_EQ(placeLane(dense256, 4, 0).kind, LanePlace::Kind::kBeyond);
}

TEST(LaneLayout, ChannelsBeyondTheTensorArePaddingAndPositionsFollowChannelBlocks) {
  const std::vector<int32_t> shape = {1, 2, 2, 100};  // 4 positions, 2 slices each (100 = 64 + 36)
  EXPECT_EQ(placeLane(shape, 0, 63).element, 63u);
  EXPECT_EQ(placeLane(shape, 1, 35).element, 99u);
  EXPECT_EQ(placeLane(shape, 1, 36).kind, LanePlace::Kind::kPadding);
  EXPECT_EQ(placeLane(shape, 2, 0).element, 100u);  // position 1, channel 0
  EXPECT_EQ(placeLane(shape, 7, 10).element, 374u);
  EXPECT_EQ(placeLane(shape, 8, 0).kind, LanePlace::Kind::kBeyond);
  EXPECT_EQ(coordinatesOf(shape, 374), (std::vector<int32_t>{0, 1, 1, 74}));
}

CapturedCompute packetOf(uint32_t pc, std::vector<unsigned> tiles, const std::vector<uint8_t>& values, size_t first) {
  CapturedCompute c;
  c.pc = pc;
  c.bytesPerPosition = 64;
  c.tiles = tiles;
  for (size_t i = 0; i < tiles.size(); ++i) {
    c.positionAt.push_back({0x400});
    c.lanes.emplace_back(values.begin() + static_cast<std::ptrdiff_t>(first + 64 * i),
                         values.begin() + static_cast<std::ptrdiff_t>(first + 64 * (i + 1)));
  }
  return c;
}

TEST(TensorComparison, EqualLanesMatchAndInt8IsComparedAsTheDeviceHoldsIt) {
  TwinTensor twin{7, "fc", {1, 128}, true, {}};
  std::vector<uint8_t> device(128);
  for (size_t i = 0; i < 128; ++i) {
    twin.bytes.push_back(static_cast<uint8_t>(i * 3));
    device[i] = static_cast<uint8_t>(i * 3) ^ 0x80;
  }
  const std::vector<CapturedCompute> packets = {packetOf(0x10, {0, 1}, device, 0)};
  const std::vector<size_t> layer = {0};
  const TensorComparison c = compareWithTwin(twin, packets, layer);
  EXPECT_EQ(c.elements, 128u);
  EXPECT_EQ(c.compared, 128u);
  EXPECT_EQ(c.differing, 0u);
  EXPECT_FALSE(c.first);
  twin.int8 = false;  // the same bytes read as uint8: every element differs by 128
  EXPECT_EQ(compareWithTwin(twin, packets, layer).beyondTolerance, 128u);
}

TEST(TensorComparison, FirstDifferenceNamesElementPacketTileLaneAndBothValues) {
  TwinTensor twin{3, "out", {1, 256}, false, std::vector<uint8_t>(256, 100)};
  std::vector<uint8_t> device(256, 100);
  device[200] = 101;  // within a tolerance of 1
  device[150] = 90;   // tile 2 (second packet's first tile), lane 22
  const std::vector<CapturedCompute> packets = {packetOf(0x10, {0, 1}, device, 0),
                                                packetOf(0x20, {4, 9}, device, 128)};
  const std::vector<size_t> layer = {0, 1};
  const TensorComparison exact = compareWithTwin(twin, packets, layer);
  EXPECT_EQ(exact.differing, 2u);
  EXPECT_EQ(exact.beyondTolerance, 2u);
  EXPECT_EQ(exact.maxAbsDiff, 10u);
  ASSERT_TRUE(exact.first);
  EXPECT_EQ(exact.first->element, 150u);
  EXPECT_EQ(exact.first->packet, 1u);
  EXPECT_EQ(exact.first->pc, 0x20u);
  EXPECT_EQ(exact.first->tile, 4u);
  EXPECT_EQ(exact.first->lane, 22u);
  EXPECT_EQ(exact.first->narrowAddress, 0x400u + 22);
  EXPECT_EQ(exact.first->lle, 90);
  EXPECT_EQ(exact.first->twin, 100);

  device[150] = 100;  // only the +1 left: within tolerance 1, still reported as the first difference
  const std::vector<CapturedCompute> nearly = {packetOf(0x10, {0, 1}, device, 0), packetOf(0x20, {4, 9}, device, 128)};
  const TensorComparison tolerant = compareWithTwin(twin, nearly, layer, 1);
  EXPECT_EQ(tolerant.differing, 1u);
  EXPECT_EQ(tolerant.beyondTolerance, 0u);
  ASSERT_TRUE(tolerant.first);
  EXPECT_EQ(tolerant.first->element, 200u);
}

TEST(TensorComparison, APartLayerComparesWhatItsPacketsCoveredAndExtraSlicesAreCounted) {
  const TwinTensor twin{1, "t", {1, 64}, false, std::vector<uint8_t>(64, 9)};
  const std::vector<uint8_t> device(128, 9);
  const std::vector<CapturedCompute> packets = {packetOf(0, {0, 1}, device, 0)};
  const std::vector<size_t> layer = {0};
  const TensorComparison c = compareWithTwin(twin, packets, layer);
  EXPECT_EQ(c.compared, 64u);
  EXPECT_EQ(c.slicesBeyond, 1u);
  const TwinTensor wide{1, "int32", {1, 4}, false, std::vector<uint8_t>(16)};
  EXPECT_THROW((void)compareWithTwin(wide, packets, layer), std::invalid_argument);
}

TEST(LaneLayout, OnePositionSlicesAreAsWideAsThePacketsLanes) {
  // A 4-lane one-position convolution (the stride sweep's form) on a 6-channel tensor of 2 positions:
  // two slices a position, the second half padding.
  const std::vector<int32_t> shape = {1, 1, 2, 6};
  EXPECT_EQ(placeLane(shape, 1, 1, 4).element, 5u);
  EXPECT_EQ(placeLane(shape, 1, 2, 4).kind, LanePlace::Kind::kPadding);
  EXPECT_EQ(placeLane(shape, 2, 3, 4).element, 9u);
  EXPECT_EQ(placeLane(shape, 4, 0, 4).kind, LanePlace::Kind::kBeyond);
}

TEST(LaneLayout, SlicesOfSeveralWidthsFollowEachOtherAlongTheChannels) {
  // model_dense's Dense (docs/decoding-log.md "dense44" §B): tile 0 computes channels 0-63 (64 lanes), tile 1
  // channels 64-99 (36 lanes), on 2 positions here. With the second slice's own width (placeLane's w x s) its
  // lane 0 would land on channel 36.
  const std::vector<int32_t> shape = {2, 100};
  SliceWalk walk(shape);
  EXPECT_EQ(walk.place(63).element, 63u);
  walk.next(64);
  EXPECT_EQ(walk.place(0).element, 64u);
  EXPECT_EQ(walk.place(35).element, 99u);
  EXPECT_EQ(walk.place(36).kind, LanePlace::Kind::kPadding);
  walk.next(36);
  EXPECT_EQ(walk.place(0).element, 100u) << "the slice that reached channel 99 ended the position";
  walk.next(64);
  walk.next(64);
  EXPECT_EQ(walk.place(0).kind, LanePlace::Kind::kBeyond);
  // Slices of one width: placeLane's rule.
  SliceWalk same({1, 1, 2, 6});
  for (size_t slice = 0; slice < 5; same.next(4), ++slice) {
    for (unsigned lane = 0; lane < 4; ++lane) {
      const LanePlace a = same.place(lane), b = placeLane({1, 1, 2, 6}, slice, lane, 4);
      EXPECT_EQ(a.kind, b.kind) << slice << " " << lane;
      if (a.kind == LanePlace::Kind::kElement) {
        EXPECT_EQ(a.element, b.element) << slice << " " << lane;
      }
    }
  }
}

TEST(LayerComparison, ATileOfFewerLanesTakesTheChannelsAfterTheTileBefore) {
  // 100 channels over a 64-lane and a 36-lane tile, every lane its channel's value: all 100 compare equal.
  std::vector<uint8_t> twinBytes(100);
  for (size_t c = 0; c < 100; ++c) twinBytes[c] = static_cast<uint8_t>(c);
  const TwinTensor twin{1, "dense/Relu", {1, 100}, false, twinBytes};
  std::vector<uint8_t> lanes0(64), lanes1(36);
  for (size_t c = 0; c < 64; ++c) lanes0[c] = static_cast<uint8_t>(c);
  for (size_t c = 0; c < 36; ++c) lanes1[c] = static_cast<uint8_t>(64 + c);
  CapturedCompute tile0, tile1;
  tile0.pc = 0x160;
  tile0.bytesPerPosition = 64;
  tile0.tiles = {0};
  tile0.positionAt = {{100}};
  tile0.lanes = {lanes0};
  tile1 = tile0;
  tile1.pc = 0x171;
  tile1.bytesPerPosition = 36;
  tile1.tiles = {1};
  tile1.lanes = {lanes1};
  const std::vector<CapturedCompute> packets = {tile0, tile1};
  const std::vector<size_t> layer = {0, 1};
  const TensorComparison c = compareWithTwin(twin, packets, layer);
  EXPECT_EQ(c.compared, 100u);
  EXPECT_EQ(c.differing, 0u);
  EXPECT_EQ(c.slicesBeyond, 0u);
}

// A 3 x 5 output of 6 channels over two tiles of a 4 x 4 mesh, tiles 9 (rows 0-1) and 14 (row 2),
// each row 5 positions x 8 bytes (6 channels, 2 bytes of padding a position), tile 14's part after 80
// bytes of tile 9's: no corpus program has this geometry.
usb::OutputLayout twoTileLayout() {
  usb::OutputLayout l;
  l.yCoordinateToLinearTileId = {8, 8, 13};
  l.xCoordinateToLinearTileId = {1, 1, 1, 1, 1, 2, 2};  // columns 5, 6 not in the tensor
  l.linearizedTileByteOffset = std::vector<int32_t>(16, 0);
  l.linearizedTileByteOffset[14] = 80;
  for (int x = 0; x < 7; ++x) l.xCoordinateToLocalByteOffset.push_back(8 * x);
  l.yCoordinateToLocalYOffset = {0, 1, 0};
  l.xCoordinateToLocalYRowSize = std::vector<int32_t>(7, 40);
  return l;
}

TEST(LaneLayout, SeveralPositionsGoWhereTheOutputLayoutPutsTheirTilesLocalOffset) {
  const usb::OutputLayout layout = twoTileLayout();
  const OutputLayoutPlacement placement(layout, 3, 5, 6);
  EXPECT_EQ(placement.place(9, 0, 0).element, 0u);
  EXPECT_EQ(placement.place(9, 48, 5).element, (1 * 5 + 1) * 6 + 5u);  // row 1, column 1
  EXPECT_EQ(placement.place(9, 48, 6).kind, LanePlace::Kind::kPadding);
  EXPECT_EQ(placement.place(14, 32, 2).element, (2 * 5 + 4) * 6 + 2u);  // row 2, column 4
  EXPECT_EQ(placement.place(14, 40, 0).kind, LanePlace::Kind::kBeyond);  // past tile 14's row
  EXPECT_EQ(placement.place(9, 4, 0).kind, LanePlace::Kind::kBeyond);    // not a position's first byte
  EXPECT_EQ(placement.place(3, 0, 0).kind, LanePlace::Kind::kBeyond);    // a tile with no part
}

// One tile of a several-position packet: `positions` positions of 8 bytes from narrow `base`, byte
// (p, l) = value(p, l).
CapturedCompute convPacketOn(unsigned tile, uint64_t base, size_t positions, uint8_t (*value)(size_t, unsigned)) {
  CapturedCompute c;
  c.pc = 0x77;
  c.form = lle::ComputeForm::kConvolution;
  c.bytesPerPosition = 8;
  c.tiles = {tile};
  c.positionAt.emplace_back();
  c.lanes.emplace_back();
  for (size_t p = 0; p < positions; ++p) {
    c.positionAt[0].push_back(base + 8 * p);
    for (unsigned l = 0; l < 8; ++l) c.lanes[0].push_back(value(p, l));
  }
  return c;
}

TEST(TensorComparison, SeveralPositionPacketsAreComparedThroughTheLayoutAndIdentityCopiesAreNot) {
  const usb::OutputLayout layout = twoTileLayout();
  const OutputLayoutPlacement placement(layout, 3, 5, 6);
  // The twin: element e = e % 251. Tile 9 holds positions 0-9 (rows 0-1), tile 14 positions 10-14,
  // each written from its own base (1,000 and 2,048): the bases are the lowest addresses written.
  TwinTensor twin{5, "conv", {1, 3, 5, 6}, false, {}};
  for (size_t e = 0; e < 90; ++e) twin.bytes.push_back(static_cast<uint8_t>(e % 251));
  const auto rowsOfTile9 = [](size_t p, unsigned l) { return static_cast<uint8_t>(l < 6 ? 6 * p + l : 0xee); };
  const auto rowOfTile14 = [](size_t p, unsigned l) { return static_cast<uint8_t>(l < 6 ? 6 * (10 + p) + l : 0xee); };
  CapturedCompute staging = convPacketOn(9, 0, 40, rowsOfTile9);
  staging.form = lle::ComputeForm::kIdentityCopy;  // bytes that are not the layer's output
  std::vector<CapturedCompute> packets = {staging, convPacketOn(9, 1000, 10, rowsOfTile9), convPacketOn(14, 2048, 5, rowOfTile14)};
  const std::vector<size_t> layer = {0, 1, 2};
  TensorComparison c = compareWithTwin(twin, packets, layer, 0, &placement);
  EXPECT_EQ(c.stagingPackets, 1u);
  EXPECT_EQ(c.compared, 90u);
  EXPECT_EQ(c.differing, 0u);
  EXPECT_EQ(c.unplaced, 0u);
  // Without the layout the positions are not placed, not guessed.
  EXPECT_EQ(compareWithTwin(twin, packets, layer).unplaced, 15u);
  EXPECT_EQ(compareWithTwin(twin, packets, layer).compared, 0u);
  // One byte wrong: tile 14's position 3 (row 2, column 3), lane 4.
  packets[2].lanes[0][8 * 3 + 4] = 200;
  c = compareWithTwin(twin, packets, layer, 0, &placement);
  EXPECT_EQ(c.beyondTolerance, 1u);
  ASSERT_TRUE(c.first);
  EXPECT_EQ(c.first->element, (2 * 5 + 3) * 6 + 4u);
  EXPECT_EQ(c.first->coordinates, (std::vector<int32_t>{0, 2, 3, 4}));
  EXPECT_EQ(c.first->packet, 2u);
  EXPECT_EQ(c.first->tile, 14u);
  EXPECT_EQ(c.first->lane, 4u);
  EXPECT_EQ(c.first->narrowAddress, 2048 + 8 * 3 + 4u);
  EXPECT_EQ(c.first->lle, 200u);
  EXPECT_EQ(c.first->twin, (2 * 5 + 3) * 6 + 4u);
  // A position the layout does not have (tile 14 written one position further): unplaced.
  packets.push_back(convPacketOn(14, 2048 + 40, 1, rowOfTile14));
  packets[2].lanes[0][8 * 3 + 4] = (2 * 5 + 3) * 6 + 4;
  const std::vector<size_t> more = {0, 1, 2, 3};
  EXPECT_EQ(compareWithTwin(twin, packets, more, 0, &placement).unplaced, 1u);
}

TEST(ComputeCapture, GroupsTheTilesOfEachExecutionIntoOnePacket) {
  models::DecodedPacket a;
  a.pc = 0x30;
  models::DecodedPacket b;
  b.pc = 0x40;
  const std::array<uint8_t, 64> lanes{};
  const uint64_t at64[] = {64};
  const uint64_t atConv[] = {128, 136, 200};
  const std::array<uint8_t, 24> conv{1, 2, 3};
  const lle::ComputeWrite dense{lle::ComputeForm::kSinglePosition, 64, at64, lanes};
  ComputeCapture capture;
  capture.computed(a, 0, dense);
  capture.computed(a, 3, dense);
  capture.computed(a, 0, dense);  // the same packet again (a loop): a new execution
  capture.computed(b, 5, lle::ComputeWrite{lle::ComputeForm::kConvolution, 8, atConv, conv});
  const auto packets = capture.packets();
  ASSERT_EQ(packets.size(), 3u);
  EXPECT_EQ(packets[0].tiles, (std::vector<unsigned>{0, 3}));
  EXPECT_EQ(packets[1].tiles, (std::vector<unsigned>{0}));
  EXPECT_EQ(packets[2].pc, 0x40u);
  EXPECT_EQ(packets[2].form, lle::ComputeForm::kConvolution);
  EXPECT_EQ(packets[2].bytesPerPosition, 8u);
  EXPECT_EQ(packets[2].positionAt.at(0), (std::vector<uint64_t>{128, 136, 200}));
  EXPECT_EQ(packets[2].lanes.at(0).size(), 24u);
  EXPECT_EQ(packets[2].lanes.at(0)[2], 3u);
}

}  // namespace
}  // namespace coralsim::sim::layer_check_comparison_test
