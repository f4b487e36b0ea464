// The softmax's sum, opcode 0x03 (docs/decoding-log.md "sum03", exp_sum_form.h): laid out as an 0x01 compute of the max
// pass's form over a stream of 16-bit elements; the rung takes the stream of the read kept for it (or sent into it, "nin16"), sums its elements and
// applies the tile's table to the sum times its multiplier, reduced by an even power of two ("trk14"), and writes the result
// in all four 16-bit lanes at ComputeOutputAt ("trk14b", a Guess the chain after it supports).
//
// Values no corpus 0x03 has: tile 11, 7 four-byte groups (14 elements) kept from narrow unit 90 under stream 777, walked
// as 2 beats of 4 groups (the last one short by one, ComputeW0LastRun 2 at level 1: the corpus has 2,048 / 8,192 groups in
// whole beats, 501 and 5 in short ones). The elements are 0x1234 + 0x0101 x i (i = 0..13) little-endian, so summing bytes, or reading them high
// byte first, gives another number than 14 x 0x1234 + 0x0101 x 91 = 88,627.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/addressed_memory.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_exp_sum_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTile = 0x800;  // tile 11
constexpr uint64_t kBase = 90;     // narrow unit
constexpr uint64_t kGroups = 7;
constexpr uint64_t kBeatGroups = 4, kBeats = 2;
constexpr uint64_t kTag = 777;
constexpr uint64_t kOutputAt = 2000;
constexpr uint64_t kElements = 2 * kGroups;

uint64_t negative(uint64_t v) { return static_cast<uint64_t>(-static_cast<int64_t>(v)); }

uint16_t element(uint64_t i) { return static_cast<uint16_t>(0x1234 + 0x0101 * i); }

using Fields = std::vector<std::pair<LleField, uint64_t>>;

// Element `e` of `field` in the packet made last; an element may straddle two words (Nest29's wraps do).
void set(EnvelopePackets& f, LleField field, unsigned e, uint64_t value) {
  const LleFieldDef& def = fieldDef(field);
  const uint32_t lsb = def.lsb + e * def.stride;
  const unsigned low = std::min<unsigned>(def.width, 128 - lsb % 128);
  f.lastWords()[lsb / 128].setBits(lsb % 128, low, value);
  if (low < def.width) f.lastWords()[lsb / 128 + 1].setBits(0, def.width - low, value >> low);
}

// Element 0 of each field set to its value (set() sets the others), on the envelope's words.
DecodedPacket make(EnvelopePackets& f, uint8_t op, const Fields& fields) {
  DecodedPacket p = f.make(op, kTile);
  for (const auto& [field, value] : fields) set(f, field, 0, value);
  return p;
}

// Every element of each field set to its value (lle_max_epilogue_test.cc's make: a read's wraps alike at every level).
DecodedPacket makeAll(EnvelopePackets& f, uint8_t op, const Fields& fields) {
  DecodedPacket p = f.make(op, kTile);
  for (const auto& [field, value] : fields) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) set(f, field, e, value);
  }
  return p;
}

// One four-byte unit of narrow memory filled with `value` (lle_max_epilogue_test.cc's fills).
DecodedPacket fillUnit(EnvelopePackets& f, uint64_t at, uint32_t value) {
  DecodedPacket p = makeAll(f, 0x17, {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17Immediate, 1}, {LleField::Fill17Value, value},
                                   {LleField::Fill17At4, at}, {LleField::Fill17Step, 1}});
  return p;
}

// How the read for it routes its bytes: kept for it ("bright13": route 1, 0, Stage13FeedsNormalise) or sent into it
// ("nin16": route 1, 1, Stage13SentIntoSum).
enum class Route { kKept, kSentIntoSum };

