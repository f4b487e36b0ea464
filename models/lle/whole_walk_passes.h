// The w0 nest's level 7 (lle_fields.def ComputeLimitW0Level7, docs/decoding-log.md "w1b86b"): in the pointwise layers of
// MobileNet v2 wo_fc and the PoseNet quant decoders the compute's input and weight nests (Nest37, Nest29) walk one
// block of output lanes, and level 7 repeats that whole walk once a block; Output37 counts the blocks at its top
// (level 3 = level 7's limit in every corpus compute that sets it). Each pass reads the weight stream's next block:
// its prefix arrays, then its weight groups -- one block after the other, or side by side where the feeding write names
// as many blocks as passes ("bias14"; conv_compute.cc). Guess: inferred, not compared with a program's bytes.
#pragma once

#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

// Passes of the whole walk: ComputeLimitW0Level7 + 1 (1 where the level is idle).
[[nodiscard]] inline uint64_t wholeWalkPasses(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeLimitW0Level7) + 1;
}

}  // namespace coralsim::lle
