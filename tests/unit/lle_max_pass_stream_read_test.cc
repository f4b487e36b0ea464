// The max pass's streamed read (models/lle/max_pass_stream_read.h; docs/decoding-log.md "nin15"): a read routed (0, 1)
// marked Stage13TakenByCompute, Stage13FeedsReduction clear, whose taker is the softmax-form 0x02 issued next on its
// tiles, naming its channel and walking exactly its bytes; and the pass's epilogue with the scores' zero point Z (the
// addend -Z, both zero points Z, clamps [-Z, 255 - Z]: the maximum byte itself). Tiles 5 and 11 / tile 11, stream
// 3,001, 24 bytes from narrow unit 90, Z = 77 -- no corpus read or pass has this mask, tag, length, address or zero point
// (the corpus's four are 12 bytes on tile 0, stream 2,077, Z 124 / 158 / 116).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/max_pass_stream_read.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_max_pass_stream_read_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 5) | (1u << 11);
constexpr uint16_t kTile = 1u << 11;
constexpr unsigned kTileIndex = 11;
constexpr uint64_t kStream = 3001;
constexpr uint64_t kBase = 90;   // narrow unit
constexpr uint64_t kUnits = 6;   // 24 bytes: 24 one-byte groups, 6 beats of 4
constexpr uint64_t kOutputAt = 2000;
constexpr int64_t kZero = 77;    // the scores' zero point

uint64_t negative(int64_t v) { return static_cast<uint64_t>(-v); }

using Fields = std::vector<std::pair<LleField, uint64_t>>;

// Every element of each field set to its value, on the envelope's words (an element may straddle two words).
DecodedPacket make(EnvelopePackets& f, uint8_t op, uint16_t mask, const Fields& fields) {
  DecodedPacket p = f.make(op, mask);
  auto& words = f.lastWords();
  for (const auto& [field, value] : fields) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) setFieldElement(words, field, e, value);
  }
  return p;
}

// The read: route (0, 1), its beats in word 2 (4-byte beats: "loom35" §B), marked taken by a compute.
DecodedPacket streamedRead(EnvelopePackets& f, uint16_t mask, uint64_t feedsReduction, uint64_t units = kUnits) {
  DecodedPacket p = make(f, 0x13, mask,
                         {{LleField::Stage13Step, 1}, {LleField::Stage13NarrowAt4, kBase}, {LleField::Stage13Groups, units - 1},
                          {LleField::Stage13Wrap, negative(static_cast<int64_t>(units) - 1)}, {LleField::Stage13LoopOn, 1},
                          {LleField::Stage13RepeatSlot, 0}, {LleField::Stage13SlotBeats, units - 1}, {LleField::Stage13Channel, kStream},
                          {LleField::Stage13FeedsReduction, feedsReduction}});
  f.setElement(LleField::Stage13Route, 0, 0);
  f.setElement(LleField::Stage13Route, 1, 1);
  f.setElement(LleField::Stage13TakenByCompute, 0, 1);
  f.setElement(LleField::Stage13LeavesTile, 0, 0);
  return p;
}

struct Pass {
  uint16_t mask = kTiles;
  uint64_t tag = kStream;
  uint64_t groups = 4 * kUnits;  // one-byte groups
  uint64_t lanes = 1;
  int64_t zpWeight = kZero;
};

// The pass: one-byte groups, four a beat (carry -4 + 1 = -3 bytes), the corpus's epilogue for zero point Z.
DecodedPacket maxPass(EnvelopePackets& f, const Pass& q) {
  return make(f, 0x02, q.mask,
              {{LleField::Max02BeatGroups, 3}, {LleField::Max02BeatGroupsNest29, 3}, {LleField::Max02Beats, q.groups / 4 - 1},
               {LleField::Max02BeatsNest29, q.groups / 4 - 1}, {LleField::Max02Groups, q.groups - 1}, {LleField::Max02Lanes, q.lanes},
               {LleField::Max02StepWrap, negative(1) & 0x1fff}, {LleField::Max02StepCarryLow, 1}, {LleField::Max02OutputAt, kOutputAt},
               {LleField::Max02StreamTag, q.tag}, {LleField::Max02WaitCount, 1},
               {LleField::Max02Mult, std::bit_cast<uint32_t>(1.0f - 0x1p-24f)},
               {LleField::Max02ClampLo, std::bit_cast<uint32_t>(static_cast<float>(-kZero))},
               {LleField::Max02ClampHi, std::bit_cast<uint32_t>(static_cast<float>(255 - kZero))},
               {LleField::Max02Bias, negative(kZero) & 0xffffffffu}, {LleField::Max02ZpOut, static_cast<uint64_t>(kZero)},
               {LleField::Max02ZpWeight, static_cast<uint64_t>(q.zpWeight)}});
}

DecodedPacket compute(EnvelopePackets& f, uint16_t mask, uint64_t tag) {
  return f.make(0x01, mask, {{LleField::ComputeStreamTag, tag}});
}

TEST(MaxPassStreamRead, TheSoftmaxPassIssuedNextOnEveryTileNamingItsChannelAndWalkingItsBytesTakesIt) {
  EnvelopePackets f(0x300);
  const std::vector<DecodedPacket> program = {streamedRead(f, kTiles, 0), f.make(0x17, 1u << 2), f.make(0x1a, 0), maxPass(f, {})};
  EXPECT_TRUE(isMaxPassStreamReadForm(program[0]));
  EXPECT_EQ(maxPassStreamReadProblem(program, 0), "");
}

