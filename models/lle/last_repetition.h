#pragma once
// A TTU nest's shorter last repetition (docs/decoding-log.md "oldrecv" §A for the execution-only 0x11,
// "short18" for the mesh sides 0x15-0x18): a flag, the level-0 limit of the walk's last pass and the units
// that pass drops, at the same distance above the nest's level-0 limit in every packet that has them. A
// tile's rows, or a relay's stream, that is not a whole number of repetitions ends in a partial one.
// The mesh sides' flag is two bits, the level L whose last iteration runs every level-0 run short (docs/decoding-log.md
// "w7codes" §C: 1 the walk's last repetition, 2 or 3 a partial pass of a position's units); the 0x11's is one bit, L = 1.
// Every corpus nest with the flag counts no level above L: one that does is a conflict (which iteration of it is "last"
// is not decoded), as is a shortfall that is not limit0 - LastRun.

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct LastRepetitionFields {
  LleField on;         // L > 0: the level-0 runs of level L's last iteration run to lastRun
  LleField lastRun;    // that pass's level-0 limit
  LleField shortfall;  // the units it drops: limit0 - lastRun
  LleField limit;      // the nest's level-0 limit is element `level0` of this field
  unsigned level0;
  LleField outer;  // the two levels above level 1 are elements `firstOuter`, `firstOuter` + 1 of this field
  unsigned firstOuter;
};

// The execution-only receive's (lle_fields.def Recv11ExecLastRunOn): its run and its repeats.
inline constexpr LastRepetitionFields kRecv11ExecLastRepetition = {
    LleField::Recv11ExecLastRunOn, LleField::Recv11ExecLastRun, LleField::Recv11ExecLastShort, LleField::Recv11ExecRun, 0,
    LleField::Recv11ExecRepeat,    1};

// The weight-stream receive's (lle_fields.def Recv12LastRunOn; docs/decoding-log.md "mnv1d" §B): the 0x11's layout.
inline constexpr LastRepetitionFields kRecv12LastRepetition = {
    LleField::Recv12LastRunOn, LleField::Recv12LastRun, LleField::Recv12LastShort, LleField::Recv12Run, 0,
    LleField::Recv12Repeat,    1};

// Why the fields do not describe a shorter last repetition the rung walks, naming them; nullopt when they
// do or when the flag is clear.
[[nodiscard]] inline std::optional<std::string> lastRepetitionConflict(std::span<const isa::Word128> words,
                                                                       const LastRepetitionFields& f) {
  if (readField(words, f.on) == 0) return std::nullopt;
  const uint64_t limit0 = readField(words, f.limit, f.level0);
  const uint64_t lastRun = readField(words, f.lastRun);
  const uint64_t shortfall = readField(words, f.shortfall);
  const auto element = [](LleField field, unsigned i) {
    return std::string(fieldDef(field).name) + (fieldDef(field).count > 1 ? "[" + std::to_string(i) + "]" : "");
  };
  if (lastRun > limit0 || shortfall != limit0 - lastRun) {
    return std::string(fieldDef(f.shortfall).name) + " = " + std::to_string(shortfall) + " with " +
           std::string(fieldDef(f.lastRun).name) + " = " + std::to_string(lastRun) +
           " is not the units the last repetition drops from " + element(f.limit, f.level0) + " = " + std::to_string(limit0) +
           " (docs/decoding-log.md \"oldrecv\", \"short18\")";
  }
  // Levels 2 and 3 are the elements firstOuter, firstOuter + 1 of `outer`: those above L must not count.
  const uint64_t shortLevel = readField(words, f.on);
  for (unsigned level = 2; level <= 3; ++level) {
    if (level <= shortLevel || readField(words, f.outer, f.firstOuter + level - 2) == 0) continue;
    return std::string(fieldDef(f.on).name) + " = " + std::to_string(shortLevel) + " with " + element(f.outer, f.firstOuter + level - 2) +
           " counting: which iteration of a level above the short one runs " + std::string(fieldDef(f.lastRun).name) +
           " is not decoded";
  }
  return std::nullopt;
}

// The level whose last iteration runs level 0 short (0 without the flag); call after lastRepetitionConflict.
[[nodiscard]] inline unsigned lastRepetitionLevel(std::span<const isa::Word128> words, const LastRepetitionFields& f) {
  return static_cast<unsigned>(readField(words, f.on));
}

// The units each short level-0 run drops (0 without the flag); call after lastRepetitionConflict.
[[nodiscard]] inline uint64_t lastRepetitionShortfall(std::span<const isa::Word128> words, const LastRepetitionFields& f) {
  return readField(words, f.on) == 0 ? 0 : readField(words, f.shortfall);
}

}  // namespace coralsim::lle