// The read for it: its second nest the sum's beat walk ("nin16", read_beat_walk.h) -- `beatGroups` groups a beat, as many
// beats as cover the groups, a shorter last beat named by the triple (L = 1, its run, the rest).
DecodedPacket keptForSum(EnvelopePackets& f, uint64_t groups, uint64_t beatGroups = kBeatGroups, Route route = Route::kKept) {
  const uint64_t beats = (groups + beatGroups - 1) / beatGroups;
  const uint64_t last = groups - beatGroups * (beats - 1);
  DecodedPacket p = makeAll(f, 0x13, {{LleField::Stage13Step, 1}, {LleField::Stage13RepeatSlot, 1}, {LleField::Stage13NarrowAt4, kBase},
                                   {LleField::Stage13Groups, groups - 1}, {LleField::Stage13Wrap, negative(groups - 1)},
                                   {LleField::Stage13LoopOn, 1}, {LleField::Stage13RepeatOn, 1}, {LleField::Stage13Repeats, beatGroups - 1},
                                   {LleField::Stage13RepeatWrap, negative(beatGroups - 1)}, {LleField::Stage13StreamBeats, beats - 1},
                                   {LleField::Stage13Channel, kTag}, {LleField::Stage13W4On, 1},
                                   {LleField::Stage13W4Bit59, 1}, {LleField::Stage13MaxPassMark, 1},
                                   {LleField::Stage13MaxPassBeats, 0xffff}});
  if (last != beatGroups) {
    set(f, LleField::Stage13RepeatLastRunLevel, 0, 1);
    set(f, LleField::Stage13RepeatLastRun, 0, last - 1);
    set(f, LleField::Stage13RepeatLastShort, 0, beatGroups - last);
  }
  set(f, LleField::Stage13Route, 0, 1);
  set(f, LleField::Stage13Route, 1, route == Route::kKept ? 0 : 1);
  set(f, route == Route::kKept ? LleField::Stage13FeedsNormalise : LleField::Stage13SentIntoSum, 0, 1);
  return p;
}

// The sum as bright's 0x03 lays it out (0x01's fields), at this test's sizes: `beatGroups` groups a beat.
DecodedPacket sum(EnvelopePackets& f, uint64_t beatGroups, const Fields& extra) {
  Fields fields = {{LleField::ComputeK4W0, beatGroups - 1}, {LleField::ComputeLimitW0, kBeats - 1}, {LleField::ComputeOutputAt, kOutputAt},
                   {LleField::ComputeOutputBytes, 4}, {LleField::ComputeLaneGroups, 1}, {LleField::ComputeOut37Step, 1},
                   {LleField::ComputeOut37Carry0, 1}, {LleField::ComputeOut37Flags6, 3}, {LleField::ComputeOut37Slot6Code, 3},
                   {LleField::ComputeStreamTag, kTag}, {LleField::ComputeK4W7, beatGroups - 1},
                   {LleField::ComputeKWrapW7, negative(beatGroups - 1)}, {LleField::ComputeLimit29, kBeats - 1},
                   {LleField::ComputeCodeW9, 1}, {LleField::ComputeKCount, beatGroups}, {LleField::ComputeK4W10, kGroups - 1},
                   {LleField::ComputeCodeW11, 1}, {LleField::ComputePositionLoopOn, 1}, {LleField::ComputeFlagW12Bit33, 1}, {LleField::ComputeCodeW12HighMark, 1},
                   {LleField::ComputeFlagW12Bit42, 1}, {LleField::ComputeImagePositionsOnAgain, 1}, {LleField::ComputeFlagW12Bit47, 1},
                   {LleField::ComputeImageMark, 4}, {LleField::ComputeImageRowBytes, 4}, {LleField::ComputeImagePositionsOn, 1},
                   {LleField::ComputeFlagW14Bit53, 1}, {LleField::ComputeWideWeights, 1}, {LleField::ComputeModeFlagW15Bit3, 1},
                   {LleField::ComputeModeW15High, 3}, {LleField::ComputeChannelCodeW15Low, 3}, {LleField::ComputeChannelCodeW15High, 3},
                   {LleField::ComputeNluApply, 1}, {LleField::ComputeSixteenBitResults, 1},
                   {LleField::ComputeMult, std::bit_cast<uint32_t>(1.0f / 65535.0f)},
                   {LleField::ComputeClampHi, std::bit_cast<uint32_t>(std::numeric_limits<float>::infinity())},
                   {LleField::ComputeClampLo, std::bit_cast<uint32_t>(-std::numeric_limits<float>::infinity())}};
  // The w0 nest's shorter last beat ("smx", w0_last_run.h): the last of the kBeats beats holds the groups left (3 of 4 here).
  if (const uint64_t last = kGroups - beatGroups * (kBeats - 1); last < beatGroups) {
    fields.insert(fields.end(), {{LleField::ComputeW0LastRunLevel, 1}, {LleField::ComputeW0LastRun, last - 1}});
  }
  fields.insert(fields.end(), extra.begin(), extra.end());
  DecodedPacket p = make(f, 0x03, fields);
  for (unsigned e = 0; e < fieldDef(LleField::ComputeKWrap29).count; ++e) set(f, LleField::ComputeKWrap29, e, negative(beatGroups - 1));
  set(f, LleField::ComputeOutWrap, 0, 1);
  for (unsigned e = 1; e < fieldDef(LleField::ComputeOutWrap).count; ++e) set(f, LleField::ComputeOutWrap, e, negative(1));
  // A field `extra` names overrides the element it set above.
  for (const auto& [field, value] : extra) set(f, field, 0, value);
  return p;
}

