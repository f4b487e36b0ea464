#pragma once
// The output address nest of a compute packet (models/isa/compute_loop_nest.def Output37; docs/
// decoding-log.md "gridcopy"): the narrow 4-byte units a multi-position compute writes, one per
// position. Level 0 steps one unit; when level i > 0 counts (the levels below it returning to 0) the
// address changes by the carry of slot i - 1 — the convention of the 0x17 and 0x14 nests (FillNest,
// WriteNest). So the unit at counters c is first + sum_i c_i x stride_i with stride_0 = 1 and
// stride_i = carry[i - 1] + sum_{j < i} limit_j x stride_j. In the convolutions' identity computes
// the carry of the position level is G - T + 1: after the row's last position the next grid row.

#include <array>
#include <cstdint>
#include <span>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"

namespace coralsim::lle {

struct OutputNest {
  static constexpr unsigned kLevels = isa::kComputeNestLevels;
  int64_t firstUnit = 0;                   // 4-byte units
  std::array<uint64_t, kLevels> limits{};  // count - 1 per level
  std::array<int64_t, kLevels> strides{};  // 4-byte units per count of the level

  // `firstUnit` from the compute's output address (ComputeOutputAt / 4), the levels from w5.
  [[nodiscard]] static OutputNest fromPacket(std::span<const isa::Word128> words, int64_t firstUnit) {
    const isa::ComputeNestDef& def = isa::computeNestDef(isa::ComputeNest::Output37);
    OutputNest nest;
    nest.firstUnit = firstUnit;
    nest.limits = isa::readComputeNestLimits(isa::ComputeNest::Output37, words);
    nest.strides[0] = 1;
    for (unsigned i = 1; i < kLevels; ++i) {
      const uint64_t raw = isa::readPacketBits(words, def.wrapLsb(i - 1), def.wrapWidth);
      const uint64_t sign = uint64_t{1} << (def.wrapWidth - 1);
      // Modulo 2^64 (defined for unsigned); positions() bounds the walk before a stride is used.
      auto stride = (raw ^ sign) - sign;  // sign-extended carry
      for (unsigned j = 0; j < i; ++j) stride += nest.limits[j] * static_cast<uint64_t>(nest.strides[j]);
      nest.strides[i] = static_cast<int64_t>(stride);
    }
    return nest;
  }

  [[nodiscard]] uint64_t positions() const {
    uint64_t n = 1;  // seven 18-bit limits: saturate instead of wrapping
    for (uint64_t limit : limits) n = n > UINT64_MAX / (limit + 1) ? UINT64_MAX : n * (limit + 1);
    return n;
  }

  // Every unit in the order the positions are computed, level 0 fastest.
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
};

}  // namespace coralsim::lle
