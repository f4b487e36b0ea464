#pragma once
// A staging window (docs/decoding-log.md "write14", "identcopy" §B): a 0x14 write whose nest steps
// level 0 over `units` 4-byte units and then comes back to the same units once per pass of one
// outer level (stride 0), so the popped bytes pass through the window `passes` times. In the
// convolutions the window is one image row of the tile row (T units of 4 one-byte pixels) and a pass
// per image row; the tile's identity computes read the passes in order, row by row, as the write fills
// them (the first compute is issued before the write, "identcopy" §B). The window keeps every pass so
// its readers can take them in order, and an input address names the window at its first unit or
// at that unit plus a whole number of windows (a ring over the window's units: the second identity
// compute of every rubensrech convolution, 29 of the corpus's 73 single-channel identity computes).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "models/lle/write_nest.h"

namespace coralsim::lle {

struct StagingWindow {
  uint64_t firstUnit = 0;  // narrow 4-byte unit the window starts at (the 0x14's address / 4)
  uint64_t units = 0;      // units per pass (level 0's count)
  uint64_t passes = 0;     // the count of the outer level whose stride is 0
  std::vector<std::vector<uint8_t>> passBytes;  // each pass's units x 4 bytes, once the pop has filled it
  uint64_t passesRead = 0;                      // passes the tile's computes have taken, in order

  // The window of a write nest from narrow byte `address`: level 0 counting units one by one, then
  // exactly one counting outer level, whose stride is 0. Any other nest that revisits units is not a
  // window the rung knows how to read.
  [[nodiscard]] static std::optional<StagingWindow> of(const WriteNest& nest, uint64_t address) {
    if (nest.strides[0] != 1 || address % 4 != 0) return std::nullopt;
    const unsigned outer = nest.countingLevels() & ~1u;
    if (outer == 0 || (outer & (outer - 1)) != 0) return std::nullopt;
    for (unsigned level = 1; level < WriteNest::kLevels; ++level) {
      if ((outer & (1u << level)) == 0) continue;
      if (nest.strides[level] != 0) return std::nullopt;
      return StagingWindow{address / 4, nest.limits[0] + 1, nest.limits[level] + 1, {}, 0};
    }
    return std::nullopt;
  }

  // The part of the pop the tile keeps (after its source skip, Stage14SourceSkip), pass by pass: unit
  // k of the nest takes bytes [4k, 4k + 4). A last pass the part does not fill stays short. A row-form
  // write's two parts are consecutive runs of the pop (docs/decoding-log.md "rowrest"): its passes too.
  void fill(std::span<const uint8_t> popped) {
    passBytes.clear();
    const uint64_t passLength = 4 * units;
    for (uint64_t p = 0; p < passes && p * passLength < popped.size(); ++p) {
      const auto pass = popped.subspan(p * passLength, std::min<uint64_t>(passLength, popped.size() - p * passLength));
      passBytes.emplace_back(pass.begin(), pass.end());
    }
  }

  [[nodiscard]] bool filled() const { return !passBytes.empty(); }

  // A window whose passes its readers have all taken holds nothing for the next reader: that one waits
  // for the window's next fill (split_concat's rnn1 computes, issued while input1's passes sit there
  // read, docs/decoding-log.md "splitcat" (w5)).
  [[nodiscard]] bool hasUnreadPass() const { return passesRead < passBytes.size(); }

  // True when `unit` names this window: its first unit, or that unit plus a whole number of windows --
  // or, for a reader whose input is a ring of two rows (`ringHalfUnits`: half of ComputeInputRingBytes,
  // in units; docs/decoding-log.md "stride" §C), the ring's second half, where the odd rows lie when a
  // row is shorter than half the ring (the iwatake stride sweep's 192-byte rows in a 512-byte ring).
  [[nodiscard]] bool isNamedBy(uint64_t unit, uint64_t ringHalfUnits = 0) const {
    if (units == 0 || unit < firstUnit) return false;
    return (unit - firstUnit) % units == 0 || (ringHalfUnits != 0 && unit - firstUnit == ringHalfUnits);
  }
};

}  // namespace coralsim::lle
