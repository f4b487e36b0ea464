// The convolution compute (models/lle/conv_compute.h, docs/decoding-log.md "convmac") on synthetic
// packets: a 2 x 3 kernel (no corpus convolution is non-square) over a 7-wide grid at an input
// address no corpus compute has, every prefix kind, weights that differ per lane and per input byte
// (so a transposed group or a misplaced prefix changes the result), checked against a direct
// convolution written here from the layout, not from the kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/addressed_memory.h"
#include "models/lle/conv_compute.h"
#include "models/lle/stream_block_layout.h"
#include "models/lle/conv_undefined_outputs.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle::lle_conv_compute_test {
namespace {

constexpr unsigned kKh = 2, kKw = 3;         // kernel rows, columns
constexpr unsigned kOutW = 3, kOutH = 2;     // output positions per row, rows
constexpr int64_t kG = 7;                    // grid width (units)
constexpr int64_t kInputAt4 = 5;             // ComputeInputAt4: the grid starts at unit 5
constexpr uint64_t kOutputAt = 1000;         // ComputeOutputAt (bytes)
constexpr unsigned kLanes = 4;
constexpr unsigned kTaps = kKh * kKw;
constexpr unsigned kOutputs = kOutW * kOutH;

struct Packet {
  std::vector<isa::Word128> words = std::vector<isa::Word128>(17);
  void field(LleField f, uint64_t v) { isa::writePacketBits(words, fieldDef(f).lsb, fieldDef(f).width, v); }
  void f32(LleField f, float v) { field(f, std::bit_cast<uint32_t>(v)); }
  void slot(isa::ComputeNest nest, unsigned level, uint64_t limit, int64_t carry) {
    const isa::ComputeNestDef& def = isa::computeNestDef(nest);
    isa::writePacketBits(words, def.limitLsb(level), def.limitWidth, limit);
    isa::writePacketBits(words, def.wrapLsb(level), def.wrapWidth, static_cast<uint64_t>(carry) & ((uint64_t{1} << def.wrapWidth) - 1));
  }
};

struct Epilogue {
  int32_t zpIn = 3, zpOut = 11;
  int32_t zpWeight = 77;  // used where the prefix has no per-lane offset (bit 1 clear)
  float mult = 0.0003f, lo = -10.0f, hi = 200.0f;
};

// The convolution packet: Nest37 tap column, tap row, (a level that runs once), position column,
// position row, with carries from the strides 1, G, 1, G; Nest29 the taps then back to tap 0 for
// every position; Output37 the outputs one after the other.
Packet convPacket(unsigned prefix, const Epilogue& e) {
  Packet p;
  using N = isa::ComputeNest;
  p.slot(N::Nest37, 0, kKw - 1, kG - (kKw - 1));                                     // -> stride G
  p.slot(N::Nest37, 1, kKh - 1, 1 - ((kKw - 1) + (kKh - 1) * kG));                    // level 2 runs once
  p.slot(N::Nest37, 2, 0, 1 - ((kKw - 1) + (kKh - 1) * kG));                          // -> stride 1
  p.slot(N::Nest37, 3, kOutW - 1, kG - ((kKw - 1) + (kKh - 1) * kG + (kOutW - 1)));   // -> stride G
  p.slot(N::Nest37, 4, kOutH - 1, -999);                                              // never applied
  p.slot(N::Nest29, 0, kTaps - 1, -static_cast<int64_t>(kTaps - 1));                   // -> stride 0
  p.slot(N::Nest29, 1, kOutputs - 1, 77);
  p.slot(N::Output37, 0, kOutputs - 1, -3);
  p.field(LleField::ComputeOut37Step, 1);  // the outputs side by side (every corpus convolution)
  p.field(LleField::ComputeInputAt4, kInputAt4);
  p.field(LleField::ComputeOutputAt, kOutputAt);
  p.field(LleField::ComputeLaneGroups, kLanes / 4 - 1);
  p.field(LleField::ComputeParamPrefix, prefix);
  p.field(LleField::ComputeZpIn, static_cast<uint64_t>(e.zpIn));
  if (!(prefix & 2)) p.field(LleField::ComputeZpWeight, static_cast<uint64_t>(e.zpWeight));
  p.field(LleField::ComputeZpOut, static_cast<uint64_t>(e.zpOut));
  p.f32(LleField::ComputeMult, e.mult);
  p.f32(LleField::ComputeClampLo, e.lo);
  p.f32(LleField::ComputeClampHi, e.hi);
  return p;
}

uint8_t lcg(uint32_t& s) {
  s = 1664525u * s + 1013904223u;
  return static_cast<uint8_t>(s >> 24);
}

// One prefix array as a parameter stream holds it: a 4-byte little-endian value a lane.
template <typename Lanes>
void appendLanes(std::vector<uint8_t>& out, const Lanes& values) {
  for (const auto v : values) {
    static_assert(sizeof(v) == 4);
    uint8_t b[4];
    std::memcpy(b, &v, 4);
    out.insert(out.end(), b, b + 4);
  }
}

// One output block's parameters in a parameter stream's order: the scale, bias and weight-offset arrays, then its groups.
template <typename Scales, typename Biases, typename Offsets>
void appendBlockParameters(std::vector<uint8_t>& wide, const Scales& scale, const Biases& bias, const Offsets& offset,
                           const std::vector<uint8_t>& weights) {
  appendLanes(wide, scale);
  appendLanes(wide, bias);
  appendLanes(wide, offset);
  wide.insert(wide.end(), weights.begin(), weights.end());
}

// How a test draws its blocks' requantisation: block b's lane c gets scale unit x (scaleFrom + c + scaleBlockStep b),
// bias biasLaneStep c - biasBlockStep b and weight offset offsetFrom + offsetLaneStep c + offsetBlockStep b, so every
// lane and block differs and a block or lane read in the wrong place shows.
struct BlockRecipe {
  float scaleUnit;
  int scaleFrom;
  int scaleBlockStep;
  int32_t biasLaneStep;
  int32_t biasBlockStep;
  uint32_t offsetFrom;
  uint32_t offsetLaneStep;
  uint32_t offsetBlockStep;
};

template <size_t Lanes, size_t Blocks>
struct DrawnBlocks {
  std::array<std::array<float, Lanes>, Blocks> scale{};
  std::array<std::array<int32_t, Lanes>, Blocks> bias{};
  std::array<std::array<uint32_t, Lanes>, Blocks> offset{};
  std::array<std::vector<uint8_t>, Blocks> weights;
};

// `Blocks` output blocks appended to `wide` one after another, each its parameters then `weightBytes` weights drawn from `s`.
template <size_t Lanes, size_t Blocks>
DrawnBlocks<Lanes, Blocks> appendDrawnBlocks(std::vector<uint8_t>& wide, uint32_t& s, size_t weightBytes, const BlockRecipe& r) {
  DrawnBlocks<Lanes, Blocks> d;
  for (unsigned b = 0; b < Blocks; ++b) {
    for (unsigned c = 0; c < Lanes; ++c) {
      d.scale[b][c] = r.scaleUnit * static_cast<float>(r.scaleFrom + static_cast<int>(c) + r.scaleBlockStep * static_cast<int>(b));
      d.bias[b][c] = r.biasLaneStep * static_cast<int32_t>(c) - r.biasBlockStep * static_cast<int32_t>(b);
      d.offset[b][c] = r.offsetFrom + r.offsetLaneStep * c + r.offsetBlockStep * b;
    }
    d.weights[b].resize(weightBytes);
    for (uint8_t& w : d.weights[b]) w = lcg(s);
    appendBlockParameters(wide, d.scale[b], d.bias[b], d.offset[b], d.weights[b]);
  }
  return d;
}

// The expected byte of lane `c` at output (y, x) of a reduction split around the positions, as the tests below
// lay it out: `groups` K groups, each a plane of `plane` grid units whose kKh x kKw window from (y, x) meets that
// group's taps in `weights` (4 x `lanes` bytes a tap), then the lane's scale and the epilogue.
uint8_t splitReductionReference(std::span<const uint8_t> grid, std::span<const uint8_t> weights, unsigned groups, unsigned lanes,
                                int64_t plane, int32_t bias, uint32_t offset, float scale, const Epilogue& e, unsigned y, unsigned x,
                                unsigned c) {
  int64_t acc = bias;
  for (unsigned g = 0; g < groups; ++g) {
    for (unsigned ky = 0; ky < kKh; ++ky) {
      for (unsigned kx = 0; kx < kKw; ++kx) {
        const int64_t unit = g * plane + (y + ky) * kG + x + kx;
        const unsigned group = g * kTaps + ky * kKw + kx;
        for (unsigned i = 0; i < 4; ++i) {
          acc += (int32_t{grid[4 * unit + i]} - e.zpIn) * (int32_t{weights[group * 4 * lanes + 4 * c + i]} - static_cast<int32_t>(offset));
        }
      }
    }
  }
  const float v = std::clamp(static_cast<float>(acc) * scale * e.mult, e.lo, e.hi);
  return static_cast<uint8_t>(std::clamp(std::nearbyint(v) + static_cast<float>(e.zpOut), 0.0f, 255.0f));
}

struct Fixture {
  std::array<float, kLanes> scale{0.5f, 0.25f, 1.0f, 2.0f};
  std::array<int32_t, kLanes> bias{-700, 1000, 0, 30};
  std::array<uint32_t, kLanes> offset{128, 100, 131, 7};  // per lane, unlike any corpus blob
  std::vector<uint8_t> grid;     // kG x (kOutH + kKh - 1) units of 4 bytes
  std::vector<uint8_t> weights;  // kTaps groups of 4 x lanes bytes: (lane c, byte i) at 4c + i
  AddressedMemory narrow{4096};

