#include "models/lle/field_listing.h"

#include <array>

#include "models/isa/opcodes.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {
namespace {

// "w3[127:126]" or "w3[103]".
std::string bitRange(unsigned word, unsigned hi, unsigned lo) {
  std::string text = "w" + std::to_string(word) + "[" + std::to_string(hi);
  if (hi != lo) text += ":" + std::to_string(lo);
  return text + "]";
}

}  // namespace

PacketFieldListing listPacketFields(std::span<const isa::Word128> packet) {
  PacketFieldListing listing;
  if (packet.empty()) return listing;
  const auto opcode = static_cast<uint8_t>(isa::opcodeOf(packet[0]));
  // Which bits of each word the present fields cover (a packet has at most 17 words).
  std::vector<std::array<bool, 128>> covered(packet.size());
  for (size_t i = 0; i < std::size(kLleFields); ++i) {
    const LleFieldDef& def = kLleFields[i];
    const auto field = static_cast<LleField>(i);
    if (def.opcode != opcode) continue;
    const uint32_t lastBit = def.lsb + (def.count - 1u) * def.stride + def.width;
    if (lastBit > packet.size() * 128u) continue;  // a longer form of the opcode than this packet
    if (!fieldPresent(field, packet)) continue;
    std::string text = std::string(def.name) + "=";
    for (unsigned e = 0; e < def.count; ++e) {
      if (e != 0) text += ",";
      text += std::to_string(readField(packet, field, e));
      const uint32_t lsb = def.lsb + e * def.stride;
      for (uint32_t b = lsb; b < lsb + def.width; ++b) covered[b / 128][b % 128] = true;
    }
    listing.fields.push_back(std::move(text));
  }
  if (listing.fields.empty()) return listing;
  // The opcode itself (w0[11:6], isa::opcodeOf) is known, not a field to decode.
  for (unsigned b = 6; b < 12; ++b) covered[0][b] = true;
  for (unsigned w = 0; w < packet.size(); ++w) {
    // Runs of set, uncovered bits, from the top bit down as the disassembly prints words.
    int hi = -1;
    for (int b = 127; b >= -1; --b) {
      const bool open = b >= 0 && !covered[w][static_cast<unsigned>(b)] && packet[w].bits(static_cast<unsigned>(b), 1) != 0;
      if (open && hi < 0) hi = b;
      if (!open && hi >= 0) {
        listing.undecodedBits.push_back(bitRange(w, static_cast<unsigned>(hi), static_cast<unsigned>(b + 1)));
        hi = -1;
      }
    }
  }
  return listing;
}

}  // namespace coralsim::lle
