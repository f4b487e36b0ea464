// The max reduction's epilogue (opcode 0x02, lle_fields.def Max02Mult / Max02ClampHi / Max02ClampLo,
// docs/decoding-log.md "w15b61"): the three float32s of word 15 at 0x01's ComputeMult / ClampHi / ClampLo places,
// executed as 0x01's — each lane's maximum times the multiplier, clamped, rounded. Every corpus pass's epilogue
// leaves a byte as it is (1.0 and clamps 0 / 255, or 255 + 1 ulp in eight colour templates), so the test uses one
// no corpus 0x02 has: multiplier 0.25, clamps [37.5, 60.25]. Tile 11 keeps 20 four-byte units from narrow unit 90
// (stream 777; no corpus pass has this tile, address, length or tag) whose lane maxima are 144, 183, 195, 254; the
// pass writes 38 (36 raised to the low clamp, rounded), 46, 49 (45.75, 48.75 rounded) and 60 (63.5 cut to the high
// clamp) at narrow 2,000. Without the epilogue the lanes would be the maxima themselves; with the multiplier alone
// 36, 46, 49, 64; with the clamps alone 60, 60, 60, 60. A multiplier of 0 or below, or clamps out of order, is
// refused naming the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_max_epilogue_test {
namespace {

using models::DecodedPacket;

using Streams = EmptyStreams;

constexpr uint16_t kTile = 0x800;  // tile 11
constexpr unsigned kTileIndex = 11;
constexpr uint64_t kBase = 90;  // narrow unit
constexpr uint64_t kUnits = 20;  // 5 beats of 4 groups
constexpr uint64_t kTag = 777;
constexpr uint64_t kOutputAt = 2000;

uint64_t negative(uint64_t v) { return static_cast<uint64_t>(-static_cast<int64_t>(v)); }

using Fields = std::vector<std::pair<LleField, uint64_t>>;

// Every element of each field set to its value (a repeated field's elements alike), on the envelope's words.
DecodedPacket make(EnvelopePackets& f, uint8_t op, const Fields& fields) {
  DecodedPacket p = f.make(op, kTile);
  auto& words = f.lastWords();
  for (const auto& [field, value] : fields) {
    const LleFieldDef& def = fieldDef(field);
    for (unsigned e = 0; e < def.count; ++e) {
      const uint32_t lsb = def.lsb + e * def.stride;
      const unsigned low = std::min<unsigned>(def.width, 128 - lsb % 128);  // an element may straddle two words
      words[lsb / 128].setBits(lsb % 128, low, value);
      if (low < def.width) words[lsb / 128 + 1].setBits(0, def.width - low, value >> low);
    }
  }
  return p;
}


// An immediate fill of `units` four-byte units of narrow memory from unit `at` (lle_rung_test.cc's fills).
DecodedPacket fill(EnvelopePackets& f, uint64_t at, uint64_t units, uint64_t value) {
  // Every corpus 0x17 that receives has a receive stride (lle_rung_test.cc's factory sets it too).
  DecodedPacket p = make(f, 0x17, {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17Immediate, 1}, {LleField::Fill17Value, value},
                                   {LleField::Fill17At4, at}, {LleField::Fill17Carry, negative(units - 1)}, {LleField::Fill17Step, 1}});
  f.setElement(LleField::Fill17Limit, 0, units - 1);
  return p;
}

// The read kept for the pass ("bright13"): routed by w3 bit 105 alone, bit 109 set, four repeats.
DecodedPacket keptForPass(EnvelopePackets& f) {
  DecodedPacket p = make(f, 0x13, {{LleField::Stage13Step, 1}, {LleField::Stage13RepeatSlot, 1}, {LleField::Stage13NarrowAt4, kBase},
                                   {LleField::Stage13Groups, kUnits - 1}, {LleField::Stage13Wrap, negative(kUnits - 1)},
                                   {LleField::Stage13LoopOn, 1}, {LleField::Stage13RepeatOn, 1}, {LleField::Stage13Repeats, 3},
                                   {LleField::Stage13RepeatWrap, negative(3)}, {LleField::Stage13StreamBeats, kUnits * 4 / 16 - 1},
                                   {LleField::Stage13Channel, kTag}, {LleField::Stage13FeedsNormalise, 1}, {LleField::Stage13W4On, 1},
                                   {LleField::Stage13W4Bit59, 1}, {LleField::Stage13MaxPassMark, 1},
                                   {LleField::Stage13MaxPassBeats, 0xffff}});
  f.setElement(LleField::Stage13Route, 0, 1);
  f.setElement(LleField::Stage13Route, 1, 0);
  return p;
}

