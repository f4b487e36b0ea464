#pragma once
// The four-level address nest of an immediate 0x17 (docs/decoding-log.md "fill17b"): the odometer of
// loop_nest.h from Fill17At4, with a level-0 step of its own (Fill17Step) — the only packet whose
// level 0 does not step one unit — and the carries Fill17Carry of levels 1..3.

#include <array>
#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"
#include "models/lle/loop_nest.h"

namespace coralsim::lle {

struct FillNest : LoopNest<4> {
  [[nodiscard]] static FillNest fromPacket(std::span<const isa::Word128> words) {
    return fromPacket(words, readSigned(words, LleField::Fill17Step));
  }
  // With the level-0 step given (the receive stride of fill_recv_stride.h).
  [[nodiscard]] static FillNest fromPacket(std::span<const isa::Word128> words, int64_t levelZeroStep) {
    std::array<uint64_t, kLevels> limits{};
    std::array<int64_t, kLevels - 1> carries{};
    for (unsigned i = 0; i < kLevels; ++i) limits[i] = readField(words, LleField::Fill17Limit, i);
    for (unsigned i = 1; i < kLevels; ++i) carries[i - 1] = readSigned(words, LleField::Fill17Carry, i - 1);
    return {fromCarries(static_cast<int64_t>(readField(words, LleField::Fill17At4)), limits,
                        levelZeroStep, carries)};
  }
};

}  // namespace coralsim::lle
