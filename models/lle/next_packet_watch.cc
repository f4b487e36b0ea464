#include "models/lle/next_packet_watch.h"

#include <cstdio>

#include "models/lle/lle_fields.h"
#include "models/lle/one_row_walk.h"

namespace coralsim::lle {

namespace {

constexpr uint8_t kCompute = 0x01;
constexpr uint8_t kReceive = 0x11;
constexpr uint8_t kStagingWrite = 0x14;
constexpr uint8_t kMeshSend18 = 0x18;
constexpr uint8_t kSync = 0x1a;

std::string hexByte(uint8_t value) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", value);
  return text;
}

// Whether `next` may follow a write whose Stage14FeedsCompute is `feedsCompute` on a tile.
bool allowedAfter(bool feedsCompute, uint8_t next) {
  if (feedsCompute) return next == kCompute || next == kMeshSend18;
  return next != kCompute;
}

// What a compute-feeding write's Stage14SplitPassPairs must be before `next` (docs/decoding-log.md
// "ring128"): half the K passes (the w10 nest's level 2, ComputeLimitW10[1] + 1) of a compute whose
// partial-sum walk is on, rounded down; or, under ComputeTopLevelPasses, the passes are the nest's level 6
// (ComputeLimitW10High[2] + 1: 1,153 / 1,153 tile-feeds of the 208 such corpus computes, "w15b12"); where the sums are
// kept in one row (no w10 carry), level 1's count (ComputeLimitW10[0] + 1: 21 / 21 such corpus computes, "mnv1psum");
// 0 before any other compute and before a mesh 0x18. Under ComputeLevelFourPasses, levels 3-4's passes ("mdense").
uint64_t reductionPassesOf(const models::DecodedPacket& next) {
  // Under ComputeLevelFourPasses the passes are the nest's levels 3-4, (ComputeLimitW10Level3 + 1) x
  // (ComputeLimitW10High[0] + 1) (docs/decoding-log.md "mdense": model_dense's 43 tile-feeds 12 of 25, voice_commands'
  // 164 held out 1 of 3 and 3 of 6), whatever slot 0's mark says (model_dense's is set, its level 1 running once).
  if (readField(next.words, LleField::ComputeLevelFourPasses) != 0) {
    return (readField(next.words, LleField::ComputeLimitW10Level3) + 1) * (readField(next.words, LleField::ComputeLimitW10High, 0) + 1);
  }
  if (readField(next.words, LleField::ComputePartialSumWalkOn) != 0) return readField(next.words, LleField::ComputeLimitW10, 1) + 1;
  if (readField(next.words, LleField::ComputeTopLevelPasses) != 0) return readField(next.words, LleField::ComputeLimitW10High, 2) + 1;
  if (keepsSumsInOneRow(next.words)) return oneRowWalkPasses(next.words);
  return 0;
}

uint64_t splitPassPairsBefore(const models::DecodedPacket& next) {
  if (static_cast<uint8_t>(next.opcode) != kCompute) return 0;
  return reductionPassesOf(next) / 2;
}

}  // namespace

std::string NextPacketWatch::observe(const models::DecodedPacket& packet) {
  const auto op = static_cast<uint8_t>(packet.opcode);
  if (!packet.tilePacket || op == kSync) return "";
  for (unsigned t = 0; t < kTiles; ++t) {
    if (!(packet.tileMask & (1u << t)) || !expected_[t]) continue;
    const Expectation e = *expected_[t];
    expected_[t].reset();
    if (allowedAfter(e.feedsCompute, op)) {
      if (!e.feedsCompute) continue;
      const uint64_t expected = splitPassPairsBefore(packet);
      if (e.splitPassPairs == expected) continue;
      const LleFieldDef& pairs = fieldDef(LleField::Stage14SplitPassPairs);
      return "opcode 0x14 at " + models::describePacketLocation(e.pc, e.word0) + ": " + std::string(pairs.name) + " (word " +
             std::to_string(pairs.lsb / 128) + " bits " + std::to_string(pairs.lsb % 128 + pairs.width - 1) + ":" +
             std::to_string(pairs.lsb % 128) + ") = " + std::to_string(e.splitPassPairs) + " before opcode " + hexByte(op) + " at " +
             models::describePacketLocation(packet.pc, packet.words[0]) + " on tile " + std::to_string(t) + ", which " +
             (expected == 0 ? "walks no partial sums (0 expected)"
                            : "splits its reduction into " + std::to_string(reductionPassesOf(packet)) +
                                  " K passes (" + std::to_string(expected) + " expected)") +
             ": another value is not decoded (docs/decoding-log.md \"ring128\")";
    }
    const LleFieldDef& f = fieldDef(LleField::Stage14FeedsCompute);
    return "opcode 0x14 at " + models::describePacketLocation(e.pc, e.word0) + ": " + std::string(f.name) + " (word " + std::to_string(f.lsb / 128) +
           " bit " + std::to_string(f.lsb % 128) + ") = " + (e.feedsCompute ? "1 says a compute (or a 0x18)" : "0 says no compute") +
           " comes next on tile " + std::to_string(t) + ", where opcode " + hexByte(op) + " at " +
           models::describePacketLocation(packet.pc, packet.words[0]) + " comes (docs/decoding-log.md \"stride\" §B)";
  }
  if (op == kStagingWrite) {
    const bool feeds = readField(packet.words, LleField::Stage14FeedsCompute) != 0;
    for (unsigned t = 0; t < kTiles; ++t) {
      if (packet.tileMask & (1u << t)) {
        expected_[t] = Expectation{packet.pc, packet.words[0], feeds, feeds ? readField(packet.words, LleField::Stage14SplitPassPairs) : 0};
      }
    }
  }
  return "";
}

void NextPacketWatch::clear() {
  for (auto& e : expected_) e.reset();
}

}  // namespace coralsim::lle
