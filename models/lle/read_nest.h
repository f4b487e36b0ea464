#pragma once
// The address nest of a 0x13 read (docs/decoding-log.md "form13" §C): the odometer of loop_nest.h in
// narrow 4-byte units, relative to Stage13NarrowAt4, level 0 stepping Stage13Step units ("conv32run"
// §C; 1 in every read where only one level counts). Level 0's limit is
// Stage13Groups (running where Stage13LoopOn is set), levels 1..4 take Stage13OuterLimit where their
// enable Stage13OuterOn is set, and Stage13Wrap[i - 1] is the carry when level i counts. The rung
// reads nests where at most one level counts (countingLevel()), or whose counting levels chain into one
// progression (asOneProgression()); other walks are refused.

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"
#include "models/lle/loop_nest.h"

namespace coralsim::lle {

struct ReadNest : LoopNest<5> {
  [[nodiscard]] static ReadNest fromPacket(std::span<const isa::Word128> words) {
    std::array<uint64_t, kLevels> limits{};
    std::array<int64_t, kLevels - 1> carries{};
    limits[0] = readField(words, LleField::Stage13Groups);
    for (unsigned i = 1; i < kLevels; ++i) {
      limits[i] = readField(words, LleField::Stage13OuterLimit, i - 1);
      carries[i - 1] = readSigned(words, LleField::Stage13Wrap, i - 1);
    }
    return {fromCarries(0, limits, readSigned(words, LleField::Stage13Step), carries)};
  }
  // The nest as one progression of 4-byte groups where its counting levels chain (each counting
  // level's stride is the walk of the counting levels below it: conv 32²'s output read, 8 groups x 8
  // rows back to back): {groups, stride}; nullopt otherwise.
  [[nodiscard]] std::optional<std::pair<uint64_t, int64_t>> asOneProgression() const {
    uint64_t groups = 1;
    int64_t stride = 0;
    for (unsigned i = 0; i < kLevels; ++i) {
      if (limits[i] == 0) continue;
      if (groups == 1) {
        stride = strides[i];
      } else if (strides[i] != static_cast<int64_t>(groups) * stride) {
        return std::nullopt;
      }
      groups *= limits[i] + 1;
    }
    return std::make_pair(groups, stride);
  }
};

}  // namespace coralsim::lle
