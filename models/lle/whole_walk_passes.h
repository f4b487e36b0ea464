// The w0 nest's level 7 (lle_fields.def ComputeLimitW0Level7, docs/decoding-log.md "w1b86b"): in the pointwise layers of
// MobileNet v2 wo_fc and the PoseNet quant decoders the compute's input and weight nests (Nest37, Nest29) walk one
// block of output lanes, and level 7 repeats that whole walk once a block; Output37 counts the blocks at its top
// (level 3 = level 7's limit in every corpus compute that sets it). Each pass reads the weight stream's next block:
// its prefix arrays, then its weight groups -- one block after the other, or side by side where the feeding write names
// as many blocks as passes ("bias14"; conv_compute.cc). Guess: inferred, not compared with a program's bytes.
// The other nests carry the same level ("w3b103": Nest37 at w3 bit 103, Nest29 at w9 bit 37, the w10 nest at w11 bit 84,
// equal to it in every corpus compute), each slot 6's wrap the carry when level 7 counts. In all 519 corpus computes
// with passes that carry returns both the input and the weight nest to where they started: every pass reads the same
// input units and walks the same weight window (the stream bringing the next block into it), so the executor runs the
// one-pass walk again from the nests' first units, and refuses a pass that would step elsewhere.
#pragma once

#include <cstdint>
#include <span>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/compute_nest.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

// Passes of the whole walk: ComputeLimitW0Level7 + 1 (1 where the level is idle).
[[nodiscard]] inline uint64_t wholeWalkPasses(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeLimitW0Level7) + 1;
}

// A nest's level-7 stride in its units (loop_nest.h's convention): slot 6's wrap, the carry when level 7 counts, plus
// the walk of levels 0-6 it follows. 0 where each pass walks the same units again.
[[nodiscard]] inline int64_t levelSevenStride(isa::ComputeNest id, std::span<const isa::Word128> words, const ComputeLoopNest& nest) {
  const isa::ComputeNestDef& def = isa::computeNestDef(id);
  const uint64_t sign = uint64_t{1} << (def.wrapWidth - 1);
  const uint64_t raw = isa::readPacketBits(words, def.wrapLsb(isa::kComputeNestLevels - 1), def.wrapWidth);
  uint64_t stride = (raw ^ sign) - sign;  // sign-extended, modulo 2^64 like fromCarries
  for (unsigned j = 0; j < ComputeLoopNest::kLevels; ++j) stride += nest.limits[j] * static_cast<uint64_t>(nest.strides[j]);
  return static_cast<int64_t>(stride);
}

}  // namespace coralsim::lle
