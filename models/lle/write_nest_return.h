// The 0x14 write's return carry (lle_fields.def Stage14WrapC, docs/decoding-log.md "wrap14"): the
// address change after the nest's last unit, the carry slot at the 33-bit pitch past level 4's limit.
// It brings the write's address back to the nest's first unit: minus the last unit's offset under the
// odometer (write_nest.h), -Stage14Groups where only level 0 counts, -(limit + 64) where a level 1 of
// stride 64 counts once more (the PoseNet / BodyPix decoders' -79 with 15 groups). A write runs its nest
// once, so the return moves no byte the rung models; another value says something not decoded. The
// 0x13 read's fifth carry slot (Stage13Wrap[4], past its level 4) holds the same return in 4,667 / 4,667
// corpus reads (scripts/scan_nest_return.py); the rung does not check that one yet.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where Stage14WrapC is minus the offset of the write nest's last unit (modulo 2^16, the field's
// width); else the reason, naming the field, the nest and the value expected.
[[nodiscard]] std::string writeNestReturnProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
