// The pool form's records (lle_fields.def Stage13PoolRecordNumber / Span / SizeCode / SizeMark / SignMark; docs/decoding-log.md
// "pool13"): in the 22 corpus kept reads whose three records precede a pool, the slots that vary are written with fixed
// relations between them -- the size code three times alike, the sign as record 0's number < 0, record 2's number as record
// 1's, each signed number 4 x the size code modulo 16. The numbers themselves are not decoded and not read (the read's nest
// and the pool's weight walk place every tap), so the rung holds them to these relations only, refusing by name.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where the packet is not a pool-form records read, or where its record slots keep the relations above.
[[nodiscard]] std::string poolRecordsProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
