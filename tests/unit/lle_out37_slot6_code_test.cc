// The compiler code where Output37 slot 6's carry would sit (ComputeOut37Slot6Code, w6[125:122]; docs/decoding-log.md
// "w6b122"): a slot's carry applies when the next level counts, and the output nest has no level 7, so no address
// takes it; the corpus writes 0, 1, 2, 3, 7 or 15 there, never a rewind. Declared don't-care. The one-byte output
// compute of lle_one_byte_output_test.cc's values (tile 6, weight -300, zero points 17 / 4 / 201, multiplier 0.003:
// byte 78) writes the same unit with the code 0, 2, 5, 9 and 15 -- 5 and 9 in no corpus compute, 0 and 2 in none of
// a golden-exact program (model_dense's K-split computes and MobileNet v1's stopped there on main: "w6 bits 122");
// w6 bits 126 / 127 (0 in every corpus compute) stay pinned and are refused naming word 6.
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
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_out37_slot6_code_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTile = 0x40;  // tile 6
constexpr unsigned kTileIndex = 6;
constexpr uint64_t kBlockUnit = 150, kInputUnit = 310, kInputByte = 3, kOutputAt = 4936, kTag = 613;
constexpr unsigned kCodeBit = 122;  // w6: the code's low bit, after slot 6's flag pair w6[121:120]

using Fields = std::vector<std::pair<LleField, uint64_t>>;

DecodedPacket make(EnvelopePackets& f, uint8_t op, const Fields& fields) {
  DecodedPacket p = f.make(op, kTile);
  for (const auto& [field, value] : fields) {
    const LleFieldDef& def = fieldDef(field);
    f.lastWords()[def.lsb / 128].setBits(def.lsb % 128, def.width, value);
  }
  return p;
}

DecodedPacket fillUnit(EnvelopePackets& f, uint64_t unit, uint64_t value) {
  return make(f, 0x17, {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17Immediate, 1}, {LleField::Fill17Value, value},
                        {LleField::Fill17At4, unit}});
}

DecodedPacket keepBlock(EnvelopePackets& f) {
  return make(f, 0x13, {{LleField::Stage13Step, 1}, {LleField::Stage13RepeatSlot, 1}, {LleField::Stage13NarrowAt4, kBlockUnit},
                        {LleField::Stage13Groups, 1}, {LleField::Stage13Wrap, static_cast<uint64_t>(-1)},
                        {LleField::Stage13LoopOn, 1}, {LleField::Stage13Channel, kTag}, {LleField::Stage13Route, 0}});
}

// The one-byte compute with the slot-6 code's bits written raw (`code` into w6 bits 122 and up, `width` bits).
DecodedPacket oneByteCompute(EnvelopePackets& f, uint64_t code, unsigned width) {
  DecodedPacket p = make(f, 0x01,
                         {{LleField::ComputeInputBytes, 1},
                          {LleField::ComputeInputBytesCode, 0},
                          {LleField::ComputeWideWeights, 1},
                          {LleField::ComputeOutputBytes, 1},
                          {LleField::ComputeOut37Flags6, 0},
                          {LleField::ComputeInputAt4, kInputUnit},
                          {LleField::ComputeInputByte, kInputByte},
                          {LleField::ComputeOutputAt, kOutputAt},
                          {LleField::ComputeStreamTag, kTag},
                          {LleField::ComputeZpIn, 17},
                          {LleField::ComputeZpWeight, 4},
                          {LleField::ComputeZpOut, 201},
                          {LleField::ComputeMult, std::bit_cast<uint32_t>(0.003f)},
                          {LleField::ComputeClampLo, std::bit_cast<uint32_t>(-200.0f)},
                          {LleField::ComputeClampHi, std::bit_cast<uint32_t>(10.0f)}});
  f.lastWords()[6].setBits(kCodeBit, width, code);  // the bits themselves, not through the field's row
  return p;
}

struct Outcome {
  std::vector<uint8_t> unit;
  std::string refusal;
};

Outcome run(uint64_t code) {
  models::ChipConfig config;
  LleRung rung(config);
  EnvelopePackets f(0x200);
  EmptyStreams streams;
  Outcome out;
  try {
    rung.beginRun();
    rung.packet(fillUnit(f, kBlockUnit, 0x1234fed4), streams, 0);  // weight -300 in the low half
    rung.packet(fillUnit(f, kBlockUnit + 1, 0x7f7f7f7f), streams, 0);
    rung.packet(fillUnit(f, kInputUnit, 0x98412c11), streams, 0);  // byte 3 = 152
    rung.packet(fillUnit(f, kOutputAt / 4, 0x5a5a5a5a), streams, 0);
    rung.packet(keepBlock(f), streams, 0);
    rung.packet(oneByteCompute(f, code, 4), streams, 0);
  } catch (const models::ChipFault& e) {
    out.refusal = e.what();
    return out;
  }
  const auto unit = rung.tile(kTileIndex).narrowSram.read(kOutputAt, 4);
  out.unit.assign(unit.begin(), unit.end());
  return out;
}

TEST(LleOut37Slot6Code, TheCodeWhereSlotSixsCarryWouldBeMovesNoByte) {
  for (const uint64_t code : {0u, 1u, 2u, 5u, 9u, 15u}) {
    EnvelopePackets f(0x300);
    const DecodedPacket p = oneByteCompute(f, code, 4);
    EXPECT_EQ(p.words[6].bits(kCodeBit, 4), code);
    EXPECT_EQ(checkEnvelope(p), "") << "code " << code;
    const Outcome out = run(code);
    EXPECT_EQ(out.refusal, "") << "code " << code;
    EXPECT_EQ(out.unit, (std::vector<uint8_t>{78, 0x5a, 0x5a, 0x5a})) << "code " << code;
  }
}

TEST(LleOut37Slot6Code, TheBitsAboveTheCodeStayPinned) {
  for (const unsigned bit : {126u, 127u}) {
    EnvelopePackets f(0x400);
    const DecodedPacket p = oneByteCompute(f, uint64_t{1} << (bit - kCodeBit), bit - kCodeBit + 1);
    const std::string refusal = checkEnvelope(p);
    EXPECT_NE(refusal.find("word 6"), std::string::npos) << "bit " << bit << ": " << refusal;
    EXPECT_NE(refusal.find(std::to_string(bit)), std::string::npos) << "bit " << bit << ": " << refusal;
  }
}

}  // namespace
}  // namespace coralsim::lle::lle_out37_slot6_code_test
