#pragma once
// A compute's weight nest (Nest29, models/isa/compute_loop_nest.def) read as a walk over bytes
// (docs/decoding-log.md "w7ident" §B), the twin of input_byte_walk.h: level 0 steps one byte, and the
// carry of slot i, applied when level i + 1 counts, is 15 bits in bytes -- the slot's 13-bit wrap
// times 4 plus the two bits between its limit and its wrap (ComputeNest29CarryLow; 0 in the 4-byte
// forms, whose wraps are then whole units). Levels 0-3 are read from the declared fields (level 0's
// ComputeK4W7, levels 1-2 ComputeLimit29, level 3 ComputeLimit29Level3; levels 4-6, ComputeLimit29High,
// are refused by name where they count by the forms that read this walk, docs/decoding-log.md "w8mid"; `allLevels`
// reads them for the window pools), the
// carries of all seven slots (the ones above level 3 are never applied).

#include <array>
#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct WeightByteWalk {
  static constexpr unsigned kLevels = 4;
  static constexpr unsigned kSlots = 7;
  std::array<uint64_t, kLevels> limits{};      // count - 1
  std::array<int64_t, kSlots> carryBytes{};    // slot i: the address change when level i + 1 counts
  std::array<int64_t, kLevels> strideBytes{};  // the address change when the level counts

  [[nodiscard]] static WeightByteWalk fromPacket(std::span<const isa::Word128> words) {
    WeightByteWalk walk;
    walk.limits = {readField(words, LleField::ComputeK4W7), readField(words, LleField::ComputeLimit29, 0),
                   readField(words, LleField::ComputeLimit29, 1), readField(words, LleField::ComputeLimit29Level3)};
    for (unsigned slot = 0; slot < kSlots; ++slot) {
      const int64_t wrap = slot == 0 ? readSigned(words, LleField::ComputeKWrapW7) : readSigned(words, LleField::ComputeKWrap29, slot - 1);
      walk.carryBytes[slot] = 4 * wrap + static_cast<int64_t>(readField(words, LleField::ComputeNest29CarryLow, slot));
    }
    walk.strideBytes[0] = 1;
    // When level i counts, the levels below it have run to their limits and the carry is applied.
    for (unsigned i = 1; i < kLevels; ++i) {
      int64_t stride = walk.carryBytes[i - 1];
      for (unsigned j = 0; j < i; ++j) stride += static_cast<int64_t>(walk.limits[j]) * walk.strideBytes[j];
      walk.strideBytes[i] = stride;
    }
    return walk;
  }

  // All seven levels of the walk: levels 0-3 as above, levels 4-6 from ComputeLimit29High, each taking the carry of the
  // slot below it by the same odometer rule. For the forms that walk a level above 3 (the window pools' output blocks:
  // MobileNet v1 0.25 128's pool counts four 64-lane blocks at level 4, docs/decoding-log.md "avgp"); the other forms
  // keep refusing those levels by name and read `limits` / `strideBytes` alone.
  struct AllLevels {
    std::array<uint64_t, kSlots> limits{};
    std::array<int64_t, kSlots> strideBytes{};
    [[nodiscard]] uint64_t iterations() const {
      uint64_t n = 1;
      for (const uint64_t limit : limits) n *= limit + 1;
      return n;
    }
  };
  [[nodiscard]] AllLevels allLevels(std::span<const isa::Word128> words) const {
    AllLevels all;
    for (unsigned i = 0; i < kLevels; ++i) all.limits[i] = limits[i];
    for (unsigned i = kLevels; i < kSlots; ++i) all.limits[i] = readField(words, LleField::ComputeLimit29High, i - kLevels);
    all.strideBytes[0] = 1;
    for (unsigned i = 1; i < kSlots; ++i) {
      int64_t stride = carryBytes[i - 1];
      for (unsigned j = 0; j < i; ++j) stride += static_cast<int64_t>(all.limits[j]) * all.strideBytes[j];
      all.strideBytes[i] = stride;
    }
    return all;
  }
};

}  // namespace coralsim::lle
