// The max pool (docs/decoding-log.md "maxpool"): an opcode-0x02 compute with Max02Lanes 0 is laid out as an 0x01
// compute, the average pool's form with an idle input nest (max_pool_form.h): each lane takes the largest of its taps
// from the kept stream along the weight nest (Nest29 over each lane's bytes, rows of 4 K elements x the lanes, lane
// group after lane group, as lle_rung_average_pool.cc), then the epilogue.
//
// Values no corpus pool has: a 3 x 3 window at stride 3 (9 taps; the corpus's max pools are 2 x 2 windows of 4 taps)
// over a 6 x 6 layer of 8 channels on tile 6 (positions row-major, a position's channels 0-3 in unit 2p, 4-7 in 2p + 1),
// gathered by the average pool test's read shape (step 2, -5, +1) at another size. The weight nest walks
// a = 6 (3Y + i) + 3X + j (taps j, i; outputs X, Y): level strides 1, 6, 3, 18 bytes, i.e. slot carries +4, -11
// (wrap -3, low 1), +1 bytes. The packet's bits outside 0x01's fields are nin_cnn's pool marks (the envelope's rows).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_max_pool_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTile = 0x40;  // tile 6
constexpr unsigned kTileIndex = 6;
constexpr unsigned kSide = 6, kChannels = 8, kWindow = 3, kOutSide = kSide / kWindow, kChunks = kSide * kSide / 4;
constexpr uint64_t kLayerUnit = 40, kOutputAt = 2000, kTag = 917;

uint64_t negative(uint64_t v) { return static_cast<uint64_t>(-static_cast<int64_t>(v)); }

// The layer's byte at position p (row-major), channel c: spread over 0..255, the maxima at different taps.
uint8_t layerByte(unsigned p, unsigned c) { return static_cast<uint8_t>((37 * p + 59 * c + 11 * p * c + 3) % 256); }

using Fields = std::vector<std::pair<LleField, uint64_t>>;


DecodedPacket make(EnvelopePackets& f, uint8_t op, const Fields& fields) {
  DecodedPacket p = f.make(op, kTile);
  for (const auto& [field, value] : fields) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) f.setElement(field, e, value);
  }
  return p;
}

DecodedPacket fillUnit(EnvelopePackets& f, uint64_t unit, uint64_t value) {
  return make(f, 0x17, {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17Immediate, 1}, {LleField::Fill17Value, value},
                        {LleField::Fill17At4, unit}});
}

// The gather: level 0 four units 2 apart, level 1 twice (-5: back to the odd units), level 2 the layer's 9 chunks (+1).
DecodedPacket gatherRead(EnvelopePackets& f) {
  DecodedPacket p = make(f, 0x13, {{LleField::Stage13Step, 2}, {LleField::Stage13RepeatSlot, 1}, {LleField::Stage13NarrowAt4, kLayerUnit},
                                   {LleField::Stage13Groups, 3}, {LleField::Stage13LoopOn, 1}, {LleField::Stage13Channel, kTag},
                                   {LleField::Stage13Route, 0}, {LleField::Stage13Wrap, 1}});
  f.setElement(LleField::Stage13Wrap, 0, negative(5));
  f.setElement(LleField::Stage13OuterLimit, 0, 1);
  f.setElement(LleField::Stage13OuterLimit, 1, kChunks - 1);
  f.setElement(LleField::Stage13OuterOn, 0, 1);
  f.setElement(LleField::Stage13OuterOn, 1, 1);
  return p;
}

// nin_cnn's pool marks: the bits of its 32 max pools outside 0x01's fields (lle_envelope.def's 0x02 rows of the form).
constexpr std::pair<unsigned, unsigned> kPoolMarks[] = {{0, 7},  {6, 122}, {6, 123}, {6, 124}, {7, 75},  {9, 51},  {9, 55},
                                                        {9, 56}, {12, 32}, {12, 35}, {14, 52}, {14, 58}, {14, 59}, {14, 60}};