// A table no corpus program loads (the corpus has 65535 e^x and 65536 / sqrt(2x)): segment s is 1000 s + 7.5 + 100 x over
// breakpoints 1.5, 2, 2.5, 3, 3.5, 8, 16, so the segment and the reduced input both show in the value.
constexpr float kBreaks[7] = {1.5f, 2.0f, 2.5f, 3.0f, 3.5f, 8.0f, 16.0f};
DecodedPacket table(EnvelopePackets& f) {
  DecodedPacket p = f.make(0x19, kTile, {{LleField::NluMask, kTile}});
  for (unsigned seg = 0; seg < 8; ++seg) {
    const float coef[5] = {1000.0f * static_cast<float>(seg) + 7.5f, 100.0f, 0.0f, 0.0f, 0.0f};
    for (unsigned k = 0; k < 5; ++k) f.setElement(LleField::NluCoef, 5 * seg + k, std::bit_cast<uint32_t>(coef[k]));
  }
  for (unsigned b = 0; b < 7; ++b) f.setElement(LleField::NluBreak, b, std::bit_cast<uint32_t>(kBreaks[b]));
  return p;
}

// The refusal the run ends with ("" if none) and the 8 bytes tile 11 then holds at ComputeOutputAt (empty if unwritten).
struct SumRun {
  std::string refusal;
  std::vector<uint8_t> lanes;
};

SumRun runSumAndRead(const Fields& extra = {}, uint64_t keptGroups = kGroups, uint64_t beatGroups = kBeatGroups, bool withTable = true,
                     Route route = Route::kKept, uint64_t readBeatGroups = kBeatGroups) {
  models::ChipConfig config;
  LleRung rung(config);
  EnvelopePackets f(0x100);
  EmptyStreams streams;
  SumRun run;
  try {
    rung.beginRun();
    if (withTable) rung.packet(table(f), streams, 0);
    for (uint64_t g = 0; g < keptGroups; ++g) {
      const uint32_t unit = g < kGroups ? element(2 * g) | (uint32_t{element(2 * g + 1)} << 16) : 0;
      rung.packet(fillUnit(f, kBase + g, unit), streams, 0);
    }
    rung.packet(keptForSum(f, keptGroups, readBeatGroups, route), streams, 0);
    rung.packet(sum(f, beatGroups, extra), streams, 0);
  } catch (const models::ChipFault& e) {
    run.refusal = e.what();
    return run;
  }
  const AddressedMemory& narrow = rung.tile(11).narrowSram;
  if (!narrow.firstUnwritten(kOutputAt, 8)) {
    const auto bytes = narrow.read(kOutputAt, 8);
    run.lanes.assign(bytes.begin(), bytes.end());
  }
  return run;
}

