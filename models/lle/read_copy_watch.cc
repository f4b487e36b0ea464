#include "models/lle/read_copy_watch.h"

#include <cstdio>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/routed_read_mark.h"

namespace coralsim::lle {

namespace {

constexpr uint8_t kStagingRead = 0x13;
constexpr uint8_t kStagingWrite = 0x14;
constexpr uint8_t kSync = 0x1a;

std::string refusal(uint32_t pc, const isa::Word128& word0, uint64_t channel, unsigned tile, const std::string& instead) {
  return "opcode 0x13 at " + models::describePacketLocation(pc, word0) +
         ": Stage13TakenByCopy / Stage13TakenByCopyHigh (word 4 bits 36, 38) = 1: a 0x14 next on its tiles takes its "
         "bytes as the copy of stream " + std::to_string(channel) + " (Stage14CopyStream = Stage13Channel in 130 / 130 "
         "corpus tile-reads); on tile " + std::to_string(tile) + " " + instead;
}

}  // namespace

bool takesTheReadBeforeIt(std::span<const isa::Word128> words) {
  if (readField(words, LleField::Stage14FeedsCompute) != 0) return readField(words, LleField::Stage14CopyInnerLevel) == 0;
  return fieldPresent(LleField::Stage14TakesTileRead, words) && readField(words, LleField::Stage14TakesTileRead) != 0;
}

std::string ReadCopyWatch::observe(const models::DecodedPacket& packet) {
  lastWasCopy_ = false;
  if (!packet.tilePacket) return "";
  const auto op = static_cast<uint8_t>(packet.opcode);
  if (op == kSync) return "";  // a fence moves no data
  bool copies = false;
  unsigned copiedTiles = 0;
  for (unsigned t = 0; t < kTiles; ++t) {
    if (!(packet.tileMask & (1u << t)) || !pending_[t]) continue;
    const Pending& p = *pending_[t];
    if (op != kStagingWrite) {
      char opText[8];
      std::snprintf(opText, sizeof opText, "0x%02x", static_cast<unsigned>(op));
      return refusal(p.pc, p.word0, p.channel, t,
                     std::string("the next packet is opcode ") + opText + " at " +
                         models::describePacketLocation(packet.pc, packet.words[0]));
    }
    const uint64_t stream = readField(packet.words, LleField::Stage14CopyStream);
    if (stream != p.channel) {
      return refusal(p.pc, p.word0, p.channel, t,
                     "the next 0x14, at " + models::describePacketLocation(packet.pc, packet.words[0]) +
                         ", copies stream " + std::to_string(stream));
    }
    copies = true;
    copiedTiles |= 1u << t;
    pending_[t].reset();
  }
  lastWasCopy_ = copies;
  if (op == kStagingWrite) {
    if (std::string why = checkSource(packet); !why.empty()) return why;
    if (std::string why = checkFeedingCopy(packet, copiedTiles == (packet.tileMask & ((1u << kTiles) - 1))); !why.empty()) {
      return why;
    }
  }
  for (unsigned t = 0; t < kTiles; ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    lastReadStream_[t].reset();
    if (op == kStagingRead) lastReadStream_[t] = readField(packet.words, LleField::Stage13Channel);
  }
  if (isTakenByCopy(packet)) {
    for (unsigned t = 0; t < kTiles; ++t) {
      if (packet.tileMask & (1u << t)) {
        pending_[t] = Pending{packet.pc, packet.words[0], readField(packet.words, LleField::Stage13Channel)};
      }
    }
  }
  return "";
}

std::string ReadCopyWatch::checkSource(const models::DecodedPacket& write) const {
  if (!fieldPresent(LleField::Stage14TakesTileRead, write.words) || !fieldPresent(LleField::Stage14TakesDelivered, write.words)) {
    return "";  // not the staging form: bit 103 is another field (or word 4 is zero)
  }
  const uint64_t stream = readField(write.words, LleField::Stage14CopyStream);
  bool afterItsRead = true;
  for (unsigned t = 0; t < kTiles; ++t) {
    if ((write.tileMask & (1u << t)) && lastReadStream_[t] != stream) afterItsRead = false;
  }
  const uint64_t tileRead = readField(write.words, LleField::Stage14TakesTileRead);
  const uint64_t delivered = readField(write.words, LleField::Stage14TakesDelivered);
  if (tileRead == (afterItsRead ? 1u : 0u) && delivered == (afterItsRead ? 0u : 1u)) return "";
  return "opcode 0x14 at " + models::describePacketLocation(write.pc, write.words[0]) +
         ": Stage14TakesTileRead (word 4 bit 103) = " + std::to_string(tileRead) + ", Stage14TakesDelivered (word 4 bit 104) = " +
         std::to_string(delivered) + " where the packet just before it on " +
         (afterItsRead ? std::string("every one of its tiles is a 0x13 of its stream ")
                       : std::string("some tile is not a 0x13 of its stream ")) +
         std::to_string(stream) + " (Stage14CopyStream): the bits are one-hot and say exactly that in every corpus staging "
         "write (88 / 3,513); this pairing is not decoded";
}

std::string ReadCopyWatch::checkFeedingCopy(const models::DecodedPacket& write, bool copiesOnEveryTile) const {
  if (readField(write.words, LleField::Stage14FeedsCompute) == 0) return "";
  const bool copyForm = takesTheReadBeforeIt(write.words);
  if (copyForm == copiesOnEveryTile) return "";
  return "opcode 0x14 at " + models::describePacketLocation(write.pc, write.words[0]) + ": a compute-feeding write with " +
         fieldText(LleField::Stage14CopyInnerLevel, copyForm ? 0 : 1) + (copiesOnEveryTile ? " takes" : " does not take, on every one of its tiles,") +
         " the copy-marked read of stream " + std::to_string(readField(write.words, LleField::Stage14CopyStream)) +
         " just before it on its tiles: bit 78 is clear exactly in the corpus writes that copy such a read (9 / 9, set in "
         "2,052 / 2,052 others; docs/decoding-log.md \"mnv1c\" §A)";
}

std::string ReadCopyWatch::finish() const {
  for (unsigned t = 0; t < kTiles; ++t) {
    if (pending_[t]) return refusal(pending_[t]->pc, pending_[t]->word0, pending_[t]->channel, t, "the chunk ends first");
  }
  return "";
}

void ReadCopyWatch::clear() {
  for (auto& p : pending_) p.reset();
  for (auto& r : lastReadStream_) r.reset();
  lastWasCopy_ = false;
}

}  // namespace coralsim::lle
