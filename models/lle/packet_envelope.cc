#include "models/lle/packet_envelope.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <span>
#include <vector>

#include "models/isa/opcodes.h"
#include "models/lle/field_relations.h"
#include "models/lle/kept_stream_write.h"
#include "models/lle/lle_fields.h"
#include "models/lle/max_pool_form.h"
#include "models/lle/unrequantised_copy.h"

namespace coralsim::lle {

namespace {

struct EnvelopeRow {
  uint8_t opcode;
  uint8_t word;
  isa::Word128 value;
};

#define CORAL_LLE_ENVELOPE(op, word, hi, lo) EnvelopeRow{op, word, isa::Word128{lo, hi}},
constexpr EnvelopeRow kShippedEnvelope[] = {
#include "models/lle/lle_envelope.def"
};
constexpr EnvelopeRow kDecodeSetEnvelope[] = {
#include "models/lle/lle_envelope_decode_set.def"
};
#undef CORAL_LLE_ENVELOPE

std::span<const EnvelopeRow> envelopeRows(EnvelopeSet set) {
  if (set == EnvelopeSet::kDecodeSet) return kDecodeSetEnvelope;
  return kShippedEnvelope;
}

const char* envelopeFile(EnvelopeSet set) {
  return set == EnvelopeSet::kDecodeSet ? "models/lle/lle_envelope_decode_set.def" : "models/lle/lle_envelope.def";
}

constexpr uint8_t kAccepted[] = {0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x24, 0x25, 0x26, 0x27};
constexpr unsigned kMaxWords = 17;

// Sets the bits of every element of `f` in `masks` (one Word128 per packet word).
void addFieldBits(const LleFieldDef& f, std::span<isa::Word128> masks) {
  for (unsigned e = 0; e < f.count; ++e) {
    for (unsigned b = f.lsb + e * f.stride; b < f.lsb + e * f.stride + f.width; ++b) {
      if (b / 128 < masks.size()) masks[b / 128].setBits(b % 128, 1, 1);
    }
  }
}

bool formatDependent(LleField field) {
  return std::ranges::any_of(fieldFormats(), [&](const FieldFormat& f) { return f.field == field; });
}

// Fields decoded only as a copy of a partner packet, and the copy's named parts (lle_partner_copies.def):
// pinned unless the caller compares them with the partner.
constexpr LleField kPartnerCopies[] = {
#define CORAL_LLE_PARTNER_COPY(field, partner) LleField::field,
#define CORAL_LLE_PARTNER_COPY_PART(part) LleField::part,
#include "models/lle/lle_partner_copies.def"
#undef CORAL_LLE_PARTNER_COPY_PART
#undef CORAL_LLE_PARTNER_COPY
};

bool partnerCopy(LleField field) { return std::ranges::find(kPartnerCopies, field) != std::end(kPartnerCopies); }

// Per opcode and word: the bits decoded in every packet of the opcode (union of the
// lle_fields.def rows without a CORAL_LLE_FORMAT condition).
struct DecodedMasks {
  std::array<std::array<isa::Word128, kMaxWords>, 64> masks{};

  DecodedMasks() {
    for (size_t i = 0; i < std::size(kLleFields); ++i) {
      if (formatDependent(static_cast<LleField>(i)) || partnerCopy(static_cast<LleField>(i))) continue;
      addFieldBits(kLleFields[i], masks[kLleFields[i].opcode & 63]);
    }
  }
};

const DecodedMasks& decodedMasks() {
  static const DecodedMasks masks;
  return masks;
}

std::string hex128(const isa::Word128& w) {
  char text[40];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(w.hi),
                static_cast<unsigned long long>(w.lo));
  return text;
}

// The runs of set bits of `diff`, high first: "bits 102:101, 64".
std::string bitRuns(const isa::Word128& diff) {
  std::string text;
  for (int b = 127; b >= 0;) {
    if (!diff.bits(static_cast<unsigned>(b), 1)) {
      --b;
      continue;
    }
    const int hi = b;
    while (b >= 0 && diff.bits(static_cast<unsigned>(b), 1)) --b;
    if (!text.empty()) text += ", ";
    text += std::to_string(hi);
    if (b + 1 != hi) text += ":" + std::to_string(b + 1);
  }
  return text;
}

}  // namespace

bool acceptedOpcode(uint8_t opcode) { return std::ranges::find(kAccepted, opcode) != std::end(kAccepted); }

isa::Word128 decodedBits(uint8_t opcode, unsigned word) {
  return word < kMaxWords ? decodedMasks().masks[opcode & 63][word] : isa::Word128{};
}

isa::Word128 envelopeValue(uint8_t opcode, unsigned word) {
  for (const EnvelopeRow& row : kShippedEnvelope) {
    if (row.opcode == opcode && row.word == word) return row.value;
  }
  return {};
}

