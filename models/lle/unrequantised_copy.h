// The unrequantised copy (compute w11 bit 117, docs/decoding-log.md "copy117"): a compute whose result
// is its sum as it stands. Over the corpus the bit is set exactly where the packet carries no
// requantisation -- word 12 all zero, multiplier 1.0, clamps -inf / +inf, zero points 0, no addend,
// no NLU table -- so a packet that sets it beside any requantising field says two things at once and
// is refused here, naming the field. The rung runs the copy as the walked element-wise form (one byte a
// lane through the kept identity); that the hardware writes bytes rather than wider sums is not shown by
// any golden output yet.
#pragma once

#include <cmath>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/compute_epilogue.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

constexpr unsigned kRequantisationWord = 12;  // the compute's image positions and requantisation flags

[[nodiscard]] inline bool isUnrequantisedCopy(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeUnrequantisedCopy) != 0;
}

// Why a packet with ComputeUnrequantisedCopy set is not the unrequantised form, or "" when it is
// (or when the bit is clear).
[[nodiscard]] inline std::string unrequantisedCopyProblem(std::span<const isa::Word128> words) {
  if (!isUnrequantisedCopy(words)) return "";
  const std::string field = "ComputeUnrequantisedCopy (word 11 bit 117) set with ";
  if (words.size() > kRequantisationWord && (words[kRequantisationWord].lo != 0 || words[kRequantisationWord].hi != 0)) {
    return field + "a word 12 that is not zero (every corpus copy of this form has none)";
  }
  const ComputeEpilogue e = readComputeEpilogue(words);
  if (e.zpIn != 0 || e.zpOut != 0) {
    return field + "zero points " + std::to_string(e.zpIn) + " / " + std::to_string(e.zpOut) + " (ComputeZpIn / ComputeZpOut; the form has 0 / 0)";
  }
  if (e.mult != 1.0f || !(std::isinf(e.lo) && e.lo < 0) || !(std::isinf(e.hi) && e.hi > 0)) {
    return field + "multiplier " + std::to_string(e.mult) + " and clamps " + std::to_string(e.lo) + " / " + std::to_string(e.hi) +
           " (ComputeMult, ComputeClampLo / Hi; the form has 1.0 and -inf / +inf)";
  }
  if (readComputeBias(words) != 0) return field + "an accumulator addend (ComputeBias) that is not 0";
  if (readField(words, LleField::ComputeNluApply) != 0) return field + "ComputeNluApply (word 15 bit 26) set";
  return "";
}

}  // namespace coralsim::lle
