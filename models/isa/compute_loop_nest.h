// The loop nests of a compute packet (compute_loop_nest.def) as a constexpr table, and the reader
// of their limits. The cost model (models/chip/cost_model.h) multiplies one nest's limits; the
// lle K-loop rows (models/lle/lle_fields.def) are checked against these slots by a unit test.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "models/isa/confidence.h"
#include "models/isa/field.h"
#include "models/isa/word128.h"

namespace coralsim::isa {

enum class ComputeNest : uint8_t {
#define CORAL_COMPUTE_NEST(id, ...) id,
#include "models/isa/compute_loop_nest.def"
#undef CORAL_COMPUTE_NEST
};

// Levels per nest (every row of the table has this many; checked below).
inline constexpr unsigned kComputeNestLevels = 7;

struct ComputeNestDef {
  std::string_view name;
  uint32_t lsb;  // level 0's limit: absolute bit in the packet, 128 x word + bit
  uint8_t limitWidth;
  uint8_t flagWidth;  // between the limit and the wrap; meaning not decoded
  uint8_t wrapWidth;
  uint8_t levels;
  uint8_t pitch;  // bits from one level's slot to the next
  Confidence confidence;
  std::string_view meaning;
  std::string_view evidence;

  [[nodiscard]] constexpr uint32_t limitLsb(unsigned level) const { return lsb + level * pitch; }
  [[nodiscard]] constexpr uint32_t wrapLsb(unsigned level) const {
    return limitLsb(level) + limitWidth + flagWidth;
  }
};

inline constexpr ComputeNestDef kComputeNests[] = {
#define CORAL_COMPUTE_NEST(id, word, bit, limitWidth, flagWidth, wrapWidth, levels, pitch, conf, meaning, evidence) \
  ComputeNestDef{#id,  (word) * 128u + (bit), limitWidth, flagWidth, wrapWidth, levels, pitch, Confidence::conf, \
                 meaning, evidence},
#include "models/isa/compute_loop_nest.def"
#undef CORAL_COMPUTE_NEST
};

[[nodiscard]] constexpr const ComputeNestDef& computeNestDef(ComputeNest nest) {
  return kComputeNests[static_cast<size_t>(nest)];
}

static_assert([] {
  for (const ComputeNestDef& nest : kComputeNests) {
    if (nest.levels != kComputeNestLevels || nest.limitWidth + nest.flagWidth + nest.wrapWidth != nest.pitch) return false;
  }
  return true;
}(), "every compute nest has kComputeNestLevels slots of limit + flags + wrap filling its pitch");

// The limits (count - 1) of `nest`'s levels; bits past the end of `words` read as 0.
[[nodiscard]] inline std::array<uint64_t, kComputeNestLevels> readComputeNestLimits(ComputeNest nest,
                                                                                     std::span<const Word128> words) {
  const ComputeNestDef& def = computeNestDef(nest);
  std::array<uint64_t, kComputeNestLevels> limits{};
  for (unsigned level = 0; level < kComputeNestLevels; ++level) {
    limits[level] = readPacketBits(words, def.limitLsb(level), def.limitWidth);
  }
  return limits;
}

}  // namespace coralsim::isa
