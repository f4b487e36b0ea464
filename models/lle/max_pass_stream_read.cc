#include "models/lle/max_pass_stream_read.h"

#include <cstdint>

#include "models/isa/number_text.h"
#include "models/lle/lle_fields.h"
#include "models/lle/max_pool_form.h"
#include "models/lle/routed_read_mark.h"

namespace coralsim::lle {

namespace {

constexpr uint8_t kTileFence = 0x1a;

bool isCompute(uint8_t op) { return op == 0x01 || op == 0x02 || op == 0x03; }

}  // namespace

bool isMaxPassStreamReadForm(const models::DecodedPacket& read) {
  return isTakenByCompute(read) && readField(read.words, LleField::Stage13FeedsReduction) == 0;
}

std::string maxPassStreamReadProblem(std::span<const models::DecodedPacket> packets, size_t index) {
  const models::DecodedPacket& read = packets[index];
  if (!isMaxPassStreamReadForm(read)) return "not a read taken by a compute with Stage13FeedsReduction clear";
  const uint64_t channel = readField(read.words, LleField::Stage13Channel);
  const uint64_t readBytes = 4 * (readField(read.words, LleField::Stage13SlotBeats) + 1);  // 4-byte beats ("loom35" §B)
  uint32_t unseen = read.tileMask;  // tiles whose next compute is still to come
  for (size_t i = index + 1; i < packets.size() && unseen != 0; ++i) {
    const models::DecodedPacket& p = packets[i];
    const auto op = static_cast<uint8_t>(p.opcode);
    if (p.action != models::PacketAction::kIssue || !p.tilePacket || op == kTileFence || !isCompute(op) || (p.tileMask & unseen) == 0) continue;
    const std::string at = "the next compute on its tiles, opcode " + isa::formatHex(op, 2) + " at PC 0x" + isa::formatAddress(p.pc);
    if (op != 0x02 || isMaxPoolForm(op, p.words)) return at + ", is no max pass of the softmax form (Max02Lanes 1 or 4)";
    if (p.tileMask != read.tileMask) return at + ", runs on tiles " + isa::formatHex(p.tileMask) + ", not the read's " + isa::formatHex(read.tileMask);
    if (const uint64_t tag = readField(p.words, LleField::Max02StreamTag); tag != channel) {
      return at + ", reduces stream " + std::to_string(tag) + " (Max02StreamTag), not the read's " + std::to_string(channel);
    }
    const uint64_t passBytes = (readField(p.words, LleField::Max02Groups) + 1) * readField(p.words, LleField::Max02Lanes);
    if (passBytes != readBytes) {
      return at + ", walks " + std::to_string(passBytes) + " bytes ((Max02Groups + 1) x Max02Lanes); the read names " +
             std::to_string(readBytes) + " (4 x (Stage13SlotBeats + 1))";
    }
    unseen &= ~p.tileMask;
  }
  if (unseen != 0) return "no compute follows it on tiles " + isa::formatHex(unseen);
  return "";
}

}  // namespace coralsim::lle