  Fixture() {
    uint32_t s = 12345;
    grid.resize(4 * kG * (kOutH + kKh - 1));
    for (uint8_t& b : grid) b = lcg(s);
    weights.resize(kTaps * 4 * kLanes);
    for (uint8_t& b : weights) b = lcg(s);
    EXPECT_TRUE(narrow.write(4 * kInputAt4, grid));
  }

  // The parameter bytes of a prefix kind: its arrays (4 x lanes bytes each), then the weights.
  std::vector<uint8_t> wide(unsigned prefix) const {
    std::vector<uint8_t> out;
    if (prefix & 2) appendLanes(out, scale);
    if (prefix & 1) appendLanes(out, bias);
    if (prefix & 2) appendLanes(out, offset);
    out.insert(out.end(), weights.begin(), weights.end());
    return out;
  }

  // The convolution written from the layout: output (y, x) lane c.
  uint8_t expected(unsigned prefix, const Epilogue& e, unsigned y, unsigned x, unsigned c) const {
    int64_t acc = (prefix & 1) ? bias[c] : 0;
    const int32_t off = (prefix & 2) ? static_cast<int32_t>(offset[c]) : e.zpWeight;
    for (unsigned ky = 0; ky < kKh; ++ky) {
      for (unsigned kx = 0; kx < kKw; ++kx) {
        const unsigned unit = (y + ky) * kG + x + kx;
        const unsigned tap = ky * kKw + kx;
        for (unsigned i = 0; i < 4; ++i) {
          acc += (int32_t{grid[4 * unit + i]} - e.zpIn) * (int32_t{weights[tap * 4 * kLanes + 4 * c + i]} - off);
        }
      }
    }
    const float s = (prefix & 2) ? scale[c] : 1.0f;
    const float v = std::clamp(static_cast<float>(acc) * s * e.mult, e.lo, e.hi);
    return static_cast<uint8_t>(std::clamp(std::nearbyint(v) + static_cast<float>(e.zpOut), 0.0f, 255.0f));
  }
};

TEST(LleConvCompute, TheThreeNestsWalkTapsGridAndOutputsTogetherForEveryPrefixKind) {
  const Epilogue e;
  for (unsigned prefix = 0; prefix < 4; ++prefix) {
    Fixture f;
    const ConvCompute conv = ConvCompute::fromPacket(convPacket(prefix, e).words);
    EXPECT_EQ(conv.unsupported(), "");
    EXPECT_EQ(conv.reduction(), kTaps);
    EXPECT_EQ(conv.outputs(), kOutputs);
    const std::vector<uint8_t> wide = f.wide(prefix);
    uint64_t macs = 0;
    ASSERT_EQ(runConvCompute(conv, f.narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "") << "prefix " << prefix;
    EXPECT_EQ(macs, uint64_t{kOutputs} * kTaps * kLanes * 4);
    ASSERT_FALSE(f.narrow.firstUnwritten(kOutputAt, 4 * kOutputs).has_value());
    const auto out = f.narrow.read(kOutputAt, 4 * kOutputs);
    unsigned differing = 0;
    for (unsigned y = 0; y < kOutH; ++y) {
      for (unsigned x = 0; x < kOutW; ++x) {
        for (unsigned c = 0; c < kLanes; ++c) {
          const uint8_t want = f.expected(prefix, e, y, x, c);
          const uint8_t got = out[4 * (y * kOutW + x) + c];
          differing += got != want;
          EXPECT_EQ(int{got}, int{want}) << "prefix " << prefix << " output (" << y << ", " << x << ") lane " << c;
        }
      }
    }
    EXPECT_EQ(differing, 0u);
    // The results span more than the clamps' ends: the check is not of constants.
    EXPECT_GT(std::set<uint8_t>(out.begin(), out.end()).size(), 6u) << "prefix " << prefix;
  }
}

// Taps that are not whole inner levels of the input nest: 6 taps an output, the input walked 4 units
// of a row, 3 rows, then 3 column shifts (4 x 3 = 12 iterations, two outputs per pass of the inner levels,
// no corpus convolution walks so). The kernel cannot reuse one tap pattern for every output and steps
// its odometer instead; the sums must still follow the walk. The reference walks the units here, from
// the strides the carries make (1, G, 1), not from the kernel's nest code.
// The same walk with per-lane weight offsets far from any corpus value (near INT32_MIN / INT32_MAX): the
// accumulator is 32 bits and wraps, so the reference sums modulo 2^32 (the odometer path's signed
// products used to overflow on such offsets: undefined behaviour, which UBSan builds report).
void expectTapRunFollowsTheWalk(const std::array<uint32_t, kLanes>& offsets, size_t minDistinct) {
  const Epilogue e;
  constexpr unsigned kPrefix = 3;
  constexpr unsigned kRowUnits = 4, kRows = 3, kShifts = 3, kTapsEach = 6;
  constexpr unsigned kIterations = kRowUnits * kRows * kShifts, kOuts = kIterations / kTapsEach;
  Fixture f;
  f.offset = offsets;
  Packet p = convPacket(kPrefix, e);
  using N = isa::ComputeNest;
  p.slot(N::Nest37, 0, kRowUnits - 1, kG - (kRowUnits - 1));                           // -> stride G
  p.slot(N::Nest37, 1, kRows - 1, 1 - ((kRowUnits - 1) + (kRows - 1) * kG));          // -> stride 1
  p.slot(N::Nest37, 2, kShifts - 1, 0);
  p.slot(N::Nest37, 3, 0, 0);
  p.slot(N::Nest37, 4, 0, 0);
  p.slot(N::Nest29, 0, kTapsEach - 1, -static_cast<int64_t>(kTapsEach - 1));          // -> stride 0
  p.slot(N::Nest29, 1, kOuts - 1, 77);
  p.slot(N::Output37, 0, kOuts - 1, -3);
  const ConvCompute conv = ConvCompute::fromPacket(p.words);
  ASSERT_EQ(conv.unsupported(), "");
  ASSERT_EQ(conv.reduction(), kTapsEach);
  uint64_t macs = 0;
  ASSERT_EQ(runConvCompute(conv, f.narrow, f.wide(kPrefix), models::RequantRounding::kFp32HalfEven, macs), "");
  const auto out = f.narrow.read(kOutputAt, 4 * kOuts);
  std::set<uint8_t> distinct;
  for (unsigned o = 0; o < kOuts; ++o) {
    for (unsigned c = 0; c < kLanes; ++c) {
      auto acc = static_cast<uint32_t>(f.bias[c]);
      for (unsigned r = 0; r < kTapsEach; ++r) {
        const unsigned n = o * kTapsEach + r;
        const unsigned unit = n % kRowUnits + (n / kRowUnits) % kRows * kG + n / (kRowUnits * kRows);
        for (unsigned i = 0; i < 4; ++i) {
          acc += (uint32_t{f.grid[4 * unit + i]} - static_cast<uint32_t>(e.zpIn)) *
                 (uint32_t{f.weights[r * 4 * kLanes + 4 * c + i]} - f.offset[c]);
        }
      }
      const float v = std::clamp(static_cast<float>(static_cast<int32_t>(acc)) * f.scale[c] * e.mult, e.lo, e.hi);
      const auto want = static_cast<uint8_t>(std::clamp(std::nearbyint(v) + static_cast<float>(e.zpOut), 0.0f, 255.0f));
      EXPECT_EQ(int{out[4 * o + c]}, int{want}) << "output " << o << " lane " << c << ", offset " << f.offset[c];
      distinct.insert(out[4 * o + c]);
    }
  }
  EXPECT_GT(distinct.size(), minDistinct);
}

TEST(LleConvCompute, ATapRunThatSplitsAnInputLevelStillFollowsTheWalk) {
  expectTapRunFollowsTheWalk(Fixture{}.offset, 6);
  expectTapRunFollowsTheWalk({0x80000000u, 0x7fffffffu, 0xffffff00u, 0x80000001u}, 2);  // outputs mostly clamped
}

// A reduction split around the positions (docs/decoding-log.md "ring88"; RingCanary's 32- / 64-channel
// convolutions): the 2 x 3 taps, then the positions, then 3 K groups outermost, each group's input a
// plane of its own (Nest37 level 5) and its weights the next 6 groups of the stream while the weight
// nest returns to its first unit (Nest29 levels 1 and 2 of stride 0). 8 lanes (two lane groups a
// position, side by side) and 3 groups: no corpus convolution has either. The reference sums every
// group's plane against its own window, written from the layout here.
TEST(LleConvCompute, AReductionSplitAroundThePositionsSumsEveryKGroupIntoItsPosition) {
  const Epilogue e;
  constexpr unsigned kGroups = 3, kWideLanes = 8, kPrefix = 3;
  constexpr int64_t kPlane = kG * (kOutH + kKh - 1);  // units of one K group's grid
  Packet p = convPacket(kPrefix, e);
  using N = isa::ComputeNest;
  const int64_t walked = (kKw - 1) + (kKh - 1) * kG + (kOutW - 1) + (kOutH - 1) * kG;
  p.slot(N::Nest37, 4, kOutH - 1, kPlane - walked);  // -> level 5 steps one plane
  p.slot(N::Nest37, 5, kGroups - 1, 0);
  p.slot(N::Nest29, 1, kOutputs - 1, -static_cast<int64_t>(kTaps - 1));  // -> level 2 stride 0: back to the window
  p.slot(N::Nest29, 2, kGroups - 1, 0);
  p.field(LleField::ComputeLaneGroups, kWideLanes / 4 - 1);
  const ConvCompute conv = ConvCompute::fromPacket(p.words);
  ASSERT_EQ(conv.unsupported(), "");
  ASSERT_EQ(conv.reduction(), kTaps * kGroups);
  uint32_t s = 4242;
  std::vector<uint8_t> grid(4 * kPlane * kGroups), weights(kGroups * kTaps * 4 * kWideLanes);
  for (uint8_t& b : grid) b = lcg(s);
  for (uint8_t& b : weights) b = lcg(s);
  std::array<float, kWideLanes> scale{};
  std::array<int32_t, kWideLanes> bias{};
  std::array<uint32_t, kWideLanes> offset{};
  for (unsigned c = 0; c < kWideLanes; ++c) {
    scale[c] = 0.125f * static_cast<float>(c + 1);
    bias[c] = 300 * static_cast<int32_t>(c) - 1000;
    offset[c] = 90 + 9 * c;
  }
  std::vector<uint8_t> wide;
  appendBlockParameters(wide, scale, bias, offset, weights);
  AddressedMemory narrow{8192};
  ASSERT_TRUE(narrow.write(4 * kInputAt4, grid));
  uint64_t macs = 0;
  ASSERT_EQ(runConvCompute(conv, narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "");
  EXPECT_EQ(macs, uint64_t{kOutputs} * kTaps * kGroups * kWideLanes * 4);
  const auto out = narrow.read(kOutputAt, 4 * kOutputs * kWideLanes / 4);
  std::set<uint8_t> distinct;
  for (unsigned y = 0; y < kOutH; ++y) {
    for (unsigned x = 0; x < kOutW; ++x) {
      for (unsigned c = 0; c < kWideLanes; ++c) {
        const uint8_t want = splitReductionReference(grid, weights, kGroups, kWideLanes, kPlane, bias[c], offset[c], scale[c], e, y, x, c);
        const uint8_t got = out[kWideLanes * (y * kOutW + x) + c];
        EXPECT_EQ(int{got}, int{want}) << "output (" << y << ", " << x << ") lane " << c;
        distinct.insert(got);
      }
    }
  }
  EXPECT_GT(distinct.size(), 8u);
  // A pass that moves the weight nest (level 2 of stride 9, not 0) is not the stream reading: refused.
  Packet moving = p;
  moving.slot(N::Nest29, 1, kOutputs - 1, 9 - static_cast<int64_t>(kTaps - 1));
  EXPECT_NE(ConvCompute::fromPacket(moving.words).unsupported().find("accumulation across outer loops"), std::string::npos)
      << ConvCompute::fromPacket(moving.words).unsupported();
}

// Output blocks of a split reduction (docs/decoding-log.md "ring128" §C: RingCanary's two 64-lane halves of
// 128 channels) and the wide positions' lane-group walk (§B): the "ring88" convolution (2 x 3 taps, 6 positions,
// 3 K groups) run for 3 blocks (Nest37 level 6 and Nest29 level 3 of stride 0: the same input, the stream's
// next block), 8 lanes. Each block's prefix (scale, bias, offset) opens its part of the stream, then its 3 x 6
// weight groups. The output nest counts the positions (step 5: with the second lane group, 6 units a
// position) and the blocks (carry -29 from the last lane group of the last position: 2 units a block), so the
// three blocks of a position lie side by side -- no corpus compute has 3 blocks, 8 lanes, step 5 or these
// carries. The reference is written from that layout.
TEST(LleConvCompute, ASplitReductionsOutputBlocksTakeTheStreamsNextPrefixAndWindowsAndThePositionsWalkTheirLaneGroups) {
  const Epilogue e;
  constexpr unsigned kGroups = 3, kBlocks = 3, kWideLanes = 8, kPrefix = 3, kLaneGroups = kWideLanes / 4;
  constexpr int64_t kPlane = kG * (kOutH + kKh - 1);
  constexpr int64_t kPositionUnits = kBlocks * kLaneGroups;  // 6: the blocks of a position side by side
  Packet p = convPacket(kPrefix, e);
  using N = isa::ComputeNest;
  const int64_t walked = (kKw - 1) + (kKh - 1) * kG + (kOutW - 1) + (kOutH - 1) * kG;
  p.slot(N::Nest37, 4, kOutH - 1, kPlane - walked);                                          // -> level 5 steps one plane
  p.slot(N::Nest37, 5, kGroups - 1, -(walked + (kGroups - 1) * kPlane));                     // -> level 6 stride 0
  p.slot(N::Nest37, 6, kBlocks - 1, 0);
  p.slot(N::Nest29, 1, kOutputs - 1, -static_cast<int64_t>(kTaps - 1));                      // -> level 2 stride 0
  p.slot(N::Nest29, 2, kGroups - 1, -static_cast<int64_t>(kTaps - 1));                       // -> level 3 stride 0
  p.slot(N::Nest29, 3, kBlocks - 1, 0);
  p.slot(N::Output37, 0, kOutputs - 1, 2 - (kLaneGroups - 1) - (kOutputs - 1) * kPositionUnits);  // -29
  p.slot(N::Output37, 1, kBlocks - 1, 0);
  p.field(LleField::ComputeOut37Step, kPositionUnits - (kLaneGroups - 1));                   // 5
  p.field(LleField::ComputeLaneGroups, kLaneGroups - 1);
  const ConvCompute conv = ConvCompute::fromPacket(p.words);
  ASSERT_EQ(conv.unsupported(), "");
  ASSERT_EQ(conv.reduction(), kTaps * kGroups);
  ASSERT_EQ(conv.blocks(), kBlocks);
  uint32_t s = 977;
  std::vector<uint8_t> grid(4 * kPlane * kGroups);
  for (uint8_t& b : grid) b = lcg(s);
  std::vector<uint8_t> wide;
  const auto [scale, bias, offset, weights] =
      appendDrawnBlocks<kWideLanes, kBlocks>(wide, s, kGroups * kTaps * 4 * kWideLanes, {0.0625f, 1, 3, 250, 900, 60, 11, 17});
  AddressedMemory narrow{8192};
  ASSERT_TRUE(narrow.write(4 * kInputAt4, grid));
  uint64_t macs = 0;
  ASSERT_EQ(runConvCompute(conv, narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "");
  EXPECT_EQ(macs, uint64_t{kOutputs} * kBlocks * kTaps * kGroups * kWideLanes * 4);
  const auto out = narrow.read(kOutputAt, 4 * kOutputs * kPositionUnits);
  std::set<uint8_t> distinct;
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned y = 0; y < kOutH; ++y) {
      for (unsigned x = 0; x < kOutW; ++x) {
        for (unsigned c = 0; c < kWideLanes; ++c) {
          const uint8_t want =
              splitReductionReference(grid, weights[b], kGroups, kWideLanes, kPlane, bias[b][c], offset[b][c], scale[b][c], e, y, x, c);
          const size_t at = 4 * (kPositionUnits * (y * kOutW + x) + kLaneGroups * b) + c;
          const uint8_t got = out[at];
          EXPECT_EQ(int{got}, int{want}) << "block " << b << " output (" << y << ", " << x << ") lane " << c;
          distinct.insert(got);
        }
      }
    }
  }
  EXPECT_GT(distinct.size(), 16u);
  // Output blocks that are not the weight nest's (2 counted, 3 read): refused, not summed over the wrong passes.
  Packet fewer = p;
  fewer.slot(N::Output37, 1, 1, 0);
  EXPECT_NE(ConvCompute::fromPacket(fewer.words).unsupported().find("accumulation across outer loops"), std::string::npos)
      << ConvCompute::fromPacket(fewer.words).unsupported();
}

// A stream's output blocks pin which levels of a split reduction are the K passes (docs/decoding-log.md "blk"): MobileNet
// v1's 128-channel pointwise layers walk a window of 8 K groups (level 0), 4 positions (level 2), 4 K passes (level 3) and
// 2 output blocks (level 4, the 0x12's levels 2-3), the weight nest still above the window. By the counts alone the
// position level, counting as many as the passes, reads as the K passes (1 position, 8 blocks); with the stream's 2
// blocks the levels above the passes count exactly them. Here a window of 2 groups, 3 positions, 3 K passes, 2 blocks of
// 4 lanes (the corpus's shape, smaller), the blocks one after another, each its prefix then its passes' windows.
TEST(LleConvCompute, AStreamsOutputBlocksPinTheKPassesWhereAPositionLevelCountsAsMany) {
  const Epilogue e;
  constexpr unsigned kWindow = 2, kPositions = 3, kPasses = 3, kBlocks = 2, kPrefix = 3;
  constexpr int64_t kPositionUnits = kWindow * kPasses;  // a position's K channels, one unit a group
  constexpr int64_t kBlockUnits = 8;                     // Output37's level 1: block b's outputs 8 units on
  Packet p = convPacket(kPrefix, e);
  using N = isa::ComputeNest;
  for (unsigned level = 0; level < 7; ++level) {
    p.slot(N::Nest37, level, 0, 0);
    p.slot(N::Nest29, level, 0, 0);
    p.slot(N::Output37, level, 0, 0);
  }
  p.slot(N::Nest37, 0, kWindow - 1, kPositionUnits - (kWindow - 1));                                          // -> stride 6
  p.slot(N::Nest37, 1, kPositions - 1, kWindow - ((kWindow - 1) + (kPositions - 1) * kPositionUnits));        // -> stride 2
  p.slot(N::Nest37, 2, kPasses - 1, -((kWindow - 1) + (kPositions - 1) * kPositionUnits + (kPasses - 1) * kWindow));  // -> 0
  p.slot(N::Nest37, 3, kBlocks - 1, 0);
  p.slot(N::Nest29, 0, kWindow - 1, -static_cast<int64_t>(kWindow - 1));  // -> stride 0 above the window
  p.slot(N::Nest29, 1, kPositions - 1, -static_cast<int64_t>(kWindow - 1));
  p.slot(N::Nest29, 2, kPasses - 1, -static_cast<int64_t>(kWindow - 1));
  p.slot(N::Nest29, 3, kBlocks - 1, 0);
  p.slot(N::Output37, 0, kPositions - 1, kBlockUnits - (kPositions - 1));
  p.slot(N::Output37, 1, kBlocks - 1, 0);
  p.field(LleField::ComputeOut37Step, 1);
  ConvCompute conv = ConvCompute::fromPacket(p.words);
  ASSERT_EQ(conv.reduction(), kWindow * kPasses);
  // The counts alone: the position level taken for the passes, every output its own block.
  EXPECT_EQ(conv.blocks(), kPositions * kBlocks);
  conv.streamBlocks = kBlocks;
  ASSERT_EQ(conv.unsupported(), "");
  const auto split = conv.splitReduction();
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->positions, kPositions);
  EXPECT_EQ(split->groups, kPasses);
  EXPECT_EQ(split->blocks, kBlocks);
  EXPECT_EQ(conv.streamOutputBlocks(), kBlocks);
  // A stream naming blocks the nest's top levels do not count (3): no split of that shape.
  ConvCompute three = conv;
  three.streamBlocks = 3;
  EXPECT_FALSE(three.splitReduction().has_value());
  uint32_t s = 4242;
  std::vector<uint8_t> grid(4 * kPositions * kPositionUnits);
  for (uint8_t& b : grid) b = lcg(s);
  std::vector<uint8_t> wide;
  // Pass g's window: groups g x kWindow ...
  const auto [scale, bias, offset, weights] =
      appendDrawnBlocks<kLanes, kBlocks>(wide, s, kWindow * kPasses * 4 * kLanes, {0.125f, 2, 5, 300, 1100, 90, 13, 19});
  AddressedMemory narrow{4096};
  ASSERT_TRUE(narrow.write(4 * kInputAt4, grid));
  uint64_t macs = 0;
  ASSERT_EQ(runConvCompute(conv, narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "");
  std::set<uint8_t> distinct;
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned pos = 0; pos < kPositions; ++pos) {
      for (unsigned c = 0; c < kLanes; ++c) {
        // Position pos's K channels are its units pos x 6 ...; the block's group q weighs unit q of the position.
        int64_t acc = bias[b][c];
        for (unsigned q = 0; q < kWindow * kPasses; ++q) {
          for (unsigned i = 0; i < 4; ++i) {
            acc += (int32_t{grid[4 * (pos * kPositionUnits + q) + i]} - e.zpIn) *
                   (int32_t{weights[b][q * 4 * kLanes + 4 * c + i]} - static_cast<int32_t>(offset[b][c]));
          }
        }
        const float v = std::clamp(static_cast<float>(acc) * scale[b][c] * e.mult, e.lo, e.hi);
        const auto want = static_cast<uint8_t>(std::clamp(std::nearbyint(v) + static_cast<float>(e.zpOut), 0.0f, 255.0f));
        const uint8_t got = narrow.read(kOutputAt + 4 * (b * kBlockUnits + pos) + c, 1)[0];
        EXPECT_EQ(int{got}, int{want}) << "block " << b << " position " << pos << " lane " << c;
        distinct.insert(got);
      }
    }
  }
  EXPECT_GT(distinct.size(), 8u);
}

