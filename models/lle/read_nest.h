#pragma once
// The address nest of a 0x13 read (docs/decoding-log.md "form13" §C): which narrow 4-byte units it
// reads, in order. Five levels, level 0 innermost, each counting 0 .. limit: level 0's limit is
// Stage13Groups (running where Stage13LoopOn is set), levels 1..4 take Stage13OuterLimit where their
// enable Stage13OuterOn is set. Level 0 steps one unit; when level i > 0 counts (the levels below it
// returning to 0) the address changes by Stage13Wrap[i - 1], so level i's stride is
// Stage13Wrap[i - 1] + sum_{j < i} limit_j x stride_j (the odometer of 0x17's FillNest, with the
// level-0 step fixed at one unit). The rung reads nests where at most one level counts: with two
// counting levels the corpus has reads that this reading sends below unit 0 (a level-0 step other
// than one unit, whose field is not decoded), so those are refused.

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct ReadNest {
  static constexpr unsigned kLevels = 5;
  std::array<uint64_t, kLevels> limits{};  // count - 1 per level (0 where the level is off)
  std::array<int64_t, kLevels> strides{};  // 4-byte units per count of the level

  [[nodiscard]] static ReadNest fromPacket(std::span<const isa::Word128> words) {
    ReadNest nest;
    nest.limits[0] = readField(words, LleField::Stage13Groups);
    for (unsigned i = 1; i < kLevels; ++i) nest.limits[i] = readField(words, LleField::Stage13OuterLimit, i - 1);
    nest.strides[0] = 1;
    // Modulo 2^64 (defined for unsigned); the rung bounds the reached units by narrow memory.
    for (unsigned i = 1; i < kLevels; ++i) {
      auto stride = static_cast<uint64_t>(readSigned(words, LleField::Stage13Wrap, i - 1));
      for (unsigned j = 0; j < i; ++j) stride += nest.limits[j] * static_cast<uint64_t>(nest.strides[j]);
      nest.strides[i] = static_cast<int64_t>(stride);
    }
    return nest;
  }

  // The levels whose limit is not 0, as a bit set (bit i: level i counts).
  [[nodiscard]] unsigned countingLevels() const {
    unsigned set = 0;
    for (unsigned i = 0; i < kLevels; ++i) set |= (limits[i] != 0 ? 1u : 0u) << i;
    return set;
  }

  // The one counting level (level 0 when none counts: a single 4-byte group); none when several count.
  [[nodiscard]] std::optional<unsigned> countingLevel() const {
    const unsigned set = countingLevels();
    if (set == 0) return 0u;
    if ((set & (set - 1)) != 0) return std::nullopt;
    for (unsigned i = 0; i < kLevels; ++i) {
      if (set == 1u << i) return i;
    }
    return std::nullopt;
  }
};

}  // namespace coralsim::lle
