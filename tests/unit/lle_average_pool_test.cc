// The average pool (docs/decoding-log.md "pool4"): a kept read whose nest does not chain into one run gathers its
// units in the nest's order, and the ComputeInputBytes-0 compute sums each lane's taps from that stream along the
// weight nest (Nest29 over each lane's bytes, rows of 4 K elements x the lanes, lane group after lane group), times
// the one input byte its input nest reads (level 0 steps 0 bytes), requantised.
//
// Values no corpus pool has: a 2 x 2 window (4 taps; the corpus's windows are 16, 36, 49, 64, 441, 1,089 taps) over a
// 4 x 4 layer of 8 channels on tile 6 (positions row-major, a position's channels 0-3 in unit 2p, 4-7 in 2p + 1, as a
// convolution of 8 lanes writes them), multiplier 0.25. The read takes each image row (4 positions, 8 units) in the
// order 0, 2, 4, 6, 1, 3, 5, 7 (step 2, then -5, then +1: gabor p4's gather at another size); the weight nest walks
// a = 4 x (2Y + i) + 2X + j (taps i, j; output Y, X): level strides 1, 4, 2, 8 bytes. Sums of 4 with remainder 2
// are ties: the rung's rounding (half-even) is the one every executed form uses. Another layout of the stream (the
// MAC array's lane-major rows, lane c's 4 K bytes side by side) would mix channels and give other bytes.
// "avgp" adds: the same pool with its window over two w10 levels and its rows at Nest29's level 4 (MobileNet v1 0.25
// 128's shape), a uint8 average (zero point 124, multiplier one ulp below 1 / 4), and the refusals of a w10 nest whose
// lowest levels never multiply to the taps and of a weight zero point that is not the output's.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_average_pool_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTile = 0x40;  // tile 6
constexpr unsigned kTileIndex = 6;
constexpr unsigned kSide = 4, kChannels = 8, kWindow = 2, kOutSide = kSide / kWindow;
constexpr uint64_t kLayerUnit = 40, kOnesUnit = 300, kOutputAt = 2000, kTag = 917;

uint64_t negative(uint64_t v) { return static_cast<uint64_t>(-static_cast<int64_t>(v)); }

// The layer's byte at position p (row-major), channel c: spread over 0..255 so that sums of 4 hit every remainder.
uint8_t layerByte(unsigned p, unsigned c) { return static_cast<uint8_t>((37 * p + 59 * c + 11 * p * c + 3) % 256); }

using Fields = std::vector<std::pair<LleField, uint64_t>>;

DecodedPacket make(EnvelopePackets& f, uint8_t op, const Fields& fields) {
  DecodedPacket p = f.make(op, kTile);
  for (const auto& [field, value] : fields) {
    const LleFieldDef& def = fieldDef(field);
    for (unsigned e = 0; e < def.count; ++e) {
      const uint32_t lsb = def.lsb + e * def.stride;
      f.lastWords()[lsb / 128].setBits(lsb % 128, def.width, value);
    }
  }
  return p;
}

// One element of a field with several (make() sets every element).

DecodedPacket fillUnit(EnvelopePackets& f, uint64_t unit, uint64_t value) {
  return make(f, 0x17, {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17Immediate, 1}, {LleField::Fill17Value, value},
                        {LleField::Fill17At4, unit}});
}

// The gather: level 0 four units 2 apart, level 1 twice (-5: back to the odd units), level 2 the layer's 4 rows (+1).
DecodedPacket gatherRead(EnvelopePackets& f) {
  DecodedPacket p = make(f, 0x13, {{LleField::Stage13Step, 2}, {LleField::Stage13RepeatSlot, 1}, {LleField::Stage13NarrowAt4, kLayerUnit},
                                   {LleField::Stage13Groups, 3}, {LleField::Stage13LoopOn, 1}, {LleField::Stage13Channel, kTag},
                                   {LleField::Stage13Route, 0}, {LleField::Stage13Wrap, 1}});
  f.setElement(LleField::Stage13Wrap, 0, negative(5));
  f.setElement(LleField::Stage13OuterLimit, 0, 1);
  f.setElement(LleField::Stage13OuterLimit, 1, kSide - 1);
  f.setElement(LleField::Stage13OuterOn, 0, 1);
  f.setElement(LleField::Stage13OuterOn, 1, 1);
  return p;
}