// Output blocks of a host weight stream over one K pass (docs/decoding-log.md "bias14": the compute-feeding write counts
// the receive's level 1 as blocks; MobileNet v2 wo_fc 224's first convolution, 8 blocks of 4 lanes): the weight nest
// counts the taps, the positions, then the blocks (stride 0: the stream's next block), and the input nest reads the
// same grid for every block. In wide memory the blocks lie side by side -- the bias array holds every block's lanes
// (block b's at 16 b), then each tap's row every block's 16-byte group -- as the parameter-caching blob of wo_fc 224
// holds them. Here 3 blocks over the 2 x 3 taps and 6 positions (no corpus convolution has 3 blocks or these taps):
// each block's outputs take its own bias and groups, the blocks one after another in the output nest. With the
// blocks unknown to the kernel (1) the same packet reads block 0's lanes only; told 2 blocks it finds no such split.
TEST(LleConvCompute, SideBySideOutputBlocksOverOneKPassTakeTheirLanesOfEachPrefixAndGroupRow) {
  const Epilogue e;
  constexpr unsigned kBlocks = 3;
  Packet p = convPacket(1, e);
  using N = isa::ComputeNest;
  const int64_t walked = (kKw - 1) + (kKh - 1) * kG + (kOutW - 1) + (kOutH - 1) * kG;
  p.slot(N::Nest37, 4, kOutH - 1, -walked);  // -> level 5 stride 0: every block reads the same grid
  p.slot(N::Nest37, 5, kBlocks - 1, 0);
  p.slot(N::Nest29, 1, kOutputs - 1, -static_cast<int64_t>(kTaps - 1));  // -> level 2 stride 0: the stream's next block
  p.slot(N::Nest29, 2, kBlocks - 1, 0);
  p.slot(N::Output37, 0, kOutputs - 1, 1);  // the blocks' outputs one after another
  p.slot(N::Output37, 1, kBlocks - 1, 0);
  ConvCompute conv = ConvCompute::fromPacket(p.words);
  conv.sideBySideBlocks = kBlocks;
  ASSERT_EQ(conv.unsupported(), "");
  ASSERT_EQ(conv.reduction(), kTaps);
  ASSERT_EQ(conv.blocks(), kBlocks);
  uint32_t s = 4242;
  std::vector<uint8_t> grid(4 * kG * (kOutH + kKh - 1));
  for (uint8_t& b : grid) b = lcg(s);
  std::array<std::array<int32_t, kLanes>, kBlocks> bias{};
  std::vector<uint8_t> wide;
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned c = 0; c < kLanes; ++c) {
      bias[b][c] = 300 * static_cast<int32_t>(c) - 1100 * static_cast<int32_t>(b) + 17;
      uint8_t v[4];
      std::memcpy(v, &bias[b][c], 4);
      wide.insert(wide.end(), v, v + 4);
    }
  }
  std::vector<uint8_t> rows(kTaps * kBlocks * 4 * kLanes);  // tap t's row, block b's group at 16 b
  for (uint8_t& w : rows) w = lcg(s);
  wide.insert(wide.end(), rows.begin(), rows.end());
  const auto expected = [&](unsigned b, unsigned y, unsigned x, unsigned c) {
    int64_t acc = bias[b][c];
    for (unsigned ky = 0; ky < kKh; ++ky) {
      for (unsigned kx = 0; kx < kKw; ++kx) {
        const unsigned unit = (y + ky) * kG + x + kx;
        const unsigned tap = ky * kKw + kx;
        for (unsigned i = 0; i < 4; ++i) {
          acc += (int32_t{grid[4 * unit + i]} - e.zpIn) * (int32_t{rows[(tap * kBlocks + b) * 4 * kLanes + 4 * c + i]} - e.zpWeight);
        }
      }
    }
    const float v = std::clamp(static_cast<float>(acc) * e.mult, e.lo, e.hi);
    return static_cast<uint8_t>(std::clamp(std::nearbyint(v) + static_cast<float>(e.zpOut), 0.0f, 255.0f));
  };
  AddressedMemory narrow{8192};
  ASSERT_TRUE(narrow.write(4 * kInputAt4, grid));
  uint64_t macs = 0;
  ASSERT_EQ(runConvCompute(conv, narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "");
  EXPECT_EQ(macs, uint64_t{kOutputs} * kBlocks * kTaps * kLanes * 4);
  const auto out = narrow.read(kOutputAt, 4 * kOutputs * kBlocks);
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned y = 0; y < kOutH; ++y) {
      for (unsigned x = 0; x < kOutW; ++x) {
        for (unsigned c = 0; c < kLanes; ++c) {
          EXPECT_EQ(int{out[4 * (b * kOutputs + y * kOutW + x) + c]}, int{expected(b, y, x, c)})
              << "block " << b << " output (" << y << ", " << x << ") lane " << c;
        }
      }
    }
  }
  EXPECT_GT(std::set<uint8_t>(out.begin(), out.end()).size(), 16u);
  // Blocks the weight nest does not count: no side-by-side split, one block (the rung then refuses the stream's count).
  ConvCompute two = ConvCompute::fromPacket(p.words);
  two.sideBySideBlocks = 2;
  EXPECT_EQ(two.blocks(), 1u);
  EXPECT_EQ(ConvCompute::fromPacket(p.words).blocks(), 1u);
}

