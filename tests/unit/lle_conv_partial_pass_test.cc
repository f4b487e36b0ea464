// A convolution whose position leaves a partial pass of lane groups (models/lle/conv_compute.h unitsOfOutput,
// docs/decoding-log.md "dec16"): a 1 x 1 convolution of 2 K groups over 3 positions, 16 lanes a pass (N = 4 units)
// and 24 channels a position (ComputeOut37Step 3: a position of N - 1 + 3 = 6 units, k = 2 beyond one whole pass),
// the two passes counted at Output37 level 1, N units apart, each taking the next block of a 0x12 stream laid one
// block after another (bias, then the block's K groups). No corpus compute has these sizes (the corpus's are 16 units,
// step 9). The expected bytes are written here from the layout, not from the kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/addressed_memory.h"
#include "models/lle/conv_compute.h"
#include "models/lle/lle_fields.h"
#include "models/lle/output_partial_pass.h"

namespace coralsim::lle::lle_conv_partial_pass_test {
namespace {

constexpr unsigned kPositions = 3;
constexpr unsigned kGroups = 2;       // K groups of 4 input bytes
constexpr unsigned kUnits = 4;        // N: lane groups a pass
constexpr unsigned kLanes = 4 * kUnits;
constexpr uint64_t kStep = 3;         // ComputeOut37Step: a position of N - 1 + 3 = 6 units
constexpr unsigned kPositionUnits = kUnits - 1 + kStep;
constexpr unsigned kPartial = kPositionUnits - kUnits;  // k = 2
constexpr unsigned kBlocks = 2;       // passes = the stream's blocks
constexpr int64_t kInputAt4 = 9;
constexpr uint64_t kOutputAt = 400;   // bytes: unit 100
constexpr int32_t kZpIn = 5, kZpWeight = 120, kZpOut = 9;
constexpr float kMult = 0.002f;

struct Packet {
  std::vector<isa::Word128> words = std::vector<isa::Word128>(17);
  void field(LleField f, uint64_t v) { isa::writePacketBits(words, fieldDef(f).lsb, fieldDef(f).width, v); }
  void slot(isa::ComputeNest nest, unsigned level, uint64_t limit, int64_t carry) {
    const isa::ComputeNestDef& def = isa::computeNestDef(nest);
    isa::writePacketBits(words, def.limitLsb(level), def.limitWidth, limit);
    isa::writePacketBits(words, def.wrapLsb(level), def.wrapWidth, static_cast<uint64_t>(carry) & ((uint64_t{1} << def.wrapWidth) - 1));
  }
};

Packet partialPassPacket() {
  Packet p;
  using N = isa::ComputeNest;
  p.slot(N::Nest37, 0, kGroups - 1, 1);                                     // K groups; level 1 runs once
  p.slot(N::Nest37, 1, 0, 1);                                               // -> positions kGroups units apart
  p.slot(N::Nest37, 2, kPositions - 1, -1 - static_cast<int64_t>(kGroups * (kPositions - 1)));  // -> passes re-read
  p.slot(N::Nest37, 3, kBlocks - 1, 0);
  p.slot(N::Nest29, 0, kGroups - 1, -1);                                    // -> every position the same groups
  p.slot(N::Nest29, 1, kPositions - 1, -1);                                 // -> every pass the same place (the next block)
  p.slot(N::Nest29, 2, kBlocks - 1, 0);
  // Output37: positions kPositionUnits apart, then the pass N units on from the first position's start.
  p.slot(N::Output37, 0, kPositions - 1, static_cast<int64_t>(kUnits) - static_cast<int64_t>(kUnits - 1) -
                                             static_cast<int64_t>((kPositions - 1) * kPositionUnits));
  p.slot(N::Output37, 1, kBlocks - 1, 0);
  p.field(LleField::ComputeOut37Step, kStep);
  p.field(LleField::ComputeLaneGroups, kUnits - 1);
  p.field(LleField::ComputeInputAt4, kInputAt4);
  p.field(LleField::ComputeOutputAt, kOutputAt);
  p.field(LleField::ComputeParamPrefix, 1);  // a bias array a block
  p.field(LleField::ComputeZpIn, kZpIn);
  p.field(LleField::ComputeZpWeight, kZpWeight);
  p.field(LleField::ComputeZpOut, kZpOut);
  p.field(LleField::ComputeMult, std::bit_cast<uint32_t>(kMult));
  p.field(LleField::ComputeClampLo, std::bit_cast<uint32_t>(-20.0f));
  p.field(LleField::ComputeClampHi, std::bit_cast<uint32_t>(240.0f));
  // The codes the nest calls for: k - 1, the highest counting level + 1, (N - k) / 2.
  const OutputPartialPassCodes codes = expectedOutputPartialPassCodes(p.words);
  p.field(LleField::ComputeOutPartialUnits, codes.partialUnits);
  p.field(LleField::ComputeOutLevelsWalked, codes.levelsWalked);
  p.field(LleField::ComputeOutPartialRestPairs, codes.partialRestPairs);
  return p;
}

uint8_t lcg(uint32_t& s) {
  s = 1664525u * s + 1013904223u;
  return static_cast<uint8_t>(s >> 24);
}

TEST(LleConvPartialPass, TheLastPassWritesOnlyThePositionsUnitsBeyondItsWholePasses) {
  const Packet p = partialPassPacket();
  const OutputPartialPassCodes codes = expectedOutputPartialPassCodes(p.words);
  ASSERT_EQ(codes, (OutputPartialPassCodes{kPartial - 1, 2, (kUnits - kPartial) / 2}));
  ConvCompute conv = ConvCompute::fromPacket(p.words);
  conv.streamBlocks = kBlocks;
  ASSERT_EQ(conv.unsupported(), "");
  ASSERT_EQ(conv.blocks(), kBlocks);
  ASSERT_EQ(conv.reduction(), kGroups);
  EXPECT_EQ(conv.unitsOfOutput(0), kUnits);
  EXPECT_EQ(conv.unitsOfOutput(kPositions - 1), kUnits);
  EXPECT_EQ(conv.unitsOfOutput(kPositions), kPartial);
  EXPECT_EQ(conv.unitsOfOutput(2 * kPositions - 1), kPartial);

  uint32_t s = 777;
  std::vector<uint8_t> input(4 * kGroups * kPositions);
  for (uint8_t& b : input) b = lcg(s);
  // Block b: its bias array (4 x lanes bytes), then its K groups (4 x lanes bytes each, lane c's byte i at 4 c + i).
  std::array<std::array<int32_t, kLanes>, kBlocks> bias{};
  std::vector<uint8_t> wide;
  std::vector<std::vector<uint8_t>> groups(kBlocks);
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned c = 0; c < kLanes; ++c) {
      bias[b][c] = 450 * static_cast<int32_t>(c) - 2600 * static_cast<int32_t>(b) - 900;
      uint8_t v[4];
      std::memcpy(v, &bias[b][c], 4);
      wide.insert(wide.end(), v, v + 4);
    }
    groups[b].resize(4 * kLanes * kGroups);
    for (uint8_t& w : groups[b]) w = lcg(s);
    wide.insert(wide.end(), groups[b].begin(), groups[b].end());
  }
  const auto expected = [&](unsigned position, unsigned channel) {
    const unsigned b = channel / kLanes, c = channel % kLanes;
    int64_t acc = bias[b][c];
    for (unsigned g = 0; g < kGroups; ++g) {
      for (unsigned i = 0; i < 4; ++i) {
        acc += (int32_t{input[4 * (kGroups * position + g) + i]} - kZpIn) * (int32_t{groups[b][4 * kLanes * g + 4 * c + i]} - kZpWeight);
      }
    }
    const float v = std::clamp(static_cast<float>(acc) * kMult, -20.0f, 240.0f);
    return static_cast<uint8_t>(std::clamp(std::nearbyint(v) + static_cast<float>(kZpOut), 0.0f, 255.0f));
  };
  AddressedMemory narrow{4096};
  ASSERT_TRUE(narrow.write(4 * kInputAt4, input));
  uint64_t macs = 0;
  ASSERT_EQ(runConvCompute(conv, narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "");
  // Every position holds its 24 channels: the first pass's 16 at units 0-3 (not overwritten by the pass before it),
  // the last pass's 8 at units 4-5.
  const auto out = narrow.read(kOutputAt, 4 * kPositionUnits * kPositions);
  for (unsigned q = 0; q < kPositions; ++q) {
    for (unsigned ch = 0; ch < 4 * kPositionUnits; ++ch) {
      EXPECT_EQ(int{out[4 * kPositionUnits * q + ch]}, int{expected(q, ch)}) << "position " << q << " channel " << ch;
    }
  }
  EXPECT_GT(std::set<uint8_t>(out.begin(), out.end()).size(), 20u);
  // Nothing past the last position: its last pass stopped after k units.
  EXPECT_EQ(narrow.firstUnwritten(kOutputAt + 4 * kPositionUnits * kPositions, 4 * (kUnits - kPartial)),
            std::optional<uint64_t>(kOutputAt + 4 * kPositionUnits * kPositions));
}

TEST(LleConvPartialPass, APacketWithoutTheCodesWritesWholePasses) {
  Packet p = partialPassPacket();
  p.field(LleField::ComputeOutPartialUnits, 0);
  p.field(LleField::ComputeOutLevelsWalked, 0);
  p.field(LleField::ComputeOutPartialRestPairs, 0);
  const ConvCompute conv = ConvCompute::fromPacket(p.words);
  for (uint64_t o = 0; o < conv.outputs(); ++o) EXPECT_EQ(conv.unitsOfOutput(o), kUnits) << "output " << o;
}

TEST(LleConvPartialPass, AStreamsBlocksOverOneKPassAreTheBlocksOnlyWhereTheWeightNestCountsThem) {
  const Packet p = partialPassPacket();
  ConvCompute one = ConvCompute::fromPacket(p.words);
  EXPECT_EQ(one.blocks(), 1u);  // no stream blocks named: one block (the rung then refuses the stream's count)
  ConvCompute three = ConvCompute::fromPacket(p.words);
  three.streamBlocks = 3;  // the weight nest counts 2 above the positions
  EXPECT_EQ(three.blocks(), 1u);
}

}  // namespace
}  // namespace coralsim::lle::lle_conv_partial_pass_test