DecodedPacket pass(EnvelopePackets& f, float mult, float lo, float hi) {
  return make(f, 0x02,
              {{LleField::Max02BeatGroups, 3}, {LleField::Max02BeatGroupsNest29, 3}, {LleField::Max02Beats, kUnits / 4 - 1},
               {LleField::Max02BeatsNest29, kUnits / 4 - 1}, {LleField::Max02Groups, kUnits - 1}, {LleField::Max02Lanes, 4},
               {LleField::Max02StepWrap, negative(3)}, {LleField::Max02StepCarryLow, 0}, {LleField::Max02OutputAt, kOutputAt},
               {LleField::Max02StreamTag, kTag}, {LleField::Max02WaitCount, 1}, {LleField::Max02Mult, std::bit_cast<uint32_t>(mult)},
               {LleField::Max02ClampLo, std::bit_cast<uint32_t>(lo)}, {LleField::Max02ClampHi, std::bit_cast<uint32_t>(hi)}});
}

// The four lanes the pass writes with this epilogue, or the refusal's text.
struct PassOutcome {
  std::vector<uint8_t> lanes;
  std::string refusal;
};

PassOutcome runPass(float mult, float lo, float hi) {
  models::ChipConfig config;
  LleRung rung(config);
  EnvelopePackets f(0x100);
  Streams streams;
  PassOutcome out;
  try {
    rung.beginRun();
    // Lanes 0..3 of every unit 40, 30, 20, 10; the maxima planted in three units: 144 (lane 0), 183 and 254
    // (lanes 1, 3), 195 (lane 2).
    rung.packet(fill(f, kBase, kUnits, 0x0a141e28), streams, 0);
    rung.packet(fill(f, kBase + 3, 1, 0x00000090), streams, 0);
    rung.packet(fill(f, kBase + 11, 1, 0xfe00b700), streams, 0);
    rung.packet(fill(f, kBase + 17, 1, 0x00c30000), streams, 0);
    rung.packet(keptForPass(f), streams, 0);
    rung.packet(pass(f, mult, lo, hi), streams, 0);
  } catch (const models::ChipFault& e) {
    out.refusal = e.what();
    return out;
  }
  const AddressedMemory& narrow = rung.tile(kTileIndex).narrowSram;
  if (narrow.firstUnwritten(kOutputAt, 4)) {
    out.refusal = "the pass wrote no four lanes";
    return out;
  }
  const auto lanes = narrow.read(kOutputAt, 4);
  out.lanes.assign(lanes.begin(), lanes.end());
  return out;
}

TEST(LleMaxEpilogue, TheMaxPassMultipliesClampsAndRoundsEachLanesMaximum) {
  const PassOutcome scaled = runPass(0.25f, 37.5f, 60.25f);
  ASSERT_EQ(scaled.refusal, "");
  EXPECT_EQ(scaled.lanes, (std::vector<uint8_t>{38, 46, 49, 60}));
  // The identity epilogue (bright's) leaves the maxima; so does colour's 255 + 1 ulp high clamp.
  EXPECT_EQ(runPass(1.0f, 0.0f, 255.0f).lanes, (std::vector<uint8_t>{144, 183, 195, 254}));
  EXPECT_EQ(runPass(1.0f, 0.0f, std::bit_cast<float>(0x437f0001u)).lanes, (std::vector<uint8_t>{144, 183, 195, 254}));
}

TEST(LleMaxEpilogue, AMultiplierThatCouldReverseTwoBytesOrUnorderedClampsAreRefusedByName) {
  EXPECT_NE(runPass(-0.5f, -200.0f, 0.0f).refusal.find("Max02Mult (word 15 bits 60:29)"), std::string::npos)
      << runPass(-0.5f, -200.0f, 0.0f).refusal;
  EXPECT_NE(runPass(0.0f, 0.0f, 255.0f).refusal.find("Max02Mult"), std::string::npos) << runPass(0.0f, 0.0f, 255.0f).refusal;
  EXPECT_NE(runPass(1.0f, 100.0f, 50.0f).refusal.find("Max02ClampLo / Max02ClampHi"), std::string::npos)
      << runPass(1.0f, 100.0f, 50.0f).refusal;
}

}  // namespace
}  // namespace coralsim::lle::lle_max_epilogue_test
