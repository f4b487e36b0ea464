// What the lle rung's field table says about one packet, for people studying the bitstream
// (`coralsim disasm --fields`): each declared field with its value, and the bits that are set
// but covered by no declared field — the ones still to decode. Read from the same table the rung
// uses (lle_fields.def), so the listing never disagrees with what the rung executes.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "models/isa/word128.h"

namespace coralsim::lle {

struct PacketFieldListing {
  // "Name=value" per present field (elements of a repeated field joined by commas), in table order.
  std::vector<std::string> fields;
  // "wK[hi:lo]" / "wK[b]" ranges of set bits no present field covers, word by word.
  std::vector<std::string> undecodedBits;
};

// Empty when the packet's opcode has no row in the table (scalar bundles, control packets).
[[nodiscard]] PacketFieldListing listPacketFields(std::span<const isa::Word128> packet);

}  // namespace coralsim::lle