// How the w10 nest and Nest29 lay the walk (settings of single elements of repeated fields, which make() cannot give):
// the flat pool (the 4 taps at w10 level 0, Y at Nest29 level 3), the window over two w10 levels with Y at Nest29's
// level 4, or a w10 nest of 2 x 8 whose lowest levels never multiply to the 4 taps.
enum class Shape { kFlat, kTwoLevelsOutputsAtLevelFour, kTwoByEight };

DecodedPacket poolCompute(EnvelopePackets& f, const Fields& extra = {}, Shape shape = Shape::kFlat) {
  Fields fields = {{LleField::ComputeInputBytes, 0},       {LleField::ComputeInputBytesCode, 0}, {LleField::ComputeCodeW9, 0},
                   {LleField::ComputeOutputBytes, 4},      {LleField::ComputeOut37Flags6, 3},    {LleField::ComputeLaneGroups, 1},
                   {LleField::ComputeInputAt4, kOnesUnit}, {LleField::ComputeOutputAt, kOutputAt}, {LleField::ComputeStreamTag, kTag},
                   {LleField::ComputeMult, std::bit_cast<uint32_t>(0.25f)},
                   {LleField::ComputeClampHi, std::bit_cast<uint32_t>(255.0f)},
                   // The input nest: taps j, i at levels 0-1 read the same byte (0 bytes a step), outputs at level 2, 4 bytes on.
                   {LleField::ComputeK4W0, 1}, {LleField::ComputeK4W1, 1}, {LleField::ComputeNest37Limit1, 1},
                   {LleField::ComputePositions, kOutSide * kOutSide - 1}, {LleField::ComputeNest37Carry1, 4},
                   {LleField::ComputePositionLoopOn, 1},
                   // The weight nest over each lane's bytes: j (1), i (4), X (2), Y (8).
                   {LleField::ComputeK4W7, 1}, {LleField::ComputeLimit29Level3, 1}, {LleField::ComputeKWrapW7, 0},
                   // The w10 nest: the 4 taps, then the 4 outputs.
                   {LleField::ComputeK4W10, kWindow * kWindow - 1}, {LleField::ComputeW10Level0Once, 0},
                   // The output nest: X at step 2 units (two lane groups), Y 4 units on.
                   {LleField::ComputeOut37Limit0, kOutSide - 1}, {LleField::ComputeOut37Step, 1}, {LleField::ComputeOut37Carry0, 1},
                   {LleField::ComputeOutPositions, kOutSide - 1}};
  fields.insert(fields.end(), extra.begin(), extra.end());
  DecodedPacket p = make(f, 0x01, fields);
  f.setElement(LleField::ComputeLimit29, 0, 1);
  f.setElement(LleField::ComputeLimit29, 1, 1);
  f.setElement(LleField::ComputeLimitW10, 0, kOutSide * kOutSide - 1);
  f.setElement(LleField::ComputeLimitW10, 1, 0);
  f.setElement(LleField::ComputeNest29CarryLow, 0, 3);  // slot 0: 3 bytes (+ 1 stepped = 4)
  f.setElement(LleField::ComputeKWrap29, 0, 0x1fff);    // slot 1: -1 unit + 1 byte = -3 bytes
  f.setElement(LleField::ComputeNest29CarryLow, 1, 1);
  f.setElement(LleField::ComputeNest29CarryLow, 2, 1);  // slot 2: +1 byte
  if (shape == Shape::kTwoLevelsOutputsAtLevelFour) {
    f.setElement(LleField::ComputeLimitW10, 0, kWindow - 1);              // w10: j (ComputeK4W10), i, then the 4 outputs
    f.setElement(LleField::ComputeLimitW10, 1, kOutSide * kOutSide - 1);
    f.setElement(LleField::ComputeLimit29High, 0, 1);                     // Nest29 level 4: Y
    f.setElement(LleField::ComputeNest29CarryLow, 3, 1);                  // slot 3: +1 byte
  } else if (shape == Shape::kTwoByEight) {
    f.setElement(LleField::ComputeLimitW10, 0, 7);  // w10: 2 (ComputeK4W10), 8
  }
  return p;
}

struct Outcome {
  std::vector<uint8_t> bytes;  // the pooled layer, 2 x 2 x 8, as the output nest lays it
  std::string refusal;
};

