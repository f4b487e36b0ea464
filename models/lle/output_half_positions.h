// The number after a compute's output element size (lle_fields.def ComputeOutHalfPositions, w4[98:83];
// docs/decoding-log.md "w6b122" §D): where ComputeOutputBytes is 0 -- the BodyPix / PoseNet 1280 x 720 and 324
// decoders' 856 computes -- it is half the output nest's level-0 positions, (ComputeOut37Limit0 + 1) / 2, in every
// one; in the 10,553 computes of the other element sizes it is 0. What the form writes is not decoded (the rung
// refuses ComputeOutputBytes 0 by name before running it), so the relation is checked, not executed: a non-zero
// number that is not half the level-0 positions of an element-size-0 compute (an odd count of positions among them,
// which no corpus compute has) is refused naming the fields; 0 is left to the element-size refusal.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where ComputeOutHalfPositions says what the element size and the output nest's level 0 say; else the reason.
[[nodiscard]] std::string outputHalfPositionsProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
