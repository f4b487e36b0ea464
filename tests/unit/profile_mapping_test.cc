// The pieces of `coralsim profile` that need no corpus: MACs per op, the array-MAC padding, the
// packet-to-layer assignment rule (sim/profile/layer_mapping.h) and the rebuilding of compute
// packets from tile spans (sim/profile/compute_packet_log.h).
#include <gtest/gtest.h>

#include "sim/profile/compute_packet_log.h"
#include "sim/profile/layer_mapping.h"
#include "sim/profile/twin_layers.h"

namespace coralsim::sim::profile_mapping_test {
namespace {

TEST(ProfileMacs, ConvDepthwiseAndFullyConnectedCountTheirMultiplyAccumulates) {
  // CONV_2D 3x3, 8 -> 16 channels, 10x10 output: 100 x 16 x 9 x 8.
  EXPECT_EQ(layerMacs("CONV_2D", {1, 10, 10, 8}, {16, 3, 3, 8}, {1, 10, 10, 16}), 100u * 16 * 9 * 8);
  // DEPTHWISE_CONV_2D 3x3 on 32 channels, 5x5 output: 25 x 32 x 9.
  EXPECT_EQ(layerMacs("DEPTHWISE_CONV_2D", {1, 5, 5, 32}, {1, 3, 3, 32}, {1, 5, 5, 32}), 25u * 32 * 9);
  EXPECT_EQ(layerMacs("FULLY_CONNECTED", {1, 1280}, {1001, 1280}, {1, 1001}), 1001u * 1280);
  EXPECT_EQ(layerMacs("ADD", {1, 4}, {1, 4}, {1, 4}), 0u);
  EXPECT_EQ(layerMacs("CONV_2D", {1, 4}, {}, {1, 4}), 0u) << "no constant filter, no MACs";
}

TEST(ProfileMacs, ArrayMacsPadTheOutputChannelsToTheTileWidth) {
  EXPECT_EQ(layerArrayMacs("CONV_2D", 16 * 100, {1, 10, 10, 16}), 64u * 100);
  EXPECT_EQ(layerArrayMacs("CONV_2D", 96 * 100, {1, 10, 10, 96}), 128u * 100);
  EXPECT_EQ(layerArrayMacs("CONV_2D", 128 * 7, {1, 7, 128}), 128u * 7);
  EXPECT_EQ(layerArrayMacs("DEPTHWISE_CONV_2D", 900, {1, 10, 10, 1}), 900u) << "depthwise: unpadded";
}

TwinLayer layer(const char* op, uint64_t macs, bool onCpu = false) {
  TwinLayer l;
  l.op = op;
  l.macs = macs;
  l.arrayMacs = macs;
  l.onCpu = onCpu;
  return l;
}

ComputePacket packet(uint64_t iterations) {
  ComputePacket p;
  p.iterations = iterations;
  return p;
}

TEST(ProfileMapping, PacketsFollowTheCumulativeMacsInOperatorOrder) {
  const std::vector<TwinLayer> layers = {layer("CONV_2D", 100), layer("ADD", 0), layer("CONV_2D", 300),
                                         layer("SOFTMAX", 0, true)};
  const std::vector<ComputePacket> packets = {packet(25), packet(75), packet(100), packet(200)};
  const auto a = assignPackets(packets, layers);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0].packets, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(a[0].mapping, "mac-aligned");
  EXPECT_DOUBLE_EQ(a[0].agreement, 1.0);
  EXPECT_TRUE(a[1].packets.empty());
  EXPECT_EQ(a[1].mapping, "no compute packet");
  EXPECT_EQ(a[2].packets, (std::vector<size_t>{2, 3}));
  EXPECT_EQ(a[2].mapping, "mac-aligned");
  EXPECT_EQ(a[3].mapping, "cpu");
}

TEST(ProfileMapping, ALayerWhosePacketShareDiffersFromItsMacShareIsUncertain) {
  // Two equal layers, but the packets' work splits 30 / 70: the midpoint rule gives each layer
  // one packet, and neither share is within 0.8-1.25x of 1/2.
  const auto a = assignPackets({packet(30), packet(70)}, {layer("CONV_2D", 50), layer("CONV_2D", 50)});
  EXPECT_EQ(a[0].packets, (std::vector<size_t>{0}));
  EXPECT_EQ(a[1].packets, (std::vector<size_t>{1}));
  EXPECT_EQ(a[0].mapping, "uncertain");
  EXPECT_NEAR(a[0].agreement, 0.6, 1e-12);
  EXPECT_EQ(a[1].mapping, "uncertain");
}

ComputePacket passThrough(uint64_t iterations) {
  ComputePacket p = packet(iterations);
  p.passThrough = true;
  return p;
}

// model_dense's shape (docs/decoding-log.md "dense44"): staging computes before the first layer whose loop
// iterations are copy steps. Counted as work they push the second layer's second packet into the third layer.
TEST(ProfileMapping, PassThroughPacketsDoNotAdvanceTheWorkAxisAndGoToTheLayerAfterThem) {
  const std::vector<TwinLayer> layers = {layer("FULLY_CONNECTED", 10), layer("FULLY_CONNECTED", 20),
                                         layer("FULLY_CONNECTED", 20)};
  const std::vector<ComputePacket> packets = {passThrough(40), passThrough(40), packet(5),  packet(5),
                                              packet(10),      packet(10),      passThrough(7), packet(10),
                                              packet(10)};
  const auto a = assignPackets(packets, layers);
  EXPECT_EQ(a[0].packets, (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_EQ(a[0].packetIterations, 10u) << "the pass-throughs' 80 iterations are no layer's MACs";
  EXPECT_DOUBLE_EQ(a[0].agreement, 1.0);
  EXPECT_EQ(a[1].packets, (std::vector<size_t>{4, 5}));
  EXPECT_EQ(a[2].packets, (std::vector<size_t>{6, 7, 8})) << "a pass-through goes with the layer after it";
  EXPECT_EQ(a[2].mapping, "mac-aligned");
  // Without the mark the same packets are laid one layer late (the revert of the "dense43" merge).
  std::vector<ComputePacket> counted = packets;
  for (ComputePacket& p : counted) p.passThrough = false;
  const auto late = assignPackets(counted, layers);
  EXPECT_NE(late[1].packets, (std::vector<size_t>{4, 5}));
}

TEST(ProfileMapping, PassThroughPacketsAfterTheLastWorkingPacketGoToItsLayer) {
  const auto a = assignPackets({packet(10), passThrough(50)}, {layer("CONV_2D", 50)});
  EXPECT_EQ(a[0].packets, (std::vector<size_t>{0, 1}));
  EXPECT_DOUBLE_EQ(a[0].agreement, 1.0);
}

TEST(ProfileMapping, NoPacketsLeavesEveryMacLayerUncertain) {
  const auto a = assignPackets({}, {layer("CONV_2D", 50)});
  EXPECT_TRUE(a[0].packets.empty());
  EXPECT_EQ(a[0].mapping, "uncertain");
}

traces::TraceEvent span(traces::TraceUnitKind kind, uint16_t index, std::string name, uint64_t cycle,
                        uint64_t duration, uint64_t pc, uint64_t issue) {
  traces::TraceEvent e;
  e.kind = traces::TraceEventKind::kSpan;
  e.unit = {kind, index};
  e.name = std::move(name);
  e.cycle = cycle;
  e.duration = duration;
  e.args = {{"pc", pc}, {"sequence", 0}, {"issue_cycle", issue}};
  return e;
}

TEST(ProfileLog, TileSpansOfOnePacketBecomeOnePacketSplitByRun) {
  ComputePacketLog log(300, 2);
  using K = traces::TraceUnitKind;
  log.record(span(K::kScalarCore, 0, "run 0", 0, 1000, 0, 0));
  log.record(span(K::kTile, 0, "tile.compute", 10, 400, 5, 8));
  log.record(span(K::kTile, 1, "tile.compute", 12, 400, 5, 8));
  log.record(span(K::kNlu, 0, "tile.nlu", 10, 13, 30, 9));    // not a compute packet
  log.record(span(K::kTile, 0, "tile.compute", 410, 350, 40, 20));
  log.record(span(K::kScalarCore, 0, "run 1", 1000, 500, 0, 0));
  log.record(span(K::kTile, 2, "tile.compute", 1100, 310, 5, 1050));
  ASSERT_EQ(log.runs().size(), 2u);
  const auto first = log.packetsIn(log.runs()[0]);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].tiles, 2u);
  EXPECT_EQ(first[0].iterations, 100u);  // (400 - 300) / 2 on each of two tiles
  EXPECT_EQ(first[0].start, 10u);
  EXPECT_EQ(first[0].end, 412u);
  EXPECT_EQ(first[1].pc, 40u);
  EXPECT_EQ(first[1].iterations, 25u);
  const auto second = log.packetsIn(log.runs()[1]);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].iterations, 5u);
  EXPECT_FALSE(first[0].passThrough);
}

TEST(ProfileLog, APassThroughArgMarksThePacket) {
  ComputePacketLog log(300, 2);
  using K = traces::TraceUnitKind;
  log.record(span(K::kScalarCore, 0, "run 0", 0, 1000, 0, 0));
  traces::TraceEvent e = span(K::kTile, 0, "tile.compute", 10, 400, 5, 8);
  e.args.push_back({"pass_through", 1});
  log.record(e);
  log.record(span(K::kTile, 0, "tile.compute", 410, 350, 40, 20));
  const auto packets = log.packetsIn(log.runs()[0]);
  ASSERT_EQ(packets.size(), 2u);
  EXPECT_TRUE(packets[0].passThrough);
  EXPECT_EQ(packets[0].iterations, 50u) << "its iterations are kept; the mapping counts them 0";
  EXPECT_FALSE(packets[1].passThrough);
}

}  // namespace
}  // namespace coralsim::sim::profile_mapping_test
