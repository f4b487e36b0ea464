#pragma once
// The address nest of a 0x14 staging write (docs/decoding-log.md "write14"): which narrow 4-byte units
// the bytes popped to the tile land on, in order. Five levels, level 0 innermost, each counting
// 0 .. limit: level 0's limit is Stage14Groups, levels 1..4 take Stage14OuterLimit (16-bit slots at the
// 33-bit pitch between the carries; no enable bits: the 0x14 has none, unlike 0x13). Level 0 steps one
// unit; when level i > 0 counts (the levels below it returning to 0) the address changes by the 17-bit
// field just below its limit (Stage14WrapA, WrapB, WrapD, WrapE for levels 1..4), so level i's stride
// is that carry + sum_{j < i} limit_j x stride_j — the odometer of 0x13's ReadNest and 0x17's FillNest.
// Read this way none of the corpus's 2,453 0x14s with a counting outer level leaves its executable's
// narrow footprint; read as plain strides, 1,342 of them reach below address 0, and laid end to end
// (one unit after another) 329 leave it. In 2,057 of them an outer level comes back to units already
// written (stride 0: a window some consumer drains while the write runs, not decoded; the rung refuses).

#include <array>
#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct WriteNest {
  static constexpr unsigned kLevels = 5;
  std::array<uint64_t, kLevels> limits{};  // count - 1 per level
  std::array<int64_t, kLevels> strides{};  // 4-byte units per count of the level

  [[nodiscard]] static WriteNest fromPacket(std::span<const isa::Word128> words) {
    static constexpr std::array<LleField, kLevels - 1> kCarries = {LleField::Stage14WrapA, LleField::Stage14WrapB,
                                                                   LleField::Stage14WrapD, LleField::Stage14WrapE};
    WriteNest nest;
    nest.limits[0] = readField(words, LleField::Stage14Groups);
    for (unsigned i = 1; i < kLevels; ++i) nest.limits[i] = readField(words, LleField::Stage14OuterLimit, i - 1);
    nest.strides[0] = 1;
    // Modulo 2^64 (defined for unsigned); the rung bounds the reached units by narrow memory.
    for (unsigned i = 1; i < kLevels; ++i) {
      auto stride = static_cast<uint64_t>(readSigned(words, kCarries[i - 1]));
      for (unsigned j = 0; j < i; ++j) stride += nest.limits[j] * static_cast<uint64_t>(nest.strides[j]);
      nest.strides[i] = static_cast<int64_t>(stride);
    }
    return nest;
  }

  // True when no outer level counts: the units run on one by one from the address.
  [[nodiscard]] bool contiguous() const {
    for (unsigned i = 1; i < kLevels; ++i) {
      if (limits[i] != 0) return false;
    }
    return true;
  }

  // The units the nest covers (saturating: five 16-bit limits reach 2^80).
  [[nodiscard]] uint64_t units() const {
    uint64_t n = 1;
    for (uint64_t limit : limits) n = n > UINT64_MAX / (limit + 1) ? UINT64_MAX : n * (limit + 1);
    return n;
  }

  // The lowest and highest unit (relative to the address) the nest reaches: each level's walk is monotone.
  [[nodiscard]] int64_t lowestUnit() const { return walk(false); }
  [[nodiscard]] int64_t highestUnit() const { return walk(true); }

  // Every unit, level 0 fastest: the k-th visited unit receives the pop's bytes [4k, 4k + 4).
  template <typename Visit>
  void forEachUnit(Visit&& visit) const {
    std::array<uint64_t, kLevels> count{};
    for (;;) {
      int64_t unit = 0;
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
