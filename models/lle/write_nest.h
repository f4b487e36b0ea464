#pragma once
// The address nest of a 0x14 staging write (docs/decoding-log.md "write14"): the odometer of
// loop_nest.h in narrow 4-byte units, relative to Stage14NarrowAt64 x 64, level 0 stepping one unit;
// the k-th unit takes the popped bytes [4k, 4k + 4) after the units the write's source side skips
// (Stage14SourceSkip + 1 with Stage14SourceOn, docs/decoding-log.md "src14").
// Level 0's limit is Stage14Groups, levels 1..4
// take Stage14OuterLimit (16-bit slots at the 33-bit pitch between the carries; no enable bits: the
// 0x14 has none, unlike 0x13), and the carry of level i is the 17-bit field just below its limit
// (Stage14WrapA, WrapB, WrapD, WrapE for levels 1..4). Read this way none of the corpus's 2,453 0x14s
// with a counting outer level leaves its executable's narrow footprint; read as plain strides, 1,342
// of them reach below address 0, and laid end to end (one unit after another) 329 leave it. In 2,057
// of them an outer level comes back to units already written (revisitsAUnit(): a window some consumer
// drains while the write runs, not decoded; the rung refuses).

#include <array>
#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"
#include "models/lle/loop_nest.h"

namespace coralsim::lle {

struct WriteNest : LoopNest<5> {
  [[nodiscard]] static WriteNest fromPacket(std::span<const isa::Word128> words) {
    static constexpr std::array<LleField, kLevels - 1> kCarries = {LleField::Stage14WrapA, LleField::Stage14WrapB,
                                                                   LleField::Stage14WrapD, LleField::Stage14WrapE};
    std::array<uint64_t, kLevels> limits{};
    std::array<int64_t, kLevels - 1> carries{};
    limits[0] = readField(words, LleField::Stage14Groups);
    for (unsigned i = 1; i < kLevels; ++i) {
      limits[i] = readField(words, LleField::Stage14OuterLimit, i - 1);
      carries[i - 1] = readSigned(words, kCarries[i - 1]);
    }
    return {fromCarries(0, limits, 1, carries)};
  }
};

}  // namespace coralsim::lle
