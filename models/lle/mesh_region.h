#pragma once
// The region of a mesh packet (0x15-0x18; docs/decoding-log.md "mesh16", "meshw3" §C, "meshregion"): w3[127:97]
// and w4 after the two sides' flags. Its on bit (w3 bit 120, repeated at w4 bit 8) says it is there; it names a
// mesh bus (w3[99:97], opcode - 0x12: a relay names its own) and carries a form, a count and 16-bit groups that
// pace the transfer on that bus, two more of them in its wide form (w4[95:64], "w4x"), five in its wider form (w4[127:64], w5[15:0], "wider"). None of it is an address:
// the bytes a side moves are its nest's, so in the rung's serial execution -- packets one at a time, halves
// paired in program order -- the region moves no byte. What the rung cannot read is refused by name: region
// bits without the on bit, a mark that disagrees, a bus number that is no mesh bus, a relay naming another bus
// than its own.

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct MeshRegionLayout {
  LleField on, link, form, count, mark, code, pace, widePace, widerPace;
};

// The first mesh bus number (0x15's); the four opcodes 0x15-0x18 are 3-6.
inline constexpr uint8_t kMeshFirstBus = 3;
inline constexpr uint8_t kMeshFirstOpcode = 0x15;

// The bus a mesh opcode names in its region's link field (opcode - 0x12).
[[nodiscard]] constexpr uint64_t meshBusOf(uint8_t opcode) { return opcode - kMeshFirstOpcode + kMeshFirstBus; }

// Why the rung cannot read the packet's region, or nullopt. `relay`: both sides walk the same units
// (docs/decoding-log.md "meshw3" §B), which in every corpus relay name the relay's own bus.
[[nodiscard]] inline std::optional<std::string> meshRegionConflict(std::span<const isa::Word128> words, const MeshRegionLayout& r,
                                                                   uint8_t opcode, bool relay) {
  const uint64_t on = readField(words, r.on);
  if (const uint64_t mark = readField(words, r.mark); mark != on) {
    return fieldText(r.mark, mark) + " while " + fieldText(r.on, on) + ": the two marks of the region disagree, never seen";
  }
  if (on == 0) {
    for (const LleField field : {r.link, r.form, r.count, r.code}) {
      if (const uint64_t value = readField(words, field); value != 0) {
        return fieldText(field, value) + " without " + std::string(fieldDef(r.on).name) + ": region bits of a packet without one, never seen";
      }
    }
    const auto groupWithoutRegion = [&](LleField groups) -> std::optional<std::string> {
      for (unsigned i = 0; i < fieldDef(groups).count; ++i) {
        if (const uint64_t value = readField(words, groups, i); value != 0) {
          return fieldText(groups, value, i) + " without " + std::string(fieldDef(r.on).name) +
                 ": region bits of a packet without one, never seen";
        }
      }
      return std::nullopt;
    };
    if (auto why = groupWithoutRegion(r.pace)) return why;
    if (auto why = groupWithoutRegion(r.widePace)) return why;
    if (auto why = groupWithoutRegion(r.widerPace)) return why;
    return std::nullopt;
  }
  const uint64_t link = readField(words, r.link);
  if (link != 0 && (link < kMeshFirstBus || link > meshBusOf(0x18))) {
    return fieldText(r.link, link) + " names no mesh bus (3-6 are 0x15-0x18, 0 none)";
  }
  if (relay && link != meshBusOf(opcode)) {
    return fieldText(r.link, link) + " on a relay, which names its own bus " + std::to_string(meshBusOf(opcode)) +
           " in every corpus relay (903 / 903): a relay paced on another bus is not decoded";
  }
  return std::nullopt;
}

}  // namespace coralsim::lle
