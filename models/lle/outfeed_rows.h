// How a nested 0x27's groups travel (lle_fields.def OutfeedLines, OutfeedWholeLines, OutfeedLastBeatLines,
// OutfeedBeatsWrap; docs/decoding-log.md "loop27" §A): N = OutfeedLines + 1 4-byte groups go as
// floor(N / 2) whole 8-byte lines, 32 lines to a 256-byte beat, then a half line where N is odd. The
// packet says so three times over in each slot of its nest — whether the lines are whole, the lines of
// the last beat negated, the beats negated: the wraps of a line loop inside a beat loop — and the rung
// executes only a packet whose slots agree with its count (all 1,513 corpus nested 0x27s do).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

inline constexpr uint64_t kOutfeedLinesABeat = 32;  // 8-byte lines in a 256-byte beat
inline constexpr uint64_t kOutfeedGroupsABeat = 2 * kOutfeedLinesABeat;

struct OutfeedRows {
  uint64_t groups = 0;  // 4-byte groups of one row (OutfeedLines + 1)

  [[nodiscard]] uint64_t bytes() const { return groups * 4; }
  [[nodiscard]] uint64_t wholeLines() const { return groups / 2; }
  [[nodiscard]] bool endsOnAHalfLine() const { return groups % 2 != 0; }
  [[nodiscard]] uint64_t beats() const { return (wholeLines() + kOutfeedLinesABeat - 1) / kOutfeedLinesABeat; }
  // Whether the row ends on a beat boundary: what follows it in the same send starts a new beat.
  [[nodiscard]] bool wholeBeats() const { return groups % kOutfeedGroupsABeat == 0; }

  [[nodiscard]] static OutfeedRows of(std::span<const isa::Word128> words) { return {readField(words, LleField::OutfeedLines) + 1}; }

  // Empty when every slot's line and beat fields agree with the count; else the first that does not,
  // named with its word, bits, value and the value the count gives.
  [[nodiscard]] std::string slotProblem(std::span<const isa::Word128> words) const {
    const auto expected = [&](LleField field) -> uint64_t {
      const uint64_t mask = (uint64_t{1} << fieldDef(field).width) - 1;
      switch (field) {
        case LleField::OutfeedWholeLines: return endsOnAHalfLine() ? 0 : 1;
        case LleField::OutfeedLastBeatLines: return (0 - wholeLines() % kOutfeedLinesABeat) & mask;
        default: return (0 - beats()) & mask;
      }
    };
    for (const LleField field : {LleField::OutfeedWholeLines, LleField::OutfeedLastBeatLines, LleField::OutfeedBeatsWrap}) {
      const LleFieldDef& f = fieldDef(field);
      for (unsigned e = 0; e < f.count; ++e) {
        const uint64_t value = readField(words, field, e);
        if (value == expected(field)) continue;
        const uint32_t lsb = (f.lsb + e * f.stride) % 128;
        const std::string bits = f.width == 1 ? "bit " + std::to_string(lsb) : "bits " + std::to_string(lsb + f.width - 1) + ":" + std::to_string(lsb);
        return std::string(f.name) + "[" + std::to_string(e) + "] (word 0 " + bits + ") = " + std::to_string(value) + "; " +
               std::to_string(groups) + " groups (OutfeedLines + 1) are " + std::to_string(wholeLines()) + " whole 8-byte lines" +
               (endsOnAHalfLine() ? " and a half line" : "") + " in " + std::to_string(beats()) + " beats, which give " +
               std::to_string(expected(field)) + " (as in all 1,513 corpus nested 0x27s)";
      }
    }
    return {};
  }
};

}  // namespace coralsim::lle