// The other layout of a host stream's blocks (models/lle/stream_block_layout.h, docs/decoding-log.md "dec17"): where the
// compute-feeding write counts the blocks at the receive's levels 2-3 (level 1 idle), each block is its prefix, then its
// K groups, one block after another -- the 16-channel PoseNet / BodyPix decoders' depthwise layers, each 192-byte block
// its scale, bias and offset arrays and its 9 tap groups. The rung gives such a stream to the kernel as streamBlocks.
// The same packet as the side-by-side test above, 3 blocks over the 2 x 3 taps: each block's outputs take its own bias
// and groups from its own stretch of the rows; read side by side, the same bytes give other outputs.
TEST(LleConvCompute, OneAfterAnotherOutputBlocksOfAHostStreamTakeEachBlocksOwnPrefixAndGroups) {
  EXPECT_FALSE(hostStreamBlocksLieSideBySide(1, 6, 6));  // levels 2-3, level 1 idle: the decoders' Conv2d_1_depthwise
  EXPECT_FALSE(hostStreamBlocksLieSideBySide(2, 6, 6));  // level 1 counting K parts, the blocks at levels 2-3
  EXPECT_TRUE(hostStreamBlocksLieSideBySide(8, 1, 8));   // level 1 counting the blocks: wo_fc 224's Conv1 ("bias14" §D)
  EXPECT_TRUE(hostStreamBlocksLieSideBySide(2, 3, 6));   // levels 1-3
  EXPECT_FALSE(hostStreamBlocksLieSideBySide(1, 1, 1));  // one block: no layout to tell
  const Epilogue e;
  constexpr unsigned kBlocks = 3;
  Packet p = convPacket(1, e);
  using N = isa::ComputeNest;
  const int64_t walked = (kKw - 1) + (kKh - 1) * kG + (kOutW - 1) + (kOutH - 1) * kG;
  p.slot(N::Nest37, 4, kOutH - 1, -walked);
  p.slot(N::Nest37, 5, kBlocks - 1, 0);
  p.slot(N::Nest29, 1, kOutputs - 1, -static_cast<int64_t>(kTaps - 1));
  p.slot(N::Nest29, 2, kBlocks - 1, 0);
  p.slot(N::Output37, 0, kOutputs - 1, 1);
  p.slot(N::Output37, 1, kBlocks - 1, 0);
  ConvCompute conv = ConvCompute::fromPacket(p.words);
  conv.streamBlocks = kBlocks;
  ASSERT_EQ(conv.unsupported(), "");
  ASSERT_EQ(conv.blocks(), kBlocks);
  uint32_t s = 977;
  std::vector<uint8_t> grid(4 * kG * (kOutH + kKh - 1));
  for (uint8_t& b : grid) b = lcg(s);
  // Block b: its 4 biases, then its 6 tap groups of 16 bytes.
  constexpr unsigned kBlockBytes = 4 * kLanes + kTaps * 4 * kLanes;
  std::array<std::array<int32_t, kLanes>, kBlocks> bias{};
  std::vector<uint8_t> wide;
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned c = 0; c < kLanes; ++c) {
      bias[b][c] = 250 * static_cast<int32_t>(c) - 900 * static_cast<int32_t>(b) + 31;
      uint8_t v[4];
      std::memcpy(v, &bias[b][c], 4);
      wide.insert(wide.end(), v, v + 4);
    }
    for (unsigned i = 0; i < kTaps * 4 * kLanes; ++i) wide.push_back(lcg(s));
  }
  ASSERT_EQ(wide.size(), kBlocks * kBlockBytes);
  const auto expected = [&](unsigned b, unsigned y, unsigned x, unsigned c) {
    int64_t acc = bias[b][c];
    for (unsigned ky = 0; ky < kKh; ++ky) {
      for (unsigned kx = 0; kx < kKw; ++kx) {
        const unsigned unit = (y + ky) * kG + x + kx;
        const unsigned tap = ky * kKw + kx;
        for (unsigned i = 0; i < 4; ++i) {
          const uint8_t w = wide[b * kBlockBytes + 4 * kLanes + tap * 4 * kLanes + 4 * c + i];
          acc += (int32_t{grid[4 * unit + i]} - e.zpIn) * (int32_t{w} - e.zpWeight);
        }
      }
    }
    const float v = std::clamp(static_cast<float>(acc) * e.mult, e.lo, e.hi);
    return static_cast<uint8_t>(std::clamp(std::nearbyint(v) + static_cast<float>(e.zpOut), 0.0f, 255.0f));
  };
  const auto run = [&](const ConvCompute& c) {
    AddressedMemory narrow{8192};
    EXPECT_TRUE(narrow.write(4 * kInputAt4, grid));
    uint64_t macs = 0;
    EXPECT_EQ(runConvCompute(c, narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "");
    const auto written = narrow.read(kOutputAt, 4 * kOutputs * kBlocks);  // a view into `narrow`: copied out
    return std::vector<uint8_t>(written.begin(), written.end());
  };
  const auto out = run(conv);
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned y = 0; y < kOutH; ++y) {
      for (unsigned x = 0; x < kOutW; ++x) {
        for (unsigned c = 0; c < kLanes; ++c) {
          EXPECT_EQ(int{out[4 * (b * kOutputs + y * kOutW + x) + c]}, int{expected(b, y, x, c)})
              << "block " << b << " output (" << y << ", " << x << ") lane " << c;
        }
      }
    }
  }
  EXPECT_GT(std::set<uint8_t>(out.begin(), out.end()).size(), 16u);
  // The same rows read side by side (the decoders' bytes as the rung read them before "dec17"): other outputs.
  ConvCompute sideBySide = ConvCompute::fromPacket(p.words);
  sideBySide.sideBySideBlocks = kBlocks;
  EXPECT_NE(run(sideBySide), out);
}

