// The opcode table (opcodes.def) as C++: the Opcode enum, per-opcode facts (length, class, field
// groups, mnemonic, confidence) and the lookups the segmenter, decoder and printers use.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/isa/confidence.h"
#include "models/isa/word128.h"

namespace coralsim::isa {

// What kind of work a packet is; drives the printers and the frame checks.
enum class PacketClass : uint8_t {
  Unknown,  // an op6 value compiled code does not use: no known length
  ScalarBundle,
  Halt,
  Branch,
  Loop,
  ScalarSync,
  ScalarInfeed,
  ScalarPop,
  ScalarOutfeed,
  FrameStart,
  FrameEnd,
  TileSync,
  TileDma,
  TileCompute,
  TileNlu,
};

// Groups of rows in packet_fields.def; an opcode carries up to three of them.
enum class FieldGroup : uint8_t {
  None,
  Halt,
  Branch,
  Loop,
  FrameLength,
  ScalarSync,
  ScalarInfeed,
  ScalarPop,
  ScalarOutfeed,
  TileMask,
  TileSeq28,
  TileSeq46,
  ComputeEpilogue,
  NluTable,
  Count,
};

// The op6 value (bits 11:6 of a packet's first word). Values without an enumerator are unknown
// opcodes; the enum has a fixed underlying type, so every 0..63 value is representable.
enum class Opcode : uint8_t {
#define CORAL_OPCODE(value, id, words, cls, g1, g2, g3, mnemonic, conf, description) id = value,
#include "models/isa/opcodes.def"
#undef CORAL_OPCODE
};

struct OpcodeInfo {
  uint8_t value = 0;
  std::string_view id;        // enumerator name ("TileCompute"); "" when unknown
  uint8_t words = 0;          // packet length in 128-bit words; 0 = unknown opcode
  PacketClass cls = PacketClass::Unknown;
  std::array<FieldGroup, 3> groups{FieldGroup::None, FieldGroup::None, FieldGroup::None};
  std::string_view mnemonic;  // assembly mnemonic; "" when unknown
  Confidence confidence = Confidence::Unknown;
  std::string_view description = "not used by compiled programs; meaning and length unknown";

  [[nodiscard]] constexpr bool known() const { return words != 0; }
};

inline constexpr unsigned kOpcodeCount = 64;

inline constexpr std::array<OpcodeInfo, kOpcodeCount> kOpcodeTable = [] {
  std::array<OpcodeInfo, kOpcodeCount> table{};
  for (unsigned v = 0; v < kOpcodeCount; ++v) table[v].value = static_cast<uint8_t>(v);
#define CORAL_OPCODE(value, id_, words_, cls_, g1, g2, g3, mnemonic_, conf, description_) \
  table[value] = OpcodeInfo{value,                                                       \
                            #id_,                                                        \
                            words_,                                                      \
                            PacketClass::cls_,                                           \
                            {FieldGroup::g1, FieldGroup::g2, FieldGroup::g3},            \
                            mnemonic_,                                                   \
                            Confidence::conf,                                            \
                            description_};
#include "models/isa/opcodes.def"
#undef CORAL_OPCODE
  return table;
}();

[[nodiscard]] constexpr const OpcodeInfo& opcodeInfo(Opcode op) {
  return kOpcodeTable[static_cast<uint8_t>(op) & (kOpcodeCount - 1)];
}

// The opcode of a packet whose first word is `w`.
[[nodiscard]] constexpr Opcode opcodeOf(const Word128& w) {
  return static_cast<Opcode>(w.bits(6, 6));
}

// Packet length in words; 0 for an unknown opcode.
[[nodiscard]] constexpr unsigned packetLength(Opcode op) { return opcodeInfo(op).words; }

[[nodiscard]] constexpr PacketClass packetClass(Opcode op) { return opcodeInfo(op).cls; }

// Tile packets (0x01–0x1a) carry a tile mask and a tile sequence number.
[[nodiscard]] constexpr bool isTilePacket(Opcode op) {
  const PacketClass c = packetClass(op);
  return c == PacketClass::TileSync || c == PacketClass::TileDma || c == PacketClass::TileCompute ||
         c == PacketClass::TileNlu;
}

// The opcode whose mnemonic is `mnemonic`, if any.
[[nodiscard]] std::optional<Opcode> opcodeByMnemonic(std::string_view mnemonic);

// "tile.compute" for known opcodes, "op 0x04" for unknown ones (for messages).
[[nodiscard]] std::string opcodeDisplayName(Opcode op);

}  // namespace coralsim::isa
