#include "models/lle/kept_operand_read.h"

#include "models/lle/lle_fields.h"
#include "models/lle/routed_read_mark.h"

namespace coralsim::lle {

bool nextComputeTakesKeptOperand(std::span<const models::DecodedPacket> packets, size_t index) {
  const models::DecodedPacket& read = packets[index];
  if (!isTakenByCompute(read) || readField(read.words, LleField::Stage13FeedsReduction) == 0) return false;
  const uint64_t channel = readField(read.words, LleField::Stage13Channel);
  uint32_t unseen = read.tileMask;  // tiles whose next compute is still to come
  for (size_t i = index + 1; i < packets.size() && unseen != 0; ++i) {
    const models::DecodedPacket& p = packets[i];
    if (p.action != models::PacketAction::kIssue || !p.tilePacket || static_cast<uint8_t>(p.opcode) != 0x01 || (p.tileMask & unseen) == 0) continue;
    if (readField(p.words, LleField::ComputeStreamTag) != channel || readField(p.words, LleField::ComputeWideWeights) == 0) return false;
    unseen &= ~p.tileMask;
  }
  return unseen == 0;
}

}  // namespace coralsim::lle