Outcome run(const Fields& extra = {}, Shape shape = Shape::kFlat) {
  models::ChipConfig config;
  LleRung rung(config);
  EnvelopePackets f(0x200);
  EmptyStreams streams;
  Outcome out;
  try {
    rung.beginRun();
    for (unsigned p = 0; p < kSide * kSide; ++p) {
      for (unsigned half = 0; half < 2; ++half) {
        uint64_t value = 0;
        for (unsigned b = 0; b < 4; ++b) value |= uint64_t{layerByte(p, 4 * half + b)} << (8 * b);
        rung.packet(fillUnit(f, kLayerUnit + 2 * p + half, value), streams, 0);
      }
    }
    for (unsigned o = 0; o < kOutSide * kOutSide; ++o) rung.packet(fillUnit(f, kOnesUnit + o, 1), streams, 0);
    rung.packet(gatherRead(f), streams, 0);
    rung.packet(poolCompute(f, extra, shape), streams, 0);
  } catch (const models::ChipFault& e) {
    out.refusal = e.what();
    return out;
  }
  const auto bytes = rung.tile(kTileIndex).narrowSram.read(kOutputAt, kOutSide * kOutSide * kChannels);
  out.bytes.assign(bytes.begin(), bytes.end());
  return out;
}

// The 2 x 2 average of the layer, ties to even, position-major (Y, X), channels side by side.
std::vector<uint8_t> expectedPool() {
  std::vector<uint8_t> want;
  for (unsigned y = 0; y < kOutSide; ++y) {
    for (unsigned x = 0; x < kOutSide; ++x) {
      for (unsigned c = 0; c < kChannels; ++c) {
        unsigned sum = 0;
        for (unsigned i = 0; i < kWindow; ++i) {
          for (unsigned j = 0; j < kWindow; ++j) sum += layerByte((kWindow * y + i) * kSide + kWindow * x + j, c);
        }
        const unsigned q = sum / 4, r = sum % 4;
        want.push_back(static_cast<uint8_t>(r > 2 || (r == 2 && q % 2 == 1) ? q + 1 : q));
      }
    }
  }
  return want;
}

TEST(LleAveragePool, TheGatheredStreamIsPooledPerChannelOverEachWindow) {
  const Outcome out = run();
  ASSERT_EQ(out.refusal, "");
  const std::vector<uint8_t> want = expectedPool();
  EXPECT_EQ(out.bytes, want);
  // Output (0, 0) channel 0: positions 0, 1, 4, 5 hold 3, 40, 151, 188 -> 382 / 4 = 95.5 -> 96 (a tie, to even).
  EXPECT_EQ(want[0], 96);
  // The data tell the layouts apart: the MAC array's lane-major rows would put position (c % 4)'s channels
  // 4 (c / 4) .. + 3 under lane c, a different sum in most lanes.
  unsigned ties = 0;
  for (unsigned o = 0; o < kOutSide * kOutSide; ++o) {
    for (unsigned c = 0; c < kChannels; ++c) {
      const unsigned y = o / kOutSide, x = o % kOutSide;
      unsigned sum = 0;
      for (unsigned i = 0; i < kWindow; ++i) {
        for (unsigned j = 0; j < kWindow; ++j) sum += layerByte((kWindow * y + i) * kSide + kWindow * x + j, c);
      }
      ties += sum % 4 == 2 ? 1 : 0;
    }
  }
  EXPECT_GT(ties, 0u) << "the test's layer has no tie to round";
}