std::string runSum(const Fields& extra = {}, uint64_t keptGroups = kGroups, uint64_t beatGroups = kBeatGroups, bool withTable = true,
                   Route route = Route::kKept, uint64_t readBeatGroups = kBeatGroups) {
  return runSumAndRead(extra, keptGroups, beatGroups, withTable, route, readBeatGroups).refusal;
}

TEST(LleExpSum, TheSumTakesItsKeptStreamAddsItsSixteenBitElementsAndAppliesTheTableReducedByEvenPowersOfTwo) {
  uint64_t expected = 0;
  for (uint64_t i = 0; i < kElements; ++i) expected += element(i);
  ASSERT_EQ(expected, 88627u);
  // Written out: x = 88,627 x mult = m 4^k, m in [1, 4); the value 1000 s + 7.5 + 100 m of m's segment s, times 2^-k, rounded.
  const auto resultOf = [](double x) {
    int k = 0;
    while (x >= 4.0) x /= 4.0, ++k;
    while (x < 1.0) x *= 4.0, --k;
    unsigned seg = 0;
    while (seg < 7 && x >= kBreaks[seg]) ++seg;
    return std::pair{k, static_cast<unsigned>(std::nearbyint((1000.0 * seg + 7.5 + 100.0 * x) * std::ldexp(1.0, -k)))};
  };
  // 1 / 65,535 (the corpus's multiplier): x = 1.352, no reduction; 1 / 512: x = 173.1 = 2.70 x 4^3 (an odd exponent, m in
  // [2, 4): segment 3); 1 / 4,096: 21.6 = 1.35 x 4^2; 1 / 262,144: 0.338 = 1.35 x 4^-1 (a negative k scales up).
  // The result goes to all four 16-bit lanes at ComputeOutputAt, low byte first ("trk14b" §A, a Guess).
  for (const float mult : {1.0f / 65535.0f, 1.0f / 512.0f, 1.0f / 4096.0f, 1.0f / 262144.0f}) {
    const SumRun run = runSumAndRead({{LleField::ComputeMult, std::bit_cast<uint32_t>(mult)}});
    EXPECT_EQ(run.refusal, "") << mult;
    const auto [k, result] = resultOf(88627.0 * mult);
    std::vector<uint8_t> lanes;
    for (unsigned lane = 0; lane < 4; ++lane) lanes.insert(lanes.end(), {static_cast<uint8_t>(result & 0xff), static_cast<uint8_t>(result >> 8)});
    EXPECT_EQ(run.lanes, lanes) << mult << " (k " << k << ", result " << result << ")";
  }
  EXPECT_EQ(resultOf(88627.0 / 512.0), std::pair(3, 410u));  // (3000 + 7.5 + 270.47) / 8 = 409.75: segment 3 reached
  // Without a table on its tile the application is refused naming the field.
  const std::string none = runSum({}, kGroups, kBeatGroups, false);
  EXPECT_NE(none.find("ComputeNluApply (word 15 bit 26) on tile 11, which holds no table"), std::string::npos) << none;
}

// The sum's stream sent into it ("nin16": route 1, 1 with Stage13SentIntoSum, nin_cnn's and ensemble's four corpus reads) is
// taken as the read kept for it is: the same sum, the same lanes. Its second nest is the sum's beat walk: a read pacing the
// same 7 groups as beats of 3 (3 + 3 + 1: L = 1, run 0, rest 2) refused at the sum, which walks beats of 4.
TEST(LleExpSum, ASentReadMarkedForTheSumFeedsItAsTheReadKeptForItDoes) {
  const SumRun kept = runSumAndRead();
  ASSERT_EQ(kept.refusal, "");
  const SumRun sent = runSumAndRead({}, kGroups, kBeatGroups, true, Route::kSentIntoSum);
  EXPECT_EQ(sent.refusal, "");
  EXPECT_EQ(sent.lanes, kept.lanes);
  for (const Route route : {Route::kKept, Route::kSentIntoSum}) {
    const std::string other = runSum({}, kGroups, kBeatGroups, true, route, 3);
    EXPECT_NE(other.find("ComputeK4W0 / ComputeLimitW0[0] = 3 / 1 on tile 11 are not the beat walk of the read kept for the sum "
                         "(Stage13Repeats / Stage13StreamBeats = 2 / 2)"),
              std::string::npos)
        << other;
  }
}

