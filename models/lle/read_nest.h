#pragma once
// The address nest of a 0x13 read (docs/decoding-log.md "form13" §C): the odometer of loop_nest.h in
// narrow 4-byte units, relative to Stage13NarrowAt4, level 0 stepping one unit. Level 0's limit is
// Stage13Groups (running where Stage13LoopOn is set), levels 1..4 take Stage13OuterLimit where their
// enable Stage13OuterOn is set, and Stage13Wrap[i - 1] is the carry when level i counts. The rung
// reads nests where at most one level counts (countingLevel()), and nests whose level 0 does not
// count and whose counting levels chain into one run of units (asOneRun(); the padding programs'
// output reads, docs/decoding-log.md "pad13"): with level 0 counting beside another level the corpus
// has reads that this reading sends below unit 0 (a level-0 step other than one unit, whose field is
// not decoded), so those are refused; with level 0 idle its step never applies.

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
    return {fromCarries(0, limits, 1, carries)};
  }
};

}  // namespace coralsim::lle
