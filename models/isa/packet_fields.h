// The named fields of non-bundle packets (packet_fields.def) as constexpr arrays, and lookups by
// field group and by opcode.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "models/isa/field.h"
#include "models/isa/opcodes.h"

namespace coralsim::isa {

inline constexpr ValueName kHaltKindNames[] = {{0x10, "final"}, {0x04, "chunk"}};

#define CORAL_BIT(word, bit) ((word) * 128u + (bit))

inline constexpr FieldGroup kPacketFieldGroups[] = {
#define CORAL_PACKET_FIELD(group, ...) FieldGroup::group,
#include "models/isa/packet_fields.def"
#undef CORAL_PACKET_FIELD
};

inline constexpr FieldDef kPacketFields[] = {
#define CORAL_PACKET_FIELD(group, name, lsb, width, count, stride, format, flags, def, parent, view, conf, \
                           meaning, names)                                                            \
  FieldDef{name,   lsb,  width,            count,   stride, FieldFormat::format, flags, def,           \
           parent, view, Confidence::conf, meaning, names},
#include "models/isa/packet_fields.def"
#undef CORAL_PACKET_FIELD
};

#undef CORAL_BIT

static_assert(std::size(kPacketFieldGroups) == std::size(kPacketFields));

// The rows of one group (rows of a group are contiguous in the .def; checked below).
[[nodiscard]] constexpr std::span<const FieldDef> fieldsOfGroup(FieldGroup group) {
  size_t first = std::size(kPacketFields);
  size_t count = 0;
  for (size_t i = 0; i < std::size(kPacketFields); ++i) {
    if (kPacketFieldGroups[i] != group) continue;
    if (count == 0) first = i;
    ++count;
  }
  if (count == 0) return {};
  return std::span<const FieldDef>(kPacketFields).subspan(first, count);
}

[[nodiscard]] constexpr bool packetFieldGroupsAreContiguous() {
  for (size_t i = 0; i < std::size(kPacketFields); ++i) {
    for (size_t j = i + 2; j < std::size(kPacketFields); ++j) {
      if (kPacketFieldGroups[i] == kPacketFieldGroups[j] &&
          kPacketFieldGroups[j - 1] != kPacketFieldGroups[i]) {
        return false;
      }
    }
  }
  return true;
}
static_assert(packetFieldGroupsAreContiguous(), "rows of one field group must be adjacent");

// All named fields of a packet with opcode `op`, in table order (at most kMaxPacketFields).
inline constexpr size_t kMaxPacketFields = 16;
struct PacketFieldList {
  std::array<const FieldDef*, kMaxPacketFields> items{};
  size_t size = 0;

  [[nodiscard]] constexpr const FieldDef* const* begin() const { return items.data(); }
  [[nodiscard]] constexpr const FieldDef* const* end() const { return items.data() + size; }
};

[[nodiscard]] constexpr PacketFieldList packetFields(Opcode op) {
  PacketFieldList list;
  for (FieldGroup g : opcodeInfo(op).groups) {
    if (g == FieldGroup::None) continue;
    for (const FieldDef& f : fieldsOfGroup(g)) {
      if (list.size < kMaxPacketFields) list.items[list.size++] = &f;
    }
  }
  return list;
}

[[nodiscard]] constexpr const FieldDef* findPacketField(Opcode op, std::string_view name) {
  for (const FieldDef* f : packetFields(op)) {
    if (f->name == name) return f;
  }
  return nullptr;
}

// The tile sequence number of a tile packet whose first word is `w`; nullopt for other packets.
[[nodiscard]] constexpr std::optional<uint32_t> tileSequenceNumber(const Word128& w) {
  const Opcode op = opcodeOf(w);
  if (!isTilePacket(op)) return std::nullopt;
  const FieldDef* seq = findPacketField(op, "seq");
  if (seq == nullptr) return std::nullopt;
  return static_cast<uint32_t>(w.bits(seq->lsb, seq->width));
}

// Width of the tile sequence field: sequence numbers compare modulo 2^width.
[[nodiscard]] constexpr unsigned tileSequenceWidth() {
  return fieldsOfGroup(FieldGroup::TileSeq46).front().width;
}

}  // namespace coralsim::isa