TEST(MaxPassStreamRead, AnotherTakerStreamLengthTileSetOrReductionMarkIsNotTheForm) {
  EnvelopePackets f(0x300);
  const auto problem = [&](const DecodedPacket& read, const DecodedPacket& next) {
    return maxPassStreamReadProblem(std::vector<DecodedPacket>{read, next}, 0);
  };
  EXPECT_NE(problem(streamedRead(f, kTiles, 0), maxPass(f, {.tag = kStream + 1})).find("reduces stream 3002"), std::string::npos);
  EXPECT_NE(problem(streamedRead(f, kTiles, 0), maxPass(f, {.groups = 4 * kUnits - 4})).find("walks 20 bytes"), std::string::npos);
  EXPECT_NE(problem(streamedRead(f, kTiles, 0), maxPass(f, {.mask = kTile})).find("runs on tiles"), std::string::npos);
  EXPECT_NE(problem(streamedRead(f, kTiles, 0), maxPass(f, {.lanes = 0})).find("no max pass of the softmax form"), std::string::npos);
  EXPECT_NE(problem(streamedRead(f, kTiles, 0), compute(f, kTiles, kStream)).find("no max pass"), std::string::npos);
  EXPECT_NE(problem(streamedRead(f, kTiles, 0), f.make(0x17, kTiles)).find("no compute follows it"), std::string::npos);
  // The kept operand's mark ("trk15") is another form.
  EXPECT_FALSE(isMaxPassStreamReadForm(streamedRead(f, kTiles, 1)));
  EXPECT_NE(problem(streamedRead(f, kTiles, 1), maxPass(f, {})), "");
}

// What the pass writes after the read, or the refusal.
struct Outcome {
  uint8_t lane = 0;
  std::string refusal;
};

Outcome run(const Pass& q, uint64_t feedsReduction = 0) {
  models::ChipConfig config;
  LleRung rung(config);
  EnvelopePackets f(0x100);
  EmptyStreams streams;
  try {
    rung.beginRun();
    // Bytes 10, 20, 30, 40 in every unit; 250 (above 255 - Z = 178: the old epilogue would have clamped it) in unit 93's lane 2.
    for (const auto& [at, units, value] : {std::tuple{kBase, kUnits, uint64_t{0x281e140a}}, std::tuple{kBase + 3, uint64_t{1}, uint64_t{0x28fa140a}}}) {
      DecodedPacket p = make(f, 0x17, kTile,
                             {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17Immediate, 1}, {LleField::Fill17Value, value},
                              {LleField::Fill17At4, at}, {LleField::Fill17Carry, negative(static_cast<int64_t>(units) - 1) & 0x1ffff},
                              {LleField::Fill17Step, 1}});
      f.setElement(LleField::Fill17Limit, 1, 0);
      f.setElement(LleField::Fill17Limit, 2, 0);
      f.setElement(LleField::Fill17Limit, 3, 0);
      f.setElement(LleField::Fill17Limit, 0, units - 1);
      rung.packet(p, streams, 0);
    }
    rung.packet(streamedRead(f, kTile, feedsReduction), streams, 0);
    Pass onTile = q;
    onTile.mask = kTile;
    rung.packet(maxPass(f, onTile), streams, 0);
  } catch (const models::ChipFault& e) {
    return {0, e.what()};
  }
  const AddressedMemory& narrow = rung.tile(kTileIndex).narrowSram;
  if (narrow.firstUnwritten(kOutputAt, 1)) return {0, "the pass wrote no lane"};
  return {narrow.read(kOutputAt, 1)[0], ""};
}

TEST(MaxPassStreamRead, ThePassReducesTheReadsBytesAndItsZeroPointEpilogueGivesTheMaximumByteBack) {
  const Outcome out = run({});
  ASSERT_EQ(out.refusal, "");
  EXPECT_EQ(out.lane, 250);
  // The weight zero point's place holds Z in every corpus pass: another value is refused by name.
  EXPECT_NE(run({.zpWeight = kZero + 1}).refusal.find("Max02ZpWeight (word 14 bits 70:62) = 78"), std::string::npos) << run({.zpWeight = kZero + 1}).refusal;
  // Another tag than the read's, or bytes the read did not take, are refused at the pass.
  EXPECT_NE(run({.tag = kStream + 1}).refusal.find("Max02StreamTag"), std::string::npos) << run({.tag = kStream + 1}).refusal;
  EXPECT_NE(run({.groups = 4 * kUnits - 4}).refusal.find("holds 24 bytes"), std::string::npos) << run({.groups = 4 * kUnits - 4}).refusal;
  // With the reduction mark set and no compute waiting the read is the kept operand's form ("trk16"), not this pass's
  // stream: its beats are counted in 16-byte blocks, and this read's 4-byte count is refused at the read.
  EXPECT_NE(run({}, 1).refusal.find("beats of 16 bytes (Stage13SlotBeats"), std::string::npos) << run({}, 1).refusal;
}

}  // namespace
}  // namespace coralsim::lle::lle_max_pass_stream_read_test
