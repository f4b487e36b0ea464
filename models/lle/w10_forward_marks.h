// The w10 nest's forward marks (lle_fields.def ComputePartialSumWalkOn, w11 bit 99, and ComputeW10ForwardMark, w11
// bits 100-105; docs/decoding-log.md "w9b53" §B): one mark a slot of the nest, set exactly where that slot's carry --
// 4 x ComputeWrapW10[i] + ComputeW10CarryLow[i], the address change when level i + 1 counts -- is positive: the level
// moves on to new partial-sum rows instead of returning to rows already walked. Every corpus compute's seven marks
// agree with its carries. The rung reads the carries (partial_sum_walk.h); a mark and a carry that disagree -- where it
// would matter which of the two the hardware follows -- are refused naming both.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where each slot's forward mark is set exactly where its carry is positive; else the reason, naming the mark,
// the wrap and the carry's low bits.
[[nodiscard]] std::string w10ForwardMarksProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
