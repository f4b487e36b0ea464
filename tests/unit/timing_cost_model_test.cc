// The cost formulas of models/chip/cost_model.h and models/timing_model.h, each checked against a
// value computed by hand from the formula in the header (not from running the code).
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "models/chip/cost_model.h"
#include "models/isa/field.h"
#include "models/isa/opcodes.h"
#include "models/timing_model.h"

namespace coralsim::models::timing_cost_model_test {
namespace {

constexpr isa::Opcode op(uint8_t value) { return static_cast<isa::Opcode>(value); }

// A compute packet (17 words) whose Nest29 loop nest (models/isa/compute_loop_nest.def) has the
// given limits. The positions are written out by hand (level j's 14-bit limit at packet bit
// 7 x 128 + 90 + 29 j; level 1 straddles words 7 and 8), not taken from the table under test.
std::vector<isa::Word128> computePacket(const std::array<uint64_t, 7>& limits) {
  std::vector<isa::Word128> words(17);
  words[0].setBits(6, 6, 0x01);
  for (unsigned level = 0; level < limits.size(); ++level) {
    isa::writePacketBits(words, 7 * 128 + 90 + 29 * level, 14, limits[level]);
  }
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

TEST(TimingCostModel, ComputeLoopsAreTheSevenLevelsOfTheNest) {
  // iwatake's 7 x 7 convolution layer: 8 K groups (32 channels), 7 x 7 taps, 32 x 32 positions.
  const auto words = computePacket({7, 6, 6, 0, 31, 31, 0});
  const ComputeLoops loops = computeLoops(op(0x01), words);
  EXPECT_EQ(loops.limits, (std::array<uint64_t, 7>{7, 6, 6, 0, 31, 31, 0}));
  EXPECT_EQ(computeLoopIterations(loops), 8u * 7u * 7u * 32u * 32u);
  // The compute variants carry the same nest.
  EXPECT_EQ(computeLoopIterations(computeLoops(op(0x02), words)), 401408u);
  // Not a compute packet: no loops.
  EXPECT_EQ(computeLoopIterations(computeLoops(op(0x10), words)), 1u);
  // A truncated packet reads 0 for the levels it does not hold (level 0 is in word 7).
  const std::vector<isa::Word128> shortPacket(words.begin(), words.begin() + 7);
  EXPECT_EQ(computeLoopIterations(computeLoops(op(0x01), shortPacket)), 1u);
}

TEST(TimingCostModel, NestLimitsAreFourteenBitsAndTheFlagBitsAreNotPartOfThem) {
  // A 40 x 40 single-channel convolution on 256 x 256: 1600 taps (wider than the 8-bit K fields),
  // 4096 positions per tile.
  auto words = computePacket({1599, 4095, 0, 0, 0, 0, 0});
  EXPECT_EQ(computeLoopIterations(computeLoops(op(0x01), words)), 1600u * 4096u);
  // The two bits above each limit (bits 14, 15 of the slot) are flags, not limit bits.
  isa::writePacketBits(words, 7 * 128 + 90 + 14, 2, 3);
  isa::writePacketBits(words, 7 * 128 + 90 + 29 * 2 + 14, 2, 2);
  EXPECT_EQ(computeLoopIterations(computeLoops(op(0x01), words)), 1600u * 4096u);
}

TEST(TimingCostModel, TilePacketCyclesFollowTheTable) {
  TimingModel t;
  t.computePacketCycles = 100;
  t.macCyclesPerIteration = 2;
  t.nluTableCycles = 13;
  t.tileDmaPacketCycles = 40;
  // MAC: 100 + 2 x (7 + 1) x (6 + 1) x (6 + 1) x (31 + 1) x (31 + 1) = 100 + 2 x 401408 = 802916.
  EXPECT_EQ(tilePacketCycles(t, op(0x01), computePacket({7, 6, 6, 0, 31, 31, 0})), Cycles{802916});
  // MobileNet v2-like flattened loop: 100 + 2 x (2 + 1) x (783 + 1) = 4804.
  EXPECT_EQ(tilePacketCycles(t, op(0x01), computePacket({2, 783, 0, 0, 0, 0, 0})), Cycles{4804});
  const std::vector<isa::Word128> nlu(13);
  EXPECT_EQ(tilePacketCycles(t, op(0x19), nlu), Cycles{13});
  const std::vector<isa::Word128> dma(4);
  EXPECT_EQ(tilePacketCycles(t, op(0x12), dma), Cycles{40});  // 0x12: size not decoded
  const std::vector<isa::Word128> fence(1);
  EXPECT_EQ(tilePacketCycles(t, op(0x1a), fence), Cycles{0});
}

// The ring and mesh transfers (docs/decoding-log.md "ringmesh"): a 0x10 send pays its 256-byte beats
// over the ring's bandwidth (five levels from w0 bit 95 at a 33-bit pitch, in either destination form);
// a mesh packet its received 4-byte units over narrow memory (w2 bit 44, pitch 33, when w2 bit 27 is
// set), one unit when it only sends. Positions written out by hand from lle_fields.def.
TEST(TimingCostModel, RingSendsPayTheirBeatsAndMeshPacketsTheirReceivedUnits) {
  TimingModel t;
  t.tileDmaPacketCycles = 10;
  t.narrowBytesPerCycle = 64;
  t.ringBytesPerCycle = 16;
  std::vector<isa::Word128> send10(4);
  isa::writePacketBits(send10, 128, 16, 47);  // level 1: RingCanary 12 x 128 x 128's drain, 48 beats
  EXPECT_EQ(tileTransferOf(op(0x10), send10)->bytes, 48u * 256u);
  EXPECT_EQ(tileTransferOf(op(0x10), send10)->memory, isa::TileMemory::Ring);
  EXPECT_EQ(tilePacketCycles(t, op(0x10), send10), Cycles{10 + 48 * 256 / 16});
  isa::writePacketBits(send10, 95 + 4 * 33, 16, 2);  // level 4: x 3
  EXPECT_EQ(tileTransferOf(op(0x10), send10)->bytes, 3u * 48u * 256u);
  for (const uint8_t mesh : {uint8_t{0x15}, uint8_t{0x16}, uint8_t{0x18}}) {
    std::vector<isa::Word128> packet(6);
    isa::writePacketBits(packet, 95, 16, 63);  // the send side: not charged here
    isa::writePacketBits(packet, 2 * 128 + 44, 16, 63);
    isa::writePacketBits(packet, 2 * 128 + 44 + 33, 16, 18);  // a 64 x 19 halo strip
    EXPECT_EQ(tileTransferOf(op(mesh), packet)->bytes, 4u) << int{mesh} << ": no receive, one unit";
    isa::writePacketBits(packet, 2 * 128 + 27, 1, 1);
    EXPECT_EQ(tileTransferOf(op(mesh), packet)->bytes, 4u * 64u * 19u) << int{mesh};
    EXPECT_EQ(tileTransferOf(op(mesh), packet)->memory, isa::TileMemory::Narrow);
    EXPECT_EQ(tilePacketCycles(t, op(mesh), packet), Cycles{10 + 4 * 64 * 19 / 64});
  }
}

// Tile DMA packets whose size is decoded (models/isa/tile_transfer_loops.def) pay their bytes over
// their memory's bandwidth; positions written out by hand from docs/decoding-log.md.
TEST(TimingCostModel, TileDmaPacketsCostTheirDecodedBytes) {
  TimingModel t;
  t.tileDmaPacketCycles = 10;
  t.narrowBytesPerCycle = 64;
  t.wideBytesPerCycle = 256;
  // 0x13 read: group loop limit 67 at w0 bit 95 (272 bytes, the identity read), a second level at
  // w2 bit 114 (limit 1: read twice) that counts only with w3 bit 101.
  std::vector<isa::Word128> read13(7);
  isa::writePacketBits(read13, 95, 16, 67);
  isa::writePacketBits(read13, 2 * 128 + 114, 16, 1);
  EXPECT_EQ(tileTransferOf(op(0x13), read13)->bytes, 272u);
  EXPECT_EQ(tilePacketCycles(t, op(0x13), read13), Cycles{10 + 5});  // ceil(272 / 64)
  isa::writePacketBits(read13, 3 * 128 + 101, 1, 1);
  EXPECT_EQ(tileTransferOf(op(0x13), read13)->bytes, 544u);
  // Level 1 of the group loop (w1 bit 0 = packet bit 128, 33 bits above level 0): 68 x 3 groups.
  isa::writePacketBits(read13, 128, 16, 2);
  EXPECT_EQ(tileTransferOf(op(0x13), read13)->bytes, 4u * 68u * 3u * 2u);
  // 0x14 write: levels at w2 bits 44 and 77: (31 + 1) x (1 + 1) x 4 bytes.
  std::vector<isa::Word128> write14(7);
  isa::writePacketBits(write14, 2 * 128 + 44, 16, 31);
  isa::writePacketBits(write14, 2 * 128 + 77, 16, 1);
  EXPECT_EQ(tileTransferOf(op(0x14), write14)->bytes, 256u);
  EXPECT_EQ(tileTransferOf(op(0x14), write14)->memory, isa::TileMemory::Narrow);
  EXPECT_EQ(tilePacketCycles(t, op(0x14), write14), Cycles{10 + 4});
  // 0x11 receive of 40 rows into wide memory, only in the parameter form (w2 bit 122 clear).
  std::vector<isa::Word128> receive11(4);
  isa::writePacketBits(receive11, 95, 16, 39);
  isa::writePacketBits(receive11, 2 * 128 + 122, 1, 1);  // the execution-only form: no decoded size
  EXPECT_FALSE(tileTransferOf(op(0x11), receive11).has_value());
  EXPECT_EQ(tilePacketCycles(t, op(0x11), receive11), Cycles{10});
  isa::writePacketBits(receive11, 2 * 128 + 122, 1, 0);
  EXPECT_EQ(tileTransferOf(op(0x11), receive11)->bytes, 40u * 256u);
  EXPECT_EQ(tileTransferOf(op(0x11), receive11)->memory, isa::TileMemory::Wide);
  EXPECT_EQ(tilePacketCycles(t, op(0x11), receive11), Cycles{10 + 40});
  // 0x17: the immediate form (w5 bit 87) writes (limit + 1) units of 4 bytes per level (w2 bit 44,
  // pitch 33); the other form has no decoded size.
  std::vector<isa::Word128> fill17(6);
  isa::writePacketBits(fill17, 2 * 128 + 44 + 33, 16, 63);  // level 1: 64 units
  EXPECT_FALSE(tileTransferOf(op(0x17), fill17).has_value());
  isa::writePacketBits(fill17, 5 * 128 + 87, 1, 1);
  EXPECT_EQ(tileTransferOf(op(0x17), fill17)->bytes, 256u);
  // Not a DMA packet, or an undecoded one: no size.
  EXPECT_FALSE(tileTransferOf(op(0x01), read13).has_value());
  EXPECT_FALSE(tileTransferOf(op(0x12), read13).has_value());
  // All limits at their maximum: the size saturates instead of wrapping round to a small one.
  std::vector<isa::Word128> huge(7, isa::Word128{~0ull, ~0ull});
  EXPECT_GT(tileTransferOf(op(0x13), huge)->bytes, uint64_t{1} << 60);
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
  EXPECT_EQ(t.narrowBytesPerCycle, 12345u);
  EXPECT_EQ(t.wideBytesPerCycle, 12345u);
  EXPECT_EQ(t.ringBytesPerCycle, 12345u);
}

}  // namespace
}  // namespace coralsim::models::timing_cost_model_test