// A depthwise over an H x W x C channel grid (docs/decoding-log.md "w1b86" §A, the MobileNet v2 wo_fc form): the input
// nest's level 0 steps a tap column of C bytes (ComputeInputBytes 0 + 8 x ComputeInputStepHigh), each iteration's lanes
// read the 4-byte unit there (4 channels); level 4 steps the next 4-channel block (4 bytes). The output walks positions
// C / 4 units apart at levels 0-1 and the blocks at Output37 level 3 (ComputeOut37LimitHigh[0]), one unit on: an H x W
// x C output. The stream's rows hold the blocks side by side (the rung's sideBySideBlocks, "bias14" §D).
TEST(LleConvCompute, ADepthwiseOverAChannelGridStepsCBytesATapColumnAndWritesEachBlockOneUnitOn) {
  const Epilogue e;
  constexpr unsigned kBlocks = 2, kC = 4 * kBlocks;
  constexpr int64_t kUnitsAPosition = kC / 4;
  Packet p = convPacket(1, e);
  using N = isa::ComputeNest;
  // Nest37 from the strides (units): tap column C / 4, tap row a grid row, position column C / 4, position row a grid
  // row, block 1 -- each carry is the stride less the walk below it.
  const std::array<uint64_t, 5> limits{kKw - 1, kKh - 1, kOutW - 1, kOutH - 1, kBlocks - 1};
  const std::array<int64_t, 5> strides{kUnitsAPosition, kG * kUnitsAPosition, kUnitsAPosition, kG * kUnitsAPosition, 1};
  int64_t walked = 0;
  for (unsigned level = 0; level < 5; ++level) {
    walked += static_cast<int64_t>(limits[level]) * strides[level];
    const int64_t carry = level + 1 < 5 ? strides[level + 1] - walked : 0;
    p.slot(N::Nest37, level, limits[level], carry);
  }
  p.field(LleField::ComputeInputBytes, 0);
  p.field(LleField::ComputeInputStepHigh, kC / 8);
  // Nest29: the taps' groups, then positions and blocks at stride 0 (each tap's row holds every block).
  p.slot(N::Nest29, 0, kKw - 1, 1);
  p.slot(N::Nest29, 1, kKh - 1, -static_cast<int64_t>(kTaps - 1));  // each carry undoes the taps: levels 2-4 stride 0
  p.slot(N::Nest29, 2, kOutW - 1, -static_cast<int64_t>(kTaps - 1));
  p.slot(N::Nest29, 3, kOutH - 1, -static_cast<int64_t>(kTaps - 1));
  p.slot(N::Nest29, 4, kBlocks - 1, 0);
  // Output37: columns C / 4 units apart, rows, level 2 idle, the blocks at level 3 one unit on.
  p.field(LleField::ComputeOut37Step, kUnitsAPosition);
  p.slot(N::Output37, 0, kOutW - 1, kOutW * kUnitsAPosition - (kOutW - 1) * kUnitsAPosition);
  p.slot(N::Output37, 1, kOutH - 1, 0);
  p.slot(N::Output37, 2, 0, 1 - ((kOutW - 1) * kUnitsAPosition + (kOutH - 1) * kOutW * kUnitsAPosition));
  p.field(LleField::ComputeOut37LimitHigh, kBlocks - 1);
  ASSERT_EQ(readField(p.words, LleField::ComputeOut37LimitHigh, 0), kBlocks - 1);
  ConvCompute conv = ConvCompute::fromPacket(p.words);
  conv.sideBySideBlocks = kBlocks;
  ASSERT_EQ(conv.unsupported(), "");
  ASSERT_EQ(conv.output.limits[3], kBlocks - 1);  // Output37 level 3 from ComputeOut37LimitHigh
  ASSERT_EQ(conv.input.strides[0], kUnitsAPosition);
  ASSERT_EQ(conv.reduction(), kTaps);
  ASSERT_EQ(conv.blocks(), kBlocks);
  uint32_t s = 9090;
  std::vector<uint8_t> grid(kC * kG * (kOutH + kKh - 1));  // H x W x C bytes
  for (uint8_t& b : grid) b = lcg(s);
  std::array<int32_t, kC> bias{};
  std::vector<uint8_t> wide;
  for (unsigned ch = 0; ch < kC; ++ch) {
    bias[ch] = 250 * static_cast<int32_t>(ch) - 900;
    uint8_t v[4];
    std::memcpy(v, &bias[ch], 4);
    wide.insert(wide.end(), v, v + 4);
  }
  std::vector<uint8_t> rows(kTaps * kBlocks * 4 * kLanes);  // tap t's row, block b's group at 16 b
  for (uint8_t& w : rows) w = lcg(s);
  wide.insert(wide.end(), rows.begin(), rows.end());
  const auto expected = [&](unsigned b, unsigned y, unsigned x, unsigned c) {
    int64_t acc = bias[4 * b + c];
    for (unsigned ky = 0; ky < kKh; ++ky) {
      for (unsigned kx = 0; kx < kKw; ++kx) {
        const unsigned at = ((y + ky) * kG + x + kx) * kC + 4 * b;  // channels 4b .. 4b + 3 of the tap's position
        const unsigned tap = ky * kKw + kx;
        for (unsigned i = 0; i < 4; ++i) {
          acc += (int32_t{grid[at + i]} - e.zpIn) * (int32_t{rows[(tap * kBlocks + b) * 4 * kLanes + 4 * c + i]} - e.zpWeight);
        }
      }
    }
    const float v = std::clamp(static_cast<float>(acc) * e.mult, e.lo, e.hi);
    return static_cast<uint8_t>(std::clamp(std::nearbyint(v) + static_cast<float>(e.zpOut), 0.0f, 255.0f));
  };
  AddressedMemory narrow{8192};
  ASSERT_TRUE(narrow.write(4 * kInputAt4, grid));
  uint64_t macs = 0;
  ASSERT_EQ(runConvCompute(conv, narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "");
  EXPECT_EQ(macs, uint64_t{kOutputs} * kBlocks * kTaps * kLanes * 4);
  const auto out = narrow.read(kOutputAt, kC * kOutputs);
  for (unsigned y = 0; y < kOutH; ++y) {
    for (unsigned x = 0; x < kOutW; ++x) {
      for (unsigned ch = 0; ch < kC; ++ch) {
        EXPECT_EQ(int{out[(y * kOutW + x) * kC + ch]}, int{expected(ch / 4, y, x, ch % 4)}) << "output (" << y << ", " << x << ") channel " << ch;
      }
    }
  }
  EXPECT_GT(std::set<uint8_t>(out.begin(), out.end()).size(), 8u);
  // A step that is not whole 4-byte units (C = 4 x ... + 2) is refused, naming the step.
  p.field(LleField::ComputeInputBytes, 2);
  EXPECT_NE(ConvCompute::fromPacket(p.words).unsupported().find("ComputeInputStepHigh"), std::string::npos);
}

// Passes of the whole walk (models/lle/whole_walk_passes.h, docs/decoding-log.md "w1b86b"): the w0 nest's level 7
// (ComputeLimitW0Level7) repeats the input and weight nests' walk once an output block, as MobileNet v2 wo_fc's pointwise
// layers and the PoseNet quant decoders' do (there 2-6 blocks of 64 lanes, Output37 level 3 counting them). Here 3 passes
// of the 2 x 3 taps over 6 positions, 4 lanes, Output37's level 3 the passes: pass b reads the stream's block b (its own
// scale, bias, offset arrays, then its 6 tap groups, after block b - 1) and writes its 6 outputs after pass b - 1's.
// Without the passes the nests' 36 iterations over Output37's 18 outputs are refused; reading block 0 every pass would
// give pass 1 and 2 block 0's bytes. Output37 counting 2 passes where level 7 says 3 is refused naming the field.
TEST(LleConvCompute, PassesOfTheWholeWalkTakeTheStreamsNextBlockAndWriteTheNextOutputBlock) {
  const Epilogue e;
  constexpr unsigned kPasses = 3, kPrefix = 3;
  constexpr int64_t kPlane = kG * (kOutH + kKh - 1);
  Packet p = convPacket(kPrefix, e);
  using N = isa::ComputeNest;
  p.slot(N::Output37, 0, kOutputs - 1, 1);  // -> level 1 stride 6 units: one pass's outputs
  p.slot(N::Output37, 1, 0, 1);
  p.slot(N::Output37, 2, 0, 1);             // -> level 3 stride 6
  p.slot(N::Output37, 3, kPasses - 1, 0);
  p.field(LleField::ComputeLimitW0Level7, kPasses - 1);
  // The other nests' level 7 ("w3b103"): the same passes, each slot 6's wrap (the carry when level 7 counts) returning
  // the nest to its first unit, as in every corpus compute with passes.
  p.field(LleField::ComputeNest37Level7, kPasses - 1);
  p.field(LleField::ComputeNest29Level7, kPasses - 1);
  p.field(LleField::ComputeW10Level7, kPasses - 1);
  const auto walkOf = [](const ComputeLoopNest& nest) {
    int64_t walk = 0;
    for (unsigned j = 0; j < ComputeLoopNest::kLevels; ++j) walk += static_cast<int64_t>(nest.limits[j]) * nest.strides[j];
    return walk;
  };
  {
    const ConvCompute once = ConvCompute::fromPacket(p.words);
    p.slot(N::Nest37, 6, 0, -walkOf(once.input));
    p.slot(N::Nest29, 6, 0, -walkOf(once.weights));
  }
  const ConvCompute conv = ConvCompute::fromPacket(p.words);
  ASSERT_EQ(conv.passes, kPasses);
  ASSERT_EQ(conv.inputPassStride, 0);
  ASSERT_EQ(conv.weightPassStride, 0);
  ASSERT_EQ(conv.unsupported(), "");
  ASSERT_EQ(conv.reduction(), kTaps);
  EXPECT_FALSE(conv.onePassSplit().has_value());  // a pass is a plain reduction
  EXPECT_EQ(conv.streamOutputBlocks(), kPasses);   // the stream carries a block a pass ("wrap10")
  uint32_t s = 4242;
  std::vector<uint8_t> grid(4 * kPlane);
  for (uint8_t& b : grid) b = lcg(s);
  std::vector<uint8_t> wide;
  const auto [scale, bias, offset, weights] =
      appendDrawnBlocks<kLanes, kPasses>(wide, s, kTaps * 4 * kLanes, {0.125f, 1, 2, 300, 700, 90, 13, 19});
  AddressedMemory narrow{4096};
  ASSERT_TRUE(narrow.write(4 * kInputAt4, grid));
  uint64_t macs = 0;
  ASSERT_EQ(runConvCompute(conv, narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "");
  EXPECT_EQ(macs, uint64_t{kPasses} * kOutputs * kTaps * kLanes * 4);
  const auto out = narrow.read(kOutputAt, 4 * kOutputs * kPasses);
  std::set<uint8_t> distinct;
  for (unsigned b = 0; b < kPasses; ++b) {
    for (unsigned y = 0; y < kOutH; ++y) {
      for (unsigned x = 0; x < kOutW; ++x) {
        for (unsigned c = 0; c < kLanes; ++c) {
          const uint8_t want = splitReductionReference(grid, weights[b], 1, kLanes, kPlane, bias[b][c], offset[b][c], scale[b][c], e, y, x, c);
          const uint8_t got = out[4 * (kOutputs * b + y * kOutW + x) + c];
          EXPECT_EQ(int{got}, int{want}) << "pass " << b << " output (" << y << ", " << x << ") lane " << c;
          distinct.insert(got);
        }
      }
    }
  }
  EXPECT_GT(distinct.size(), 12u);
  // The same blocks side by side, as the feeding write names them (as many as passes, "bias14"): row r of every block's
  // 4 x lanes bytes (the prefix arrays, then the tap groups) together, block b's at row r x passes + b. Same bytes out.
  ConvCompute side = conv;
  side.sideBySideBlocks = kPasses;
  ASSERT_EQ(side.unsupported(), "");
  const size_t rowBytes = 4 * kLanes, rows = wide.size() / kPasses / rowBytes;
  std::vector<uint8_t> sideWide(wide.size());
  for (size_t b = 0; b < kPasses; ++b) {
    for (size_t r = 0; r < rows; ++r) {
      std::memcpy(sideWide.data() + (r * kPasses + b) * rowBytes, wide.data() + (b * rows + r) * rowBytes, rowBytes);
    }
  }
  AddressedMemory sideNarrow{4096};
  ASSERT_TRUE(sideNarrow.write(4 * kInputAt4, grid));
  ASSERT_EQ(runConvCompute(side, sideNarrow, sideWide, models::RequantRounding::kFp32HalfEven, macs), "");
  const auto sideOut = sideNarrow.read(kOutputAt, 4 * kOutputs * kPasses);
  EXPECT_TRUE(std::equal(sideOut.begin(), sideOut.end(), out.begin()));
  side.sideBySideBlocks = 2;  // blocks the write names that are not the passes: refused naming the field
  EXPECT_NE(side.unsupported().find("ComputeLimitW0Level7"), std::string::npos) << side.unsupported();
  // Too little stream for the last pass's block: refused, not read past the end.
  std::vector<uint8_t> shortWide(wide.begin(), wide.end() - 1);
  EXPECT_NE(runConvCompute(conv, narrow, shortWide, models::RequantRounding::kFp32HalfEven, macs).find("ComputeLimitW0Level7"),
            std::string::npos);
  // Output37 counts 2 passes where the w0 nest's level 7 says 3: refused naming the field.
  Packet fewer = p;
  fewer.slot(N::Output37, 3, 1, 0);
  EXPECT_NE(ConvCompute::fromPacket(fewer.words).unsupported().find("ComputeLimitW0Level7"), std::string::npos)
      << ConvCompute::fromPacket(fewer.words).unsupported();
  // A level-7 carry that does not return a nest to its start (a pass reading other input units, or another weight
  // window): refused naming the nest's level 7. One unit off in each.
  Packet inputSteps = p;
  inputSteps.slot(N::Nest37, 6, 0, 1 - walkOf(conv.input));
  const ConvCompute steppedInput = ConvCompute::fromPacket(inputSteps.words);
  EXPECT_EQ(steppedInput.inputPassStride, 1);
  EXPECT_NE(steppedInput.unsupported().find("ComputeNest37Level7"), std::string::npos) << steppedInput.unsupported();
  Packet weightSteps = p;
  weightSteps.slot(N::Nest29, 6, 0, -1 - walkOf(conv.weights));
  const ConvCompute steppedWeights = ConvCompute::fromPacket(weightSteps.words);
  EXPECT_EQ(steppedWeights.weightPassStride, -1);
  EXPECT_NE(steppedWeights.unsupported().find("ComputeNest29Level7"), std::string::npos) << steppedWeights.unsupported();
}

// Passes of the whole walk whose one pass splits its reduction into K passes above the positions (docs/decoding-log.md
// "wrap10": the w0 nest's level 6 under level 7, 150 corpus computes of MobileNet v2 wo_fc and the PoseNet 353x481 /
// 481x641 quant decoders, their w10 nest walking partial-sum rows under ComputeTopLevelPasses). Here the "ring88"
// convolution (2 x 3 taps, 6 positions, 3 K groups, the groups' planes one after another in the input) run for 2
// level-7 passes, 8 lanes: pass b reads the stream's block b -- its scale, bias and offset arrays, then its 3 windows of
// 6 tap groups, one K pass after another -- adds the 3 K passes into one sum a position, and writes its 6 outputs after
// pass b - 1's. No corpus compute has these taps, lanes or counts. The reference sums every K group directly from the
// layout; reading the block's first window for every K pass (the one-window block of "w1b86b") changes pass outputs.
TEST(LleConvCompute, PassesOfTheWholeWalkSplitIntoKPassesAboveThePositionsAddEachBlocksWindowsIntoOneSum) {
  const Epilogue e;
  constexpr unsigned kPasses = 2, kGroups = 3, kWideLanes = 8, kPrefix = 3;
  constexpr int64_t kPlane = kG * (kOutH + kKh - 1);
  Packet p = convPacket(kPrefix, e);
  using N = isa::ComputeNest;
  const int64_t walked = (kKw - 1) + (kKh - 1) * kG + (kOutW - 1) + (kOutH - 1) * kG;
  p.slot(N::Nest37, 4, kOutH - 1, kPlane - walked);                       // -> level 5 steps one plane: the K passes
  p.slot(N::Nest37, 5, kGroups - 1, 0);
  p.slot(N::Nest29, 1, kOutputs - 1, -static_cast<int64_t>(kTaps - 1));   // -> level 2 stride 0: the stream's next window
  p.slot(N::Nest29, 2, kGroups - 1, 0);
  p.slot(N::Output37, 0, kOutputs - 1, 2 - 1);                            // -> level 1 stride 2 x 6 units: one pass's outputs
  p.slot(N::Output37, 1, kPasses - 1, 0);
  p.field(LleField::ComputeOut37Step, 2 - 1);                              // 2 lane groups a position
  p.field(LleField::ComputeLaneGroups, kWideLanes / 4 - 1);
  p.field(LleField::ComputeLimitW0Level7, kPasses - 1);
  p.field(LleField::ComputeNest37Level7, kPasses - 1);
  p.field(LleField::ComputeNest29Level7, kPasses - 1);
  p.field(LleField::ComputeW10Level7, kPasses - 1);
  const auto walkOf = [](const ComputeLoopNest& nest) {
    int64_t walk = 0;
    for (unsigned j = 0; j < ComputeLoopNest::kLevels; ++j) walk += static_cast<int64_t>(nest.limits[j]) * nest.strides[j];
    return walk;
  };
  {
    const ConvCompute once = ConvCompute::fromPacket(p.words);
    p.slot(N::Nest37, 6, 0, -walkOf(once.input));
    p.slot(N::Nest29, 6, 0, -walkOf(once.weights));
  }
  const ConvCompute conv = ConvCompute::fromPacket(p.words);
  ASSERT_EQ(conv.passes, kPasses);
  ASSERT_EQ(conv.inputPassStride, 0);
  ASSERT_EQ(conv.weightPassStride, 0);
  ASSERT_EQ(conv.reduction(), kTaps * kGroups);
  ASSERT_EQ(conv.unsupported(), "");
  // One pass splits into the 3 K passes in one block; the stream carries a block a pass (the feeding write's count).
  ASSERT_TRUE(conv.onePassSplit().has_value());
  EXPECT_EQ(conv.onePassSplit()->groups, kGroups);
  EXPECT_EQ(conv.onePassSplit()->positions, kOutputs);
  EXPECT_EQ(conv.streamOutputBlocks(), kPasses);
  uint32_t s = 8080;
  std::vector<uint8_t> grid(4 * kPlane * kGroups);
  for (uint8_t& b : grid) b = lcg(s);
  std::vector<uint8_t> wide;
  const auto [scale, bias, offset, weights] =
      appendDrawnBlocks<kWideLanes, kPasses>(wide, s, kGroups * kTaps * 4 * kWideLanes, {0.0625f, 2, 3, 270, 800, 70, 9, 23});
  AddressedMemory narrow{8192};
  ASSERT_TRUE(narrow.write(4 * kInputAt4, grid));
  uint64_t macs = 0;
  ASSERT_EQ(runConvCompute(conv, narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "");
  EXPECT_EQ(macs, uint64_t{kPasses} * kOutputs * kTaps * kGroups * kWideLanes * 4);
  const auto out = narrow.read(kOutputAt, 4 * kOutputs * 2 * kPasses);
  std::set<uint8_t> distinct;
  for (unsigned b = 0; b < kPasses; ++b) {
    for (unsigned y = 0; y < kOutH; ++y) {
      for (unsigned x = 0; x < kOutW; ++x) {
        for (unsigned c = 0; c < kWideLanes; ++c) {
          const uint8_t want =
              splitReductionReference(grid, weights[b], kGroups, kWideLanes, kPlane, bias[b][c], offset[b][c], scale[b][c], e, y, x, c);
          const uint8_t got = out[kWideLanes * (kOutputs * b + y * kOutW + x) + c];
          EXPECT_EQ(int{got}, int{want}) << "pass " << b << " output (" << y << ", " << x << ") lane " << c;
          distinct.insert(got);
        }
      }
    }
  }
  EXPECT_GT(distinct.size(), 16u);
  // One block's bytes short of the last pass's third window: refused naming the passes, not read past the end.
  std::vector<uint8_t> shortWide(wide.begin(), wide.end() - 1);
  EXPECT_NE(runConvCompute(conv, narrow, shortWide, models::RequantRounding::kFp32HalfEven, macs).find("ComputeLimitW0Level7"),
            std::string::npos);
  // The blocks side by side (the feeding write naming as many blocks as passes) over K passes: not decoded, refused by name.
  ConvCompute side = conv;
  side.sideBySideBlocks = kPasses;
  EXPECT_NE(side.unsupported().find("side-by-side blocks are not decoded"), std::string::npos) << side.unsupported();
}

TEST(LleConvCompute, RefusesWhatItDoesNotModelNamingTheField) {
  const Epilogue e;
  Fixture f;
  uint64_t macs = 0;
  // (More than 4 lanes with an output nest that counts above level 0 is decoded since "ring128": the
  // lane-group walk, ASplitReductionsOutputBlocks... above.)
  // A weight nest that counts other iterations than the input nest.
  Packet skew = convPacket(0, e);
  skew.slot(isa::ComputeNest::Nest29, 1, kOutputs, 77);
  EXPECT_NE(ConvCompute::fromPacket(skew.words).unsupported().find("Nest29"), std::string::npos);
  // Outputs that do not divide the iterations.
  Packet odd = convPacket(0, e);
  odd.slot(isa::ComputeNest::Output37, 0, 4, -3);
  EXPECT_NE(ConvCompute::fromPacket(odd.words).unsupported().find("Output37"), std::string::npos);
  // A reduction that is not the weight nest's inner loop (the taps counted at level 0 as 3, their rows
  // at an outer level): refused, not accumulated over the wrong iterations.
  Packet outer = convPacket(0, e);
  outer.slot(isa::ComputeNest::Nest29, 0, kKw - 1, -static_cast<int64_t>(kKw - 1));
  outer.slot(isa::ComputeNest::Nest29, 1, kOutputs - 1, 0);
  outer.slot(isa::ComputeNest::Nest29, 2, kKh - 1, 77);
  EXPECT_NE(ConvCompute::fromPacket(outer.words).unsupported().find("not the inner 3 iterations"), std::string::npos)
      << ConvCompute::fromPacket(outer.words).unsupported();
  // A weight zero point next to a per-lane offset: no corpus compute has both.
  Packet both = convPacket(2, e);
  both.field(LleField::ComputeZpWeight, 5);
  EXPECT_NE(ConvCompute::fromPacket(both.words).unsupported().find("ComputeZpWeight"), std::string::npos);
  // Too few parameter bytes for the prefix and the weights the nest reaches.
  const std::vector<uint8_t> full = f.wide(3);
  const std::vector<uint8_t> shortWide(full.begin(), full.end() - 1);
  EXPECT_NE(runConvCompute(ConvCompute::fromPacket(convPacket(3, e).words), f.narrow, shortWide,
                           models::RequantRounding::kFp32HalfEven, macs)
                .find("Nest29"),
            std::string::npos);
  EXPECT_EQ(macs, 0u);
}

// Undefined bytes (docs/decoding-log.md "convx"): a grid unit no packet wrote is undefined, and so is every
// output position whose taps reach it -- left unwritten, over the bytes the output units held -- while the
// positions that do not reach it are the direct convolution as ever. Grid unit (row 0, column 3) is a tap of
// outputs (0, 1) and (0, 2) alone (columns 1-3 and 2-4 of row 0); the 2 x 3 kernel, the grid and the output
// address are no corpus convolution's. Before "convx" the compute was refused ("no input byte at narrow address").
TEST(LleConvCompute, APositionWhoseTapsReachAnUnwrittenByteIsLeftUndefined) {
  const Epilogue e;
  constexpr unsigned kPrefix = 3;
  constexpr uint64_t kHole = 4 * (kInputAt4 + 3);  // grid (0, 3)
  Fixture f;
  f.narrow.forget(kHole, 4);
  // Earlier bytes at the output units: an undefined result must not leave them readable.
  EXPECT_TRUE(f.narrow.write(kOutputAt, std::vector<uint8_t>(4 * kOutputs, 0xa5)));
  const ConvCompute conv = ConvCompute::fromPacket(convPacket(kPrefix, e).words);
  const std::vector<bool> undefined = convUndefinedPositions(conv, f.narrow);
  EXPECT_EQ(undefined, (std::vector<bool>{false, true, true, false, false, false}));
  uint64_t macs = 0;
  uint64_t undefinedOutputs = 0;
  ASSERT_EQ(runConvCompute(conv, f.narrow, f.wide(kPrefix), models::RequantRounding::kFp32HalfEven, macs, &undefinedOutputs), "");
  EXPECT_EQ(undefinedOutputs, 2u);
  for (unsigned y = 0; y < kOutH; ++y) {
    for (unsigned x = 0; x < kOutW; ++x) {
      const uint64_t at = kOutputAt + 4 * (y * kOutW + x);
      if (y == 0 && (x == 1 || x == 2)) {
        EXPECT_TRUE(f.narrow.firstUnwritten(at, 4).has_value()) << "output (" << y << ", " << x << ") reads the unwritten unit";
        continue;
      }
      ASSERT_FALSE(f.narrow.firstUnwritten(at, 4).has_value()) << "output (" << y << ", " << x << ")";
      for (unsigned c = 0; c < kLanes; ++c) {
        EXPECT_EQ(int{f.narrow.read(at, 4)[c]}, int{f.expected(kPrefix, e, y, x, c)}) << "output (" << y << ", " << x << ") lane " << c;
      }
    }
  }
  // A memory no packet wrote at all (never allocated): every position undefined, nothing read out of range.
  AddressedMemory empty(4096);
  uint64_t all = 0;
  ASSERT_EQ(runConvCompute(conv, empty, f.wide(kPrefix), models::RequantRounding::kFp32HalfEven, macs, &all), "");
  EXPECT_EQ(all, uint64_t{kOutputs});
  EXPECT_EQ(empty.firstUnwritten(kOutputAt, 4 * kOutputs), std::optional<uint64_t>(kOutputAt));
  // Every unit written: no position undefined (and the list is empty, the fast path).
  Fixture whole;
  EXPECT_TRUE(convUndefinedPositions(conv, whole.narrow).empty());
}

// The w0 nest's shorter last iteration in a split reduction (models/lle/w0_last_run.h, docs/decoding-log.md "smx"): the
// co-compiled classifiers reduce one output over K passes at level 2 of a 12-group window, the last pass 4 / 8 groups
// (ComputeW0LastRun 3 / 7 at level 2). Here one output of 4 lanes, a window of 3 groups (level 0) read 3 times (level 1: the
// K passes, weight stride 0), the last pass 1 group (run 0 at level 1: 2 iterations dropped), the input 9 units on from
// unit 5. The 7 groups walked are summed -- the dropped two would change every lane -- and the stream need hold only them.
TEST(LleConvCompute, AShorterLastKPassDropsTheTailOfTheSplitReduction) {
  constexpr unsigned kWindow = 3, kPasses = 3, kRun = 0;
  constexpr unsigned kWalked = kWindow * (kPasses - 1) + kRun + 1;
  const Epilogue e;
  Fixture f;
  Packet p;
  using N = isa::ComputeNest;
  p.slot(N::Nest37, 0, kWindow - 1, 1);   // on one unit after the window: the next pass's units
  p.slot(N::Nest37, 1, kPasses - 1, 0);
  p.slot(N::Nest29, 0, kWindow - 1, -static_cast<int64_t>(kWindow - 1));  // back to the window's first group: stride 0
  p.slot(N::Nest29, 1, kPasses - 1, 0);
  p.field(LleField::ComputeOut37Step, 1);
  p.field(LleField::ComputeInputAt4, kInputAt4);
  p.field(LleField::ComputeOutputAt, kOutputAt);
  p.field(LleField::ComputeLaneGroups, 0);
  p.field(LleField::ComputeParamPrefix, 1);
  p.field(LleField::ComputeZpIn, static_cast<uint64_t>(e.zpIn));
  p.field(LleField::ComputeZpWeight, static_cast<uint64_t>(e.zpWeight));
  p.field(LleField::ComputeZpOut, static_cast<uint64_t>(e.zpOut));
  p.f32(LleField::ComputeMult, e.mult);
  p.f32(LleField::ComputeClampLo, e.lo);
  p.f32(LleField::ComputeClampHi, e.hi);
  p.field(LleField::ComputeK4W0, kWindow - 1);
  isa::writePacketBits(p.words, fieldDef(LleField::ComputeLimitW0).lsb, fieldDef(LleField::ComputeLimitW0).width, kPasses - 1);
  const auto shortened = [&](uint64_t level) {
    Packet q = p;
    q.field(LleField::ComputeW0LastRunLevel, level);
    q.field(LleField::ComputeW0LastRun, kRun);
    return ConvCompute::fromPacket(q.words);
  };
  const ConvCompute conv = shortened(1);
  ASSERT_EQ(conv.droppedIterations, kWindow - 1 - kRun);
  ASSERT_TRUE(conv.droppedAreTheTail);
  EXPECT_EQ(conv.streamGroups(), kWalked);
  ASSERT_EQ(conv.unsupported(), "");
  // The bias array, then exactly the walked groups (4 lanes x 4 bytes each).
  std::vector<uint8_t> wide;
  appendLanes(wide, f.bias);
  uint32_t s = 777;
  for (unsigned b = 0; b < kWalked * 16; ++b) wide.push_back(lcg(s));
  uint64_t macs = 0;
  ASSERT_EQ(runConvCompute(conv, f.narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "");
  EXPECT_EQ(macs, uint64_t{kWalked} * 16);
  const auto lanes = f.narrow.read(kOutputAt, 4);
  for (unsigned c = 0; c < 4; ++c) {
    int64_t acc = f.bias[c];
    for (unsigned u = 0; u < kWalked; ++u) {
      for (unsigned i = 0; i < 4; ++i) acc += (int32_t{f.grid[4 * u + i]} - e.zpIn) * (int32_t{wide[16 + 16 * u + 4 * c + i]} - e.zpWeight);
    }
    const float v = std::clamp(static_cast<float>(acc) * e.mult, e.lo, e.hi);
    EXPECT_EQ(lanes[c], static_cast<uint8_t>(std::clamp(std::nearbyint(v) + static_cast<float>(e.zpOut), 0.0f, 255.0f))) << c;
  }
  // Without the shorter last pass the walk needs all 9 groups: the 7-group stream is refused.
  uint64_t unused = 0;
  const std::string whole = runConvCompute(ConvCompute::fromPacket(p.words), f.narrow, wide, models::RequantRounding::kFp32HalfEven, unused);
  EXPECT_NE(whole.find("reads wide bytes up to"), std::string::npos) << whole;
  // A level above the shortened one that counts (here level 2 of the w0 nest) is refused naming the fields.
  Packet above = p;
  above.field(LleField::ComputeW0LastRunLevel, 1);
  isa::writePacketBits(above.words, fieldDef(LleField::ComputeLimitW0).lsb + fieldDef(LleField::ComputeLimitW0).stride,
                       fieldDef(LleField::ComputeLimitW0).width, 1);
  EXPECT_NE(ConvCompute::fromPacket(above.words).unsupported().find("while a level above it counts"), std::string::npos);
}

}  // namespace
}  // namespace coralsim::lle::lle_conv_compute_test