TEST(LleExpSum, AWalkOtherThanTheMaxPassFormIsRefusedNamingItsField) {
  // Eight groups cannot be kept as seven: the stream's size against ComputeK4W10.
  EXPECT_NE(runSum({}, kGroups + 1).find("holds 32 bytes; the sum walks 7 groups of 4"), std::string::npos) << runSum({}, kGroups + 1);
  // One-byte elements (ComputeWideWeights 0): not decoded.
  EXPECT_NE(runSum({{LleField::ComputeWideWeights, 0}}).find("ComputeWideWeights (word 14 bit 55) = 0"), std::string::npos)
      << runSum({{LleField::ComputeWideWeights, 0}});
  // Beats that do not cover the groups (2 beats of 3 for 7).
  EXPECT_NE(runSum({}, kGroups, 3).find("7 groups are not the beat walk's ComputeLimitW0[0] + 1 = 2 beats of ComputeK4W0 + 1 = 3 groups"),
            std::string::npos)
      << runSum({}, kGroups, 3);
  // ComputeKCount apart from the beat's groups: 0x01's relations refuse it (the count Nest29's wrap says, -ComputeK4W0 + 1).
  EXPECT_NE(runSum({{LleField::ComputeKCount, 2}}).find("ComputeKCount (word 9 bits 75:64) = 2"), std::string::npos)
      << runSum({{LleField::ComputeKCount, 2}});
}

// The sum's shorter last beat (ComputeW0LastRun / ComputeW0LastRunLevel, "smx"): its 7 groups in 2 beats of 4 are summed
// only where the packet says the last beat runs 3 (run 2, level 1); whole beats (8 groups), a last beat of 2 (6), a run as
// long as the beat, a run without its level and level 2 are refused naming the fields.
TEST(LleExpSum, TheSumWalksTheShorterLastBeatItsPacketNames) {
  ASSERT_EQ(runSum(), "");
  const auto refusalWith = [](uint64_t level, uint64_t run) {
    return runSum({{LleField::ComputeW0LastRunLevel, level}, {LleField::ComputeW0LastRun, run}});
  };
  EXPECT_NE(refusalWith(0, 0).find("7 groups are not the beat walk's ComputeLimitW0[0] + 1 = 2 beats of ComputeK4W0 + 1 = 4 groups less the "
                                   "last beat's shortfall (ComputeW0LastRun, ComputeW0LastRunLevel) = 8"),
            std::string::npos)
      << refusalWith(0, 0);
  EXPECT_NE(refusalWith(1, 1).find("shortfall (ComputeW0LastRun, ComputeW0LastRunLevel) = 6"), std::string::npos) << refusalWith(1, 1);
  EXPECT_NE(refusalWith(1, 3).find("ComputeW0LastRun (word 1 bits 59:46) = 3 with ComputeW0LastRunLevel (word 1 bits 61:60) = 1 is not below "
                                   "ComputeK4W0 = 3"),
            std::string::npos)
      << refusalWith(1, 3);
  EXPECT_NE(refusalWith(0, 2).find("ComputeW0LastRun (word 1 bits 59:46) = 2 while ComputeW0LastRunLevel (word 1 bits 61:60) = 0"),
            std::string::npos)
      << refusalWith(0, 2);
  EXPECT_NE(refusalWith(2, 2).find("ComputeW0LastRunLevel (word 1 bits 61:60) = 2 while ComputeLimitW0[1] = 0"), std::string::npos)
      << refusalWith(2, 2);
}

}  // namespace
}  // namespace coralsim::lle::lle_exp_sum_test