DecodedPacket maxPool(EnvelopePackets& f, const Fields& extra = {}) {
  Fields fields = {{LleField::ComputeInputBytes, 0},  {LleField::ComputeInputBytesCode, 0}, {LleField::ComputeCodeW9, 0},
                   {LleField::ComputeKCount, 0},      {LleField::ComputeOutputBytes, 4},    {LleField::ComputeOut37Flags6, 3},
                   {LleField::ComputeLaneGroups, 1},  {LleField::ComputeInputAt4, 0},       {LleField::ComputeOutputAt, kOutputAt},
                   {LleField::ComputeStreamTag, kTag}, {LleField::ComputeMult, std::bit_cast<uint32_t>(1.0f)},
                   {LleField::ComputeClampHi, std::bit_cast<uint32_t>(255.0f)}, {LleField::ComputeFlagW14Bit53, 1},
                   // The w0 nest mirrors the weight nest's four levels, as nin_cnn's.
                   {LleField::ComputeK4W0, kWindow - 1}, {LleField::ComputePositionLoopOn, 1},
                   // The weight nest over each lane's bytes: j (1), i (6), X (3), Y (18).
                   {LleField::ComputeK4W7, kWindow - 1}, {LleField::ComputeLimit29Level3, kOutSide - 1}, {LleField::ComputeKWrapW7, 1},
                   // The w10 nest: the 9 taps, then the 4 outputs.
                   {LleField::ComputeK4W10, kWindow * kWindow - 1}, {LleField::ComputeW10Level0Once, 0},
                   // The output nest: X at step 2 units (two lane groups), Y 4 units on.
                   {LleField::ComputeOut37Limit0, kOutSide - 1}, {LleField::ComputeOut37Step, 1}, {LleField::ComputeOut37Carry0, 1},
                   {LleField::ComputeOutPositions, kOutSide - 1}};
  fields.insert(fields.end(), extra.begin(), extra.end());
  DecodedPacket p = make(f, 0x01, fields);
  f.setElement(LleField::ComputeLimitW0, 0, kWindow - 1);
  f.setElement(LleField::ComputeLimitW0, 1, kOutSide - 1);
  f.setElement(LleField::ComputeLimitW0, 2, kOutSide - 1);
  f.setElement(LleField::ComputeLimit29, 0, kWindow - 1);
  f.setElement(LleField::ComputeLimit29, 1, kOutSide - 1);
  f.setElement(LleField::ComputeLimitW10, 0, kOutSide * kOutSide - 1);
  f.setElement(LleField::ComputeLimitW10, 1, 0);
  f.setElement(LleField::ComputeNest29CarryLow, 0, 0);  // slot 0: +4 bytes (wrap 1)
  f.setElement(LleField::ComputeKWrap29, 0, 0x1ffd);    // slot 1: -3 units + 1 byte = -11 bytes
  f.setElement(LleField::ComputeNest29CarryLow, 1, 1);
  f.setElement(LleField::ComputeKWrap29, 1, 0);         // slot 2: +1 byte
  f.setElement(LleField::ComputeNest29CarryLow, 2, 1);
  for (const auto& [field, value] : extra) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) f.setElement(field, e, value);
  }
  // The same words as opcode 0x02: only 0x01's fields kept, every other bit the pool's marks.
  std::vector<isa::Word128>& words = f.lastWords();
  for (unsigned k = 0; k < words.size(); ++k) {
    const isa::Word128 decoded = decodedBits(0x01, k);
    words[k] = isa::Word128{words[k].lo & decoded.lo, words[k].hi & decoded.hi};
  }
  words[0].setBits(12, 16, kTile);
  for (const auto& [word, bit] : kPoolMarks) words[word].setBits(bit, 1, 1);
  p.opcode = static_cast<isa::Opcode>(0x02);
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
    rung.packet(gatherRead(f), streams, 0);
    rung.packet(maxPool(f, extra), streams, 0);
  } catch (const models::ChipFault& e) {
    out.refusal = e.what();
    return out;
  }
  const auto bytes = rung.tile(kTileIndex).narrowSram.read(kOutputAt, kOutSide * kOutSide * kChannels);
  out.bytes.assign(bytes.begin(), bytes.end());
  return out;
}

// The 3 x 3 maximum of the layer, position-major (Y, X), channels side by side.
std::vector<uint8_t> expectedPool() {
  std::vector<uint8_t> want;
  for (unsigned y = 0; y < kOutSide; ++y) {
    for (unsigned x = 0; x < kOutSide; ++x) {
      for (unsigned c = 0; c < kChannels; ++c) {
        uint8_t largest = 0;
        for (unsigned i = 0; i < kWindow; ++i) {
          for (unsigned j = 0; j < kWindow; ++j) largest = std::max(largest, layerByte((kWindow * y + i) * kSide + kWindow * x + j, c));
        }
        want.push_back(largest);
      }
    }
  }
  return want;
}

TEST(LleMaxPool, TheMaxPoolsPacketPassesTheEnvelopeReadAsTheComputesLayout) {
  EnvelopePackets f(0x300);
  const DecodedPacket p = maxPool(f);
  EXPECT_EQ(checkEnvelope(p), "");
  // A bit outside 0x01's fields that no pool carries is still refused, naming the word and bit.
  f.lastWords()[9].setBits(57, 1, 1);
  const std::string refusal = checkEnvelope(p);
  EXPECT_NE(refusal.find("word 9"), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("57"), std::string::npos) << refusal;
}

TEST(LleMaxPool, EachLaneTakesTheLargestTapOfItsWindow) {
  const Outcome out = run();
  ASSERT_EQ(out.refusal, "");
  const std::vector<uint8_t> want = expectedPool();
  EXPECT_EQ(out.bytes, want);
  // Output (0, 0) channel 0: positions 0-2, 6-8, 12-14 hold 3, 40, 77, 225, 6, 43, 191, 228, 9 -> 228 (position 13).
  EXPECT_EQ(want[0], 228);
}

// An input address makes the input nest a walk again: its K-loop wrap rows apply and refuse it by name (ComputeKWrap37
// 0 with the taps counting); no corpus max pool reads an input, a weighed maximum is not decoded.
TEST(LleMaxPool, AnInputNestThatReadsIsRefusedByName) {
  const Outcome out = run({{LleField::ComputeInputAt4, 300}});
  EXPECT_NE(out.refusal.find("ComputeKWrap37"), std::string::npos) << (out.refusal.empty() ? "accepted" : out.refusal);
}

TEST(LleMaxPool, AMultiplierThatCouldReverseTwoBytesIsRefusedByName) {
  const Outcome out = run({{LleField::ComputeMult, std::bit_cast<uint32_t>(-0.5f)}});
  EXPECT_NE(out.refusal.find("ComputeMult"), std::string::npos) << (out.refusal.empty() ? "accepted" : out.refusal);
}

}  // namespace
}  // namespace coralsim::lle::lle_max_pool_test