// A uint8 average ("avgp"): ComputeZpWeight = ComputeZpOut = the tensor's zero point Z, summed as (w - Z) and Z added
// back; the multiplier one float32 ulp below 1 / 4, as the compiler writes nin_cnn's and ensemble's (0.0624999963 for
// 1 / 16), sends the exact ties toward Z: the byte is Z + (the quotient of sum(w - Z) / 4 rounded to the nearest, ties
// toward zero), which half-even or half-away at 1 / 4 itself would not give on both sides of Z.
TEST(LleAveragePool, AUint8AverageSumsItsBytesLessTheZeroPointAndAddsItBack) {
  constexpr int32_t kZero = 124;
  const float belowAQuarter = std::nextafter(0.25f, 0.0f);
  // The clamps hold the byte range less the zero point, as nin_cnn's do ([-124, 131]).
  const Outcome out = run({{LleField::ComputeZpWeight, kZero}, {LleField::ComputeZpOut, kZero},
                           {LleField::ComputeMult, std::bit_cast<uint32_t>(belowAQuarter)},
                           {LleField::ComputeClampLo, std::bit_cast<uint32_t>(static_cast<float>(-kZero))},
                           {LleField::ComputeClampHi, std::bit_cast<uint32_t>(static_cast<float>(255 - kZero))}});
  ASSERT_EQ(out.refusal, "");
  ASSERT_EQ(out.bytes.size(), size_t{kOutSide * kOutSide * kChannels});
  unsigned tiesBelow = 0, tiesAbove = 0;
  for (unsigned o = 0; o < kOutSide * kOutSide; ++o) {
    for (unsigned c = 0; c < kChannels; ++c) {
      const unsigned y = o / kOutSide, x = o % kOutSide;
      int32_t sum = 0;
      for (unsigned i = 0; i < kWindow; ++i) {
        for (unsigned j = 0; j < kWindow; ++j) sum += layerByte((kWindow * y + i) * kSide + kWindow * x + j, c) - kZero;
      }
      // Nearest, exact ties (remainder 2 of 4) toward zero.
      const int32_t magnitude = sum < 0 ? -sum : sum;
      const int32_t rounded = magnitude / 4 + (magnitude % 4 == 3 ? 1 : 0);
      const int32_t want = std::clamp(kZero + (sum < 0 ? -rounded : rounded), 0, 255);
      EXPECT_EQ(out.bytes[o * kChannels + c], want) << "output " << o << " channel " << c << " (sum less the zero point " << sum << ")";
      if (magnitude % 4 == 2) ++(sum < 0 ? tiesBelow : tiesAbove);
    }
  }
  EXPECT_GT(tiesBelow, 0u) << "the test's layer has no tie below the zero point";
  EXPECT_GT(tiesAbove, 0u) << "the test's layer has no tie above the zero point";
}

// A weight zero point that is not the output's (DeepLab v3's multiplier-1 computes: 131 / 227) is no average of one
// tensor: refused by name, as is the max pool's (none in the corpus).
TEST(LleAveragePool, AWeightZeroPointOtherThanTheOutputsIsRefusedByName) {
  const Outcome out = run({{LleField::ComputeZpWeight, 124}});
  EXPECT_NE(out.refusal.find("ComputeZpWeight = 124, ComputeZpOut = 0"), std::string::npos) << (out.refusal.empty() ? "accepted" : out.refusal);
}

// The reduction is the w10 nest's lowest levels whose counts multiply to the taps of one output position (Nest29's
// iterations over Output37's positions). Here level 0 counts 2 and level 1 eight: 2, then 16, never the 4 taps a
// position of the 2 x 2 window has.
TEST(LleAveragePool, TapsThatAreNoProductOfTheW10NestsLowestLevelsAreRefused) {
  const Outcome out = run({{LleField::ComputeK4W10, 1}}, Shape::kTwoByEight);
  EXPECT_NE(out.refusal.find("not one reduction per output"), std::string::npos) << (out.refusal.empty() ? "accepted" : out.refusal);
}

// The pool of MobileNet v1 0.25 128 @ 0x0880 ("avgp") keeps the window over two w10 levels (4 x 4) and counts its output
// blocks at Nest29's level 4. The same 2 x 2 pool laid so: the w10 nest counts 2 (j), 2 (i), 4 (the outputs), and
// Nest29 walks j, i, X at levels 0-2 and Y at level 4 (level 3 runs once; slot 3's carry, 1 byte, makes level 4's
// stride 8: 1 + 4 + 2 + 1), the w0 nest's level 4 repeating it. The bytes are the flat pool's.
TEST(LleAveragePool, AWindowOverTwoW10LevelsWithItsOutputsAtLevelFourPoolsAsTheFlatOne) {
  const Outcome out = run({{LleField::ComputeK4W10, kWindow - 1}, {LleField::ComputeLimit29Level3, 0}, {LleField::ComputeLimitW0Level4, 1}},
                          Shape::kTwoLevelsOutputsAtLevelFour);
  ASSERT_EQ(out.refusal, "");
  EXPECT_EQ(out.bytes, expectedPool());
  // With Nest29's level 4 counted but not the w0 nest's, the two nests disagree: refused by name.
  const Outcome mismatched = run({{LleField::ComputeK4W10, kWindow - 1}, {LleField::ComputeLimit29Level3, 0}}, Shape::kTwoLevelsOutputsAtLevelFour);
  EXPECT_NE(mismatched.refusal.find("ComputeLimitW0Level4 / ComputeLimitW0Levels56 are not Nest29's levels 4-6"), std::string::npos)
      << (mismatched.refusal.empty() ? "accepted" : mismatched.refusal);
}

}  // namespace
}  // namespace coralsim::lle::lle_average_pool_test
