// The cost formulas of models/chip/cost_model.h and models/timing_model.h, each checked against a
// value computed by hand from the formula in the header (not from running the code).
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "models/chip/cost_model.h"
#include "models/isa/opcodes.h"
#include "models/timing_model.h"

namespace coralsim::models {
namespace {

constexpr isa::Opcode op(uint8_t value) { return static_cast<isa::Opcode>(value); }

// A compute packet (17 words) with k_w0 (word 0 bits 62..69) and the two output loops of word 5
// (bits 8..17 and 45..54) set.
std::vector<isa::Word128> computePacket(uint64_t k, uint64_t outA, uint64_t outB) {
  std::vector<isa::Word128> words(17);
  words[0].setBits(6, 6, 0x01);
  words[0].setBits(62, 8, k);
  words[5].setBits(8, 10, outA);
  words[5].setBits(45, 10, outB);
  return words;
}

TEST(TimingCostModel, TransferCyclesRoundUp) {
  EXPECT_EQ(transferCycles(Bytes{0}, 16), Cycles{0});
  EXPECT_EQ(transferCycles(Bytes{1}, 16), Cycles{1});
  EXPECT_EQ(transferCycles(Bytes{16}, 16), Cycles{1});
  EXPECT_EQ(transferCycles(Bytes{17}, 16), Cycles{2});
  EXPECT_EQ(transferCycles(Bytes{150528}, 16), Cycles{9408});  // MobileNet's 224 x 224 x 3 input
  EXPECT_EQ(transferCycles(Bytes{5}, 0), Cycles{5});            // a zero rate is treated as 1 byte/cycle
}

TEST(TimingCostModel, ScalarIssueCostsOneCyclePerWord) {
  EXPECT_EQ(packetIssueCycles(1), 1u);   // bundle, HALT, branch, loop
  EXPECT_EQ(packetIssueCycles(2), 2u);   // sc.sync
  EXPECT_EQ(packetIssueCycles(13), 13u); // NLU table
  EXPECT_EQ(packetIssueCycles(17), 17u); // compute
}

TEST(TimingCostModel, InfeedAndOutfeedUseTheirOwnRates) {
  TimingModel t;
  t.infeedBytesPerCycle = 32;
  t.outfeedBytesPerCycle = 8;
  EXPECT_EQ(infeedCycles(t, Bytes{1000}), Cycles{32});   // ceil(1000 / 32)
  EXPECT_EQ(outfeedCycles(t, Bytes{1000}), Cycles{125}); // 1000 / 8
}

TEST(TimingCostModel, UnitsOfTilePackets) {
  EXPECT_EQ(tileUnitOf(op(0x01)), TileUnit::kMac);
  EXPECT_EQ(tileUnitOf(op(0x02)), TileUnit::kMac);
  EXPECT_EQ(tileUnitOf(op(0x19)), TileUnit::kNlu);
  EXPECT_EQ(tileUnitOf(op(0x10)), TileUnit::kDma10);
  EXPECT_EQ(tileUnitOf(op(0x11)), TileUnit::kDma11);
  EXPECT_EQ(tileUnitOf(op(0x18)), TileUnit::kDma18);
  EXPECT_EQ(tileUnitOf(op(0x1a)), TileUnit::kFence);
}

TEST(TimingCostModel, ComputeLoopsAreReadFromTheirFields) {
  const auto words = computePacket(7, 31, 31);
  const ComputeLoops loops = computeLoops(op(0x01), words);
  EXPECT_EQ(loops.reduction, 7u);
  EXPECT_EQ(loops.outerA, 31u);
  EXPECT_EQ(loops.outerB, 31u);
  EXPECT_EQ(computeLoopIterations(loops), 8u * 32u * 32u);
  // Not a compute packet: no loops.
  EXPECT_EQ(computeLoopIterations(computeLoops(op(0x10), words)), 1u);
  // A truncated packet reads 0 for the fields it does not hold.
  const std::vector<isa::Word128> shortPacket(words.begin(), words.begin() + 3);
  EXPECT_EQ(computeLoops(op(0x01), shortPacket).outerA, 0u);
}

TEST(TimingCostModel, TilePacketCyclesFollowTheTable) {
  TimingModel t;
  t.computePacketCycles = 100;
  t.macCyclesPerIteration = 2;
  t.nluTableCycles = 13;
  t.tileDmaPacketCycles = 40;
  // MAC: 100 + 2 x (7 + 1) x (31 + 1) x (31 + 1) = 100 + 2 x 8192 = 16484.
  EXPECT_EQ(tilePacketCycles(t, op(0x01), computePacket(7, 31, 31)), Cycles{16484});
  // MobileNet v2-like flattened loop: 100 + 2 x (2 + 1) x (783 + 1) x 1 = 4804.
  EXPECT_EQ(tilePacketCycles(t, op(0x01), computePacket(2, 783, 0)), Cycles{4804});
  const std::vector<isa::Word128> nlu(13);
  EXPECT_EQ(tilePacketCycles(t, op(0x19), nlu), Cycles{13});
  const std::vector<isa::Word128> dma(6);
  EXPECT_EQ(tilePacketCycles(t, op(0x15), dma), Cycles{40});
  const std::vector<isa::Word128> fence(1);
  EXPECT_EQ(tilePacketCycles(t, op(0x1a), fence), Cycles{0});
}

TEST(TimingCostModel, EveryConstantIsInTheTableOnce) {
  TimingModel t;
  for (const TimingConstant& c : kTimingConstants) {
    c.set(t, 12345);
    const std::string evidence = c.evidence;
    EXPECT_TRUE(evidence == "doc" || evidence == "calibrated" || evidence == "choice") << c.name;
  }
  EXPECT_EQ(t.macCyclesPerIteration, 12345u);
  EXPECT_EQ(t.computePacketCycles, 12345u);
  EXPECT_EQ(t.nluTableCycles, 12345u);
  EXPECT_EQ(t.tileDmaPacketCycles, 12345u);
  EXPECT_EQ(t.infeedBytesPerCycle, 12345u);
  EXPECT_EQ(t.outfeedBytesPerCycle, 12345u);
}

}  // namespace
}  // namespace coralsim::models
