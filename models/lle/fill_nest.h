#pragma once
// The four-level address nest of an immediate 0x17 (docs/decoding-log.md "fill17b"): which narrow
// 4-byte units the write covers. Level 0 is innermost; each level counts 0 .. limit. When level 0
// counts the address changes by Fill17Step; when level i > 0 counts (the levels below it returning
// to 0) it changes by Fill17Carry[i - 1]. So the unit written at counters c is
// Fill17At4 + sum_i c_i x stride_i with stride_0 = Step and
// stride_i = Carry[i - 1] + sum_{j < i} limit_j x stride_j (the carry undoes the walk below).

#include <array>
#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct FillNest {
  static constexpr unsigned kLevels = 4;
  int64_t firstUnit = 0;                  // 4-byte units
  std::array<uint64_t, kLevels> limits{};  // count - 1 per level
  std::array<int64_t, kLevels> strides{};  // 4-byte units per count of the level

  [[nodiscard]] static FillNest fromPacket(std::span<const isa::Word128> words) {
    FillNest nest;
    nest.firstUnit = static_cast<int64_t>(readField(words, LleField::Fill17At4));
    for (unsigned i = 0; i < kLevels; ++i) nest.limits[i] = readField(words, LleField::Fill17Limit, i);
    nest.strides[0] = readSigned(words, LleField::Fill17Step);
    // Modulo 2^64 (defined for unsigned): a packet whose strides would overflow is refused by its
    // write count (writes()) before any stride is used.
    for (unsigned i = 1; i < kLevels; ++i) {
      auto stride = static_cast<uint64_t>(readSigned(words, LleField::Fill17Carry, i - 1));
      for (unsigned j = 0; j < i; ++j) stride += nest.limits[j] * static_cast<uint64_t>(nest.strides[j]);
      nest.strides[i] = static_cast<int64_t>(stride);
    }
    return nest;
  }

  [[nodiscard]] uint64_t writes() const {
    uint64_t n = 1;  // four 16-bit limits: up to 2^64 writes, so saturate instead of wrapping to 0
    for (uint64_t limit : limits) n = n > UINT64_MAX / (limit + 1) ? UINT64_MAX : n * (limit + 1);
    return n;
  }

  // The lowest and highest unit the nest reaches (each level's walk is monotone).
  [[nodiscard]] int64_t lowestUnit() const { return firstUnit + walk(false); }
  [[nodiscard]] int64_t highestUnit() const { return firstUnit + walk(true); }

  // Every unit, level 0 fastest (the order does not matter for one value, it keeps runs deterministic).
  template <typename Visit>
  void forEachUnit(Visit&& visit) const {
    std::array<uint64_t, kLevels> count{};
    for (;;) {
      int64_t unit = firstUnit;
      for (unsigned i = 0; i < kLevels; ++i) unit += static_cast<int64_t>(count[i]) * strides[i];
      visit(unit);
      unsigned level = 0;
      while (level < kLevels && count[level] == limits[level]) count[level++] = 0;
      if (level == kLevels) return;
      ++count[level];
    }
  }

 private:
  [[nodiscard]] int64_t walk(bool highest) const {
    int64_t sum = 0;
    for (unsigned i = 0; i < kLevels; ++i) {
      const int64_t span = static_cast<int64_t>(limits[i]) * strides[i];
      sum += (span > 0) == highest ? span : 0;
    }
    return sum;
  }
};

}  // namespace coralsim::lle