std::string checkEnvelope(const models::DecodedPacket& packet, EnvelopeSet set, PartnerBits partnerBits) {
  const uint8_t op = static_cast<uint8_t>(packet.opcode);
  const std::string where = "opcode 0x" + [&] {
    char t[8];
    std::snprintf(t, sizeof t, "%02x", op);
    return std::string(t);
  }() + " (" + std::string(isa::opcodeInfo(packet.opcode).mnemonic) + ") at " +
                            models::describePacketLocation(packet.pc, packet.words[0]);
  if (!acceptedOpcode(op)) return where + ": the low-level datapath does not model this opcode";
  // The decoded bits of this packet: those of every format, and the format-dependent fields that
  // are present in this packet's format.
  // The max pool's 0x02 is laid out as an 0x01 compute (max_pool_form.h): its decoded bits and relations are 0x01's,
  // its rows its own opcode's.
  const uint8_t layout = layoutOpcode(op, packet.words);
  std::array<isa::Word128, kMaxWords> masks{};
  for (unsigned k = 0; k < packet.words.size() && k < kMaxWords; ++k) masks[k] = decodedBits(layout, k);
  for (const FieldFormat& f : fieldFormats()) {
    const LleFieldDef& def = fieldDef(f.field);
    // A partner copy of one form stays pinned in it too: only the comparison with its partner sets it aside.
    if (def.opcode == layout && !partnerCopy(f.field) && fieldPresent(f.field, packet.words)) {
      addFieldBits(def, std::span(masks).first(std::min<size_t>(packet.words.size(), kMaxWords)));
    }
  }
  // The unrequantised copy's word 12 (docs/decoding-log.md "copy117") is read whole: the rung refuses
  // the copy unless all of it is zero (unrequantised_copy.h), so no bit of it is left to the envelope.
  if (op == 0x01 && packet.words.size() > kRequantisationWord && isUnrequantisedCopy(packet.words)) {
    masks[kRequantisationWord] = isa::Word128{~0ull, ~0ull};
  }
  // The kept-stream write's words 4 and 5 (docs/decoding-log.md "dma14") are read whole too: its form is both
  // zero, and the rung refuses any set bit of them (lle_rung_kept_stream.cc).
  if (op == 0x14 && isKeptStreamWrite(packet.words)) {
    for (const unsigned k : kKeptStreamWriteZeroWords) masks[k] = isa::Word128{~0ull, ~0ull};
  }
  // The partner-copy bits set aside: cleared in the packet and in the rows, which keep the
  // templates' values of them (pinned, the other mode).
  std::array<isa::Word128, kMaxWords> setAside{};
  if (partnerBits == PartnerBits::kComparedWithPartner) {
    for (const LleField field : kPartnerCopies) {
      const LleFieldDef& def = fieldDef(field);
      if (def.opcode == op) addFieldBits(def, std::span(setAside).first(std::min<size_t>(packet.words.size(), kMaxWords)));
    }
    for (unsigned k = 0; k < kMaxWords; ++k) masks[k] = isa::Word128{masks[k].lo | setAside[k].lo, masks[k].hi | setAside[k].hi};
  }
  for (unsigned k = 0; k < packet.words.size(); ++k) {
    const isa::Word128 mask = k < kMaxWords ? masks[k] : isa::Word128{};
    const isa::Word128 aside = k < kMaxWords ? setAside[k] : isa::Word128{};
    const isa::Word128 value{packet.words[k].lo & ~mask.lo, packet.words[k].hi & ~mask.hi};
    bool found = false;
    const EnvelopeRow* nearest = nullptr;
    int nearestDistance = 129;
    for (const EnvelopeRow& row : envelopeRows(set)) {
      if (row.opcode != op || row.word != k) continue;
      // A row keeps the values of the bits undecoded in the packets it came from; where this packet decodes a
      // field (another form of the opcode, e.g. the receive's execution-only and parameter forms) they pin nothing.
      const isa::Word128 pinned{row.value.lo & ~aside.lo & ~mask.lo, row.value.hi & ~aside.hi & ~mask.hi};
      const int distance = std::popcount(pinned.lo ^ value.lo) + std::popcount(pinned.hi ^ value.hi);
      if (distance == 0) {
        found = true;
        break;
      }
      if (distance < nearestDistance) {
        nearestDistance = distance;
        nearest = &row;
      }
    }
    if (!found) {
      const isa::Word128 diff =
          nearest ? isa::Word128{(nearest->value.lo & ~aside.lo & ~mask.lo) ^ value.lo,
                                 (nearest->value.hi & ~aside.hi & ~mask.hi) ^ value.hi}
                  : value;
      return where + ": word " + std::to_string(k) + " = " + hex128(packet.words[k]) + ": bits " + bitRuns(diff) +
             " have no decoded meaning and differ from the envelope (" + envelopeFile(set) + ")";
    }
  }
  if (std::string why = checkFieldRelations(layout, packet.words); !why.empty()) return where + ": " + why;
  return "";
}

}  // namespace coralsim::lle
