#pragma once
// The pass-through form of a mesh packet (docs/decoding-log.md "nin16"): 356 corpus packets of the four mesh opcodes
// (0x15 24, 0x16 85, 0x17 170, 0x18 77; nin_cnn, ensemble, MobileNet v1 x5, deeplab slim / pascal) have both sides' level-0
// strides 0, and they alone: flags 1 on both sides (on a side whose stride is 0 the flags are 0 in every other corpus
// packet), both run masks 0, both slots' bits above the level bits 4 (slot bit 6; 356 / 356, in no other packet), one
// address and one nest on both sides, and the region on, naming the packet's own bus. In nin_cnn they sit on the tiles
// between a send-only packet and a receive-only one a hop further on: tiles 8-11 send 3 units towards tiles 4-7
// (0x17 @ 0x0a42), tiles 4-7 hold the pass-through (@ 0x0a48), and tiles 0-3 receive 3 units from the far row (@ 0x0a4e
// ...): the gather of conv2d_26's sixteen positions into tile 0's column for the average pool. Read (Guess): the tiles
// forward the stream that arrives towards them to their neighbour on the same bus without writing it -- no side walks,
// so no byte of their narrow memory moves. The nest's units are checked against the stream's length.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"
#include "models/lle/mesh_sides.h"

namespace coralsim::lle {

// The slot bits above the level bits that mark a pass-through side (slot bit 6).
inline constexpr uint64_t kMeshPassThroughMarks = 0x4;

// Both sides off (level-0 stride 0) and both marked: the pass-through form's shape, not yet checked.
[[nodiscard]] inline bool isMeshPassThroughForm(std::span<const isa::Word128> words, const MeshLayout& m) {
  return readField(words, m.sendStride) == 0 && readField(words, m.recvStride) == 0 &&
         meshRingMarks(words, m.sendRingMarks) == kMeshPassThroughMarks && meshRingMarks(words, m.recvRingMarks) == kMeshPassThroughMarks;
}

// Why the rung cannot read the pass-through packet, or nullopt: the form's other fields as every corpus one has them.
[[nodiscard]] inline std::optional<std::string> meshPassThroughConflict(std::span<const isa::Word128> words, const MeshLayout& m,
                                                                        uint8_t opcode) {
  const std::string form = " in the pass-through form (both strides 0, both slots marked 4): ";
  if (readField(words, m.fill) != 0) return fieldText(m.fill, readField(words, m.fill)) + form + "a fill, never seen";
  if (meshLevelMask(words, m.sendLevelOn) != 0 || meshLevelMask(words, m.recvLevelOn) != 0) {
    return std::string(fieldDef(m.sendLevelOn).name) + " / " + std::string(fieldDef(m.recvLevelOn).name) + " run a level" + form +
           "every corpus one runs none (356 / 356)";
  }
  if (readField(words, m.sendAt4) != readField(words, m.recvAt4)) {
    return std::string(fieldDef(m.sendAt4).name) + " != " + std::string(fieldDef(m.recvAt4).name) + form + "one address in 356 / 356";
  }
  for (unsigned i = 0; i < 4; ++i) {
    if (readField(words, m.sendLimit, i) != readField(words, m.recvLimit, i)) {
      return fieldText(m.sendLimit, readField(words, m.sendLimit, i), i) + " != " + fieldText(m.recvLimit, readField(words, m.recvLimit, i), i) +
             form + "one nest in 356 / 356";
    }
  }
  for (unsigned i = 0; i < 3; ++i) {
    if (readField(words, m.sendCarry, i) != 0 || readField(words, m.recvCarry, i) != 0) {
      return std::string(fieldDef(m.sendCarry).name) + " / " + std::string(fieldDef(m.recvCarry).name) + " not 0" + form +
             "no side walks (356 / 356)";
    }
  }
  if (readField(words, m.sendLast.on) != 0 || readField(words, m.recvLast.on) != 0) {
    return std::string("a shorter last repetition") + form + "never seen";
  }
  if (readField(words, m.region.on) == 0 || readField(words, m.region.link) != meshBusOf(opcode)) {
    return fieldText(m.region.link, readField(words, m.region.link)) + form + "every corpus one names its own bus " +
           std::to_string(meshBusOf(opcode)) + " (356 / 356)";
  }
  return std::nullopt;
}

// The units the stream through the packet carries: the product of its nest's counts (one side's; both are equal).
[[nodiscard]] inline uint64_t meshPassThroughUnits(std::span<const isa::Word128> words, const MeshLayout& m) {
  uint64_t units = 1;
  for (unsigned i = 0; i < 4; ++i) units *= readField(words, m.recvLimit, i) + 1;
  return units;
}

}  // namespace coralsim::lle
