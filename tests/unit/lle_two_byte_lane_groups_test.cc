// The two-byte lane-group form with a bias prefix (models/lle/lle_rung_two_byte_lane_groups.cc, docs/decoding-log.md
// "soft14" §C): lane group g of ComputeLaneGroups + 1 weighs elements g K ... g K + K - 1 (K = ComputeK4W7 + 1) of Nest37's
// walk, each 2-byte element's bytes by the lane's two 16-bit weights of the K-th 16-byte group of the kept block less
// ComputeZpWeight, adds the bias prefix -- the 32-bit sum a one-byte-output compute kept under its ComputePartialSumRow,
// named by the compute-feeding 0x14 before the compute (Stage14FeedTag) -- and writes its four lanes as the next unit
// from ComputeOutputAt. The corpus's 70 computes of the form have K = 2, the block's weights 0 / 1 and the bias -max;
// the test uses values none has: tile 6, K = 3, 3 lane groups, signed weights in [-60, 60], zero points 5 / 3 / 120, row
// 777, stream 613, multiplier 0.0037: the twelve bytes 154, 38, 113, 139, 94, 13, 124, 108, 18, 50, 163, 71, none clamped
// (without the bias 158, 43, ...). Refused by name: no write naming the row, a row no compute kept, a counting level above Nest37's 0.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/requantizer.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_two_byte_lane_groups_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTile = 0x40;  // tile 6
constexpr unsigned kTileIndex = 6;
constexpr uint64_t kBlockUnit = 150, kInputUnit = 310, kOneByteInputUnit = 330, kOutputAt = 4936, kOneByteOutputAt = 5200, kTag = 613, kRow = 777;
constexpr uint64_t kK = 3, kGroups = 3, kLanes = 4;
constexpr int32_t kZpIn = 5, kZpWeight = 3, kZpOut = 120;
constexpr float kMult = 0.0037f, kLo = -120.0f, kHi = 120.0f;

// (element field, value): element 0 only, or every element with `all`.
struct Set {
  LleField field;
  uint64_t value;
  bool all = false;
};

DecodedPacket make(EnvelopePackets& f, uint8_t op, const std::vector<Set>& fields) {
  DecodedPacket p = f.make(op, kTile);
  for (const Set& s : fields) {
    const LleFieldDef& def = fieldDef(s.field);
    for (unsigned e = 0; e < (s.all ? def.count : 1u); ++e) {
      const uint32_t lsb = def.lsb + e * def.stride;
      for (unsigned b = 0; b < def.width; ++b) {  // bit by bit: an element may cross a word (ComputeKWrap29[4])
        const uint32_t at = lsb + b;
        f.lastWords()[at / 128].setBits(at % 128, 1, b < 64 ? (s.value >> b) & 1 : 0);
      }
    }
  }
  p.words = f.lastWords();
  return p;
}

uint64_t negative(int64_t v) { return static_cast<uint64_t>(-v); }

DecodedPacket fillUnit(EnvelopePackets& f, uint64_t unit, uint64_t value) {
  return make(f, 0x17, {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17Immediate, 1}, {LleField::Fill17Value, value}, {LleField::Fill17At4, unit}});
}

// The raw 16-bit weight of K group k, lane c, input byte b (the zero point 3 is taken off by the compute).
int32_t rawWeight(uint64_t k, uint64_t c, uint64_t b) { return static_cast<int32_t>((k * 131 + c * 37 + b * 211) % 121) - 60; }
// Input element i's byte b.
uint8_t inputByte(uint64_t i, uint64_t b) { return static_cast<uint8_t>(17 + 29 * i + 101 * b); }

struct Outcome {
  std::vector<uint8_t> bytes;  // the kGroups output units
  std::string refusal;
};

