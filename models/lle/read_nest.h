#pragma once
// The address nest of a 0x13 read (docs/decoding-log.md "form13" §C): the odometer of loop_nest.h in
// narrow 4-byte units, relative to Stage13NarrowAt4, level 0 stepping Stage13Step units ("conv32run"
// §C; 1 in every read where only one level counts). Level 0's limit is
// Stage13Groups (running where Stage13LoopOn is set), levels 1..4 take Stage13OuterLimit where their
// enable Stage13OuterOn is set, and Stage13Wrap[i - 1] is the carry when level i counts. The rung
// reads nests where at most one level counts (countingLevel()), and nests whose counting levels chain
// into one run of units (asOneRun(): the padding programs' output reads, docs/decoding-log.md "pad13";
// conv 32^2's output read, 8 groups x 8 rows back to back, "conv32run" §C); other walks are refused.
// Before Stage13Step was decoded, reads with level 0 counting beside another level were refused (with a
// step of one unit 63 corpus reads leave narrow memory, "form13" §C); with it every one stays inside.

#include <array>
#include <cstdint>
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
};

}  // namespace coralsim::lle
