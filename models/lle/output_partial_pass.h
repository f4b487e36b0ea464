// The compute's partial-pass codes (lle_fields.def ComputeOutPartialUnits / ComputeOutLevelsWalked /
// ComputeOutPartialRestPairs, w7[25:22], w7[42:40], w7[49:46]; docs/decoding-log.md "w7codes"). The output nest puts a
// position's N = ComputeLaneGroups + 1 units side by side and the next position N - 1 + ComputeOut37Step units on
// (output_nest.h), so a position spans whole N-unit passes and k = (step - 1) mod N units more. Where k is even and not
// 0 and the nest counts at a level above 0, the compiler writes k - 1, the highest counting Output37 level + 1 and
// (N - k) / 2 there; elsewhere all three are 0 -- in every one of the corpus's 11,409 computes. What the hardware does
// with them (a mask of the units a partial pass writes?) is not decoded: the rung reads the step and the nest, not the
// codes, so a compute whose codes disagree with those fields -- where the bytes would depend on which of the two the
// hardware follows -- is refused naming the codes and the fields they are computed from.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

struct OutputPartialPassCodes {
  uint64_t partialUnits = 0;      // ComputeOutPartialUnits: k - 1
  uint64_t levelsWalked = 0;      // ComputeOutLevelsWalked: highest counting Output37 level + 1
  uint64_t partialRestPairs = 0;  // ComputeOutPartialRestPairs: (N - k) / 2
  friend bool operator==(const OutputPartialPassCodes&, const OutputPartialPassCodes&) = default;
};

// The codes a compute's output nest and lanes call for (all 0 where no partial pass is described).
[[nodiscard]] OutputPartialPassCodes expectedOutputPartialPassCodes(std::span<const isa::Word128> words);

// "" where the packet's three codes are the expected ones; else the reason, naming the codes and the fields.
[[nodiscard]] std::string outputPartialPassProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
