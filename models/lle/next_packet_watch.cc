#include "models/lle/next_packet_watch.h"

#include <cstdio>

#include "models/lle/lle_fields.h"

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

}  // namespace

std::string NextPacketWatch::observe(const models::DecodedPacket& packet) {
  const auto op = static_cast<uint8_t>(packet.opcode);
  if (!packet.tilePacket || op == kSync) return "";
  for (unsigned t = 0; t < kTiles; ++t) {
    if (!(packet.tileMask & (1u << t)) || !expected_[t]) continue;
    const Expectation e = *expected_[t];
    expected_[t].reset();
    if (allowedAfter(e.feedsCompute, op)) continue;
    const LleFieldDef& f = fieldDef(LleField::Stage14FeedsCompute);
    return "opcode 0x14 at " + models::describePacketLocation(e.pc, e.word0) + ": " + std::string(f.name) + " (word " + std::to_string(f.lsb / 128) +
           " bit " + std::to_string(f.lsb % 128) + ") = " + (e.feedsCompute ? "1 says a compute (or a 0x18)" : "0 says no compute") +
           " comes next on tile " + std::to_string(t) + ", where opcode " + hexByte(op) + " at " +
           models::describePacketLocation(packet.pc, packet.words[0]) + " comes (docs/decoding-log.md \"stride\" §B)";
  }
  if (op == kStagingWrite) {
    const bool feeds = readField(packet.words, LleField::Stage14FeedsCompute) != 0;
    for (unsigned t = 0; t < kTiles; ++t) {
      if (packet.tileMask & (1u << t)) expected_[t] = Expectation{packet.pc, packet.words[0], feeds};
    }
  }
  return "";
}

void NextPacketWatch::clear() {
  for (auto& e : expected_) e.reset();
}

}  // namespace coralsim::lle
