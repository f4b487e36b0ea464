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
#include <gtest/gtest.h>

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

DecodedPacket poolCompute(EnvelopePackets& f, const Fields& extra = {}) {
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
  return p;
}

struct Outcome {
  std::vector<uint8_t> bytes;  // the pooled layer, 2 x 2 x 8, as the output nest lays it
  std::string refusal;
};

Outcome run(const Fields& extra = {}) {
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
    rung.packet(poolCompute(f, extra), streams, 0);
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

TEST(LleAveragePool, APoolOverZeroPointedBytesIsRefusedByName) {
  const Outcome out = run({{LleField::ComputeZpWeight, 124}});
  EXPECT_NE(out.refusal.find("ComputeZpWeight = 124"), std::string::npos) << (out.refusal.empty() ? "accepted" : out.refusal);
}

TEST(LleAveragePool, ATapCountThatDoesNotDivideTheWeightNestIsRefused) {
  const Outcome out = run({{LleField::ComputeK4W10, 2}});
  EXPECT_NE(out.refusal.find("not one reduction per output"), std::string::npos) << (out.refusal.empty() ? "accepted" : out.refusal);
}

}  // namespace
}  // namespace coralsim::lle::lle_average_pool_test