Outcome run(bool feedRow = true, uint64_t fedRow = kRow, const std::vector<Set>& extra = {}) {
  models::ChipConfig config;
  LleRung rung(config);
  EnvelopePackets f(0x200);
  EmptyStreams streams;
  Outcome out;
  try {
    rung.beginRun();
    for (uint64_t k = 0; k < kK; ++k) {
      for (uint64_t c = 0; c < kLanes; ++c) {
        const uint64_t lo = static_cast<uint16_t>(rawWeight(k, c, 0)), hi = static_cast<uint16_t>(rawWeight(k, c, 1));
        rung.packet(fillUnit(f, kBlockUnit + k * kLanes + c, lo | hi << 16), streams, 0);
      }
    }
    for (uint64_t u = 0; u < (kK * kGroups * 2 + 3) / 4; ++u) {
      uint64_t value = 0;
      for (uint64_t j = 0; j < 4; ++j) {
        const uint64_t at = 4 * u + j;  // byte of the input run: element at / 2, byte at % 2
        value |= uint64_t{inputByte(at / 2, at % 2)} << (8 * j);
      }
      rung.packet(fillUnit(f, kInputUnit + u, value), streams, 0);
    }
    rung.packet(fillUnit(f, kOneByteInputUnit, 0x00000014), streams, 0);  // the one-byte compute's input byte 20
    // The block kept on stream kTag: K x 4 units, routed (0, 0).
    rung.packet(make(f, 0x13, {{LleField::Stage13Step, 1}, {LleField::Stage13RepeatSlot, 1}, {LleField::Stage13NarrowAt4, kBlockUnit},
                               {LleField::Stage13Groups, kK * kLanes - 1}, {LleField::Stage13Wrap, negative(1), true}, {LleField::Stage13LoopOn, 1},
                               {LleField::Stage13Channel, kTag}}),
                streams, 0);
    // The one-byte-output compute keeping its sum (20 - 0) x (rawWeight(0, 0, 0) - 2) = -1,240 under row kRow.
    rung.packet(make(f, 0x01, {{LleField::ComputeInputBytes, 1}, {LleField::ComputeInputBytesCode, 0}, {LleField::ComputeWideWeights, 1},
                               {LleField::ComputeOutputBytes, 1}, {LleField::ComputeOut37Flags6, 0}, {LleField::ComputeInputAt4, kOneByteInputUnit},
                               {LleField::ComputeOutputAt, kOneByteOutputAt}, {LleField::ComputeStreamTag, kTag}, {LleField::ComputeZpWeight, 2},
                               {LleField::ComputeZpOut, 9}, {LleField::ComputeMult, std::bit_cast<uint32_t>(1.0f)},
                               {LleField::ComputeClampLo, std::bit_cast<uint32_t>(-100.0f)}, {LleField::ComputeClampHi, std::bit_cast<uint32_t>(100.0f)},
                               {LleField::ComputePartialSumRow, kRow}}),
                streams, 0);
    if (feedRow) rung.packet(make(f, 0x14, {{LleField::Stage14FeedsCompute, 1}, {LleField::Stage14FeedTag, fedRow}, {LleField::Stage14SelectW4, 2}}), streams, 0);
    std::vector<Set> fields = {{LleField::ComputeInputBytes, 2}, {LleField::ComputeInputBytesCode, 2}, {LleField::ComputeWideWeights, 1},
                               {LleField::ComputeParamPrefix, 1}, {LleField::ComputeInputAt4, kInputUnit}, {LleField::ComputeK4W1, kK * kGroups - 1},
                               {LleField::ComputeK4W0, kK - 1}, {LleField::ComputeK4W7, kK - 1}, {LleField::ComputeK4W10, kK - 1},
                               {LleField::ComputeLimitW0, kGroups - 1}, {LleField::ComputeLimit29, kGroups - 1}, {LleField::ComputeLimitW10, kGroups - 1},
                               {LleField::ComputeLaneGroups, kGroups - 1}, {LleField::ComputeOutputAt, kOutputAt}, {LleField::ComputeOutputBytes, 4},
                               {LleField::ComputeOut37Flags6, 3}, {LleField::ComputeStreamTag, kTag}, {LleField::ComputeZpIn, kZpIn},
                               {LleField::ComputeZpWeight, kZpWeight}, {LleField::ComputeZpOut, kZpOut}, {LleField::ComputeMult, std::bit_cast<uint32_t>(kMult)},
                               {LleField::ComputeClampLo, std::bit_cast<uint32_t>(kLo)}, {LleField::ComputeClampHi, std::bit_cast<uint32_t>(kHi)},
                               {LleField::ComputePositionLoopOn, 1}, {LleField::ComputeW10Level0Once, 0},
                               // last: the wraps share no bit with the fields above, but keep them whole
                               {LleField::ComputeKWrap29, negative(kK - 1), true}, {LleField::ComputeKWrapW7, negative(kK - 1), true}};
    fields.insert(fields.end(), extra.begin(), extra.end());
    rung.packet(make(f, 0x01, fields), streams, 0);
  } catch (const models::ChipFault& e) {
    out.refusal = e.what();
    return out;
  }
  const auto bytes = rung.tile(kTileIndex).narrowSram.read(kOutputAt, kGroups * kLanes);
  out.bytes.assign(bytes.begin(), bytes.end());
  return out;
}

TEST(LleTwoByteLaneGroups, EachLaneGroupWeighsItsKElementsAndAddsTheKeptSumAsItsBias) {
  const Outcome out = run();
  ASSERT_EQ(out.refusal, "");
  const int32_t bias = 20 * (rawWeight(0, 0, 0) - 2);
  const Requantizer requant(1.0f, kMult, kLo, kHi, kZpOut, models::ChipConfig{}.requantRounding);
  std::vector<uint8_t> expected;
  for (uint64_t g = 0; g < kGroups; ++g) {
    for (uint64_t c = 0; c < kLanes; ++c) {
      int32_t acc = bias;
      for (uint64_t k = 0; k < kK; ++k) {
        for (uint64_t b = 0; b < 2; ++b) acc += (int32_t{inputByte(g * kK + k, b)} - kZpIn) * (rawWeight(k, c, b) - kZpWeight);
      }
      expected.push_back(requant(acc));
    }
  }
  EXPECT_EQ(out.bytes, expected);
  EXPECT_EQ(expected, (std::vector<uint8_t>{154, 38, 113, 139, 94, 13, 124, 108, 18, 50, 163, 71}));  // worked by hand
}

TEST(LleTwoByteLaneGroups, WithoutTheRowOfItsBiasOrWithALevelAboveNest37sZeroItIsRefusedByName) {
  EXPECT_NE(run(false).refusal.find("no compute-feeding 0x14 named the row of its bias prefix"), std::string::npos) << run(false).refusal;
  EXPECT_NE(run(true, kRow + 1).refusal.find("keeps no 32-bit sum under row 778"), std::string::npos) << run(true, kRow + 1).refusal;
  const Outcome level1 = run(true, kRow, {{LleField::ComputeNest37Limit1, 1}});
  EXPECT_NE(level1.refusal.find("ComputeNest37Limit1"), std::string::npos) << level1.refusal;
}

}  // namespace
}  // namespace coralsim::lle::lle_two_byte_lane_groups_test
