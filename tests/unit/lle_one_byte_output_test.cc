// The one-byte output form (ComputeOutputBytes 1 with ComputeOut37Flags6 0, docs/decoding-log.md "soft2b"): one
// input byte weighed by the first signed 16-bit weight of the block kept on the compute's stream less
// ComputeZpWeight, requantised, one byte written at ComputeOutputAt. The corpus's 28 such computes all weigh the
// softmax's maximum by 0 - 1 into [-255, 0] + 255; the test uses values none of them has: tile 6, a block of two
// units at narrow unit 150 on stream 613 whose first weight is -300 (past int8, negative; its upper half 0x1234),
// the input byte 3 of unit 310 (152), zero points 17 / 4 / 201, multiplier 0.003, clamps [-200, 10]:
// (152 - 17) x (-300 - 4) = -41,040, x 0.003 = -123.12, + 201 = 78. Other readings give other bytes: without the
// weight zero point 79, the weight's low byte as int8 (-44) 182, the input's first byte (17) 201. The unit around
// the output keeps its other three bytes. Refused by name: the pair 3 beside one-byte elements, 0 or 1 beside
// four-byte units, a loop that counts.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_one_byte_output_test {
namespace {

using models::DecodedPacket;

using Streams = EmptyStreams;

constexpr uint16_t kTile = 0x40;  // tile 6
constexpr unsigned kTileIndex = 6;
constexpr uint64_t kBlockUnit = 150, kInputUnit = 310, kInputByte = 3, kOutputAt = 4936, kTag = 613;

uint64_t negative(uint64_t v) { return static_cast<uint64_t>(-static_cast<int64_t>(v)); }

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

DecodedPacket fillUnit(EnvelopePackets& f, uint64_t unit, uint64_t value) {
  return make(f, 0x17, {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17Immediate, 1}, {LleField::Fill17Value, value},
                        {LleField::Fill17At4, unit}});
}

// The block kept for the compute on its stream: two units, routed (0, 0) as the corpus's kept reads.
DecodedPacket keepBlock(EnvelopePackets& f) {
  DecodedPacket p = make(f, 0x13, {{LleField::Stage13Step, 1}, {LleField::Stage13RepeatSlot, 1}, {LleField::Stage13NarrowAt4, kBlockUnit},
                                   {LleField::Stage13Groups, 1}, {LleField::Stage13Wrap, negative(1)}, {LleField::Stage13LoopOn, 1},
                                   {LleField::Stage13Channel, kTag}, {LleField::Stage13Route, 0}});
  return p;
}

DecodedPacket oneByteCompute(EnvelopePackets& f, const Fields& extra = {}) {
  Fields fields = {{LleField::ComputeInputBytes, 1},      {LleField::ComputeInputBytesCode, 0},  {LleField::ComputeWideWeights, 1},
                   {LleField::ComputeOutputBytes, 1},     {LleField::ComputeOut37Flags6, 0},     {LleField::ComputeInputAt4, kInputUnit},
                   {LleField::ComputeInputByte, kInputByte}, {LleField::ComputeOutputAt, kOutputAt}, {LleField::ComputeStreamTag, kTag},
                   {LleField::ComputeZpIn, 17},           {LleField::ComputeZpWeight, 4},        {LleField::ComputeZpOut, 201},
                   {LleField::ComputeMult, std::bit_cast<uint32_t>(0.003f)},
                   {LleField::ComputeClampLo, std::bit_cast<uint32_t>(-200.0f)},
                   {LleField::ComputeClampHi, std::bit_cast<uint32_t>(10.0f)}};
  fields.insert(fields.end(), extra.begin(), extra.end());
  return make(f, 0x01, fields);
}

struct Outcome {
  std::vector<uint8_t> unit;  // the output's 4-byte unit
  std::string refusal;
};

Outcome run(const Fields& extra = {}) {
  models::ChipConfig config;
  LleRung rung(config);
  EnvelopePackets f(0x200);
  Streams streams;
  Outcome out;
  try {
    rung.beginRun();
    rung.packet(fillUnit(f, kBlockUnit, 0x1234fed4), streams, 0);  // weight -300 in the low half
    rung.packet(fillUnit(f, kBlockUnit + 1, 0x7f7f7f7f), streams, 0);
    rung.packet(fillUnit(f, kInputUnit, 0x98412c11), streams, 0);   // byte 3 = 152
    rung.packet(fillUnit(f, kOutputAt / 4, 0x5a5a5a5a), streams, 0);
    rung.packet(keepBlock(f), streams, 0);
    rung.packet(oneByteCompute(f, extra), streams, 0);
  } catch (const models::ChipFault& e) {
    out.refusal = e.what();
    return out;
  }
  const auto unit = rung.tile(kTileIndex).narrowSram.read(kOutputAt, 4);
  out.unit.assign(unit.begin(), unit.end());
  return out;
}

TEST(LleOneByteOutput, TheFormWeighsItsByteByTheKeptSixteenBitWeightLessItsZeroPointAndWritesOneByte) {
  const Outcome out = run();
  ASSERT_EQ(out.refusal, "");
  EXPECT_EQ(out.unit, (std::vector<uint8_t>{78, 0x5a, 0x5a, 0x5a}));
}

TEST(LleOneByteOutput, TheSlotSixPairMustSayTheOutputElementsSize) {
  EnvelopePackets f(0x300);
  EXPECT_EQ(checkEnvelope(oneByteCompute(f, {{LleField::ComputeOut37Flags6, 3}})), "") << "the pair is decoded, not pinned";
  for (const auto& [bytes, flags] : {std::pair<uint64_t, uint64_t>{1, 3}, {1, 1}, {4, 0}, {4, 1}}) {
    const Outcome out = run({{LleField::ComputeOutputBytes, bytes}, {LleField::ComputeOut37Flags6, flags}});
    EXPECT_NE(out.refusal.find("ComputeOut37Flags6 (word 6 bits 121:120) = " + std::to_string(flags)), std::string::npos)
        << bytes << "-byte elements, pair " << flags << ": " << (out.refusal.empty() ? "accepted" : out.refusal);
  }
}

TEST(LleOneByteOutput, ALoopThatCountsLaneGroupsOrATableAreRefusedByName) {
  for (const auto& [field, value, named] : {std::tuple<LleField, uint64_t, std::string>{LleField::ComputeK4W7, 1, "ComputeK4W7[0] = 1"},
                                            {LleField::ComputeLaneGroups, 2, "ComputeLaneGroups[0] = 2"},
                                            {LleField::ComputeNluApply, 1, "ComputeNluApply = 1"}}) {
    const Outcome out = run({{field, value}});
    EXPECT_NE(out.refusal.find(named), std::string::npos) << named << ": " << (out.refusal.empty() ? "accepted" : out.refusal);
  }
}

}  // namespace
}  // namespace coralsim::lle::lle_one_byte_output_test
