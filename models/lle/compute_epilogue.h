// The compute packet's epilogue as every compute form reads it (docs/decoding-log.md "Requantisation
// rounding"): input and output zero points, the float multiplier and the clamps — and what the
// rung models of it. One reading for the Dense, element-wise and convolution forms.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct ComputeEpilogue {
  int32_t zpIn = 0;   // ComputeZpIn
  int32_t zpOut = 0;  // ComputeZpOut
  float mult = 0;     // ComputeMult
  float lo = 0;       // ComputeClampLo
  float hi = 0;       // ComputeClampHi
};

[[nodiscard]] inline ComputeEpilogue readComputeEpilogue(std::span<const isa::Word128> words) {
  ComputeEpilogue e;
  e.zpIn = static_cast<int32_t>(readField(words, LleField::ComputeZpIn));
  e.zpOut = static_cast<int32_t>(readField(words, LleField::ComputeZpOut));
  e.mult = readF32(words, LleField::ComputeMult);
  e.hi = readF32(words, LleField::ComputeClampHi);
  e.lo = readF32(words, LleField::ComputeClampLo);
  return e;
}

// The accumulator's addend (ComputeBias, docs/decoding-log.md "eltw12" §A): signed, added to each
// lane's sum before the multiplier. Kept out of ComputeEpilogue because only the element-wise form
// executes it; the other forms refuse a value other than 0 (LleRung::readEpilogue).
[[nodiscard]] inline int32_t readComputeBias(std::span<const isa::Word128> words) {
  return static_cast<int32_t>(readSigned(words, LleField::ComputeBias));
}

// Why the epilogue lies outside what the requantiser models, or "" when it does not.
[[nodiscard]] inline std::string epilogueProblem(const ComputeEpilogue& e) {
  if (e.zpIn > 255 || e.zpOut > 255) return "zero point above 255 (ComputeZpIn / ComputeZpOut)";
  if (!std::isfinite(e.mult) || std::isnan(e.hi) || std::isnan(e.lo) || e.lo > e.hi) {
    return "multiplier or clamps outside what the epilogue models (finite multiplier, ordered clamps)";
  }
  return "";
}

}  // namespace coralsim::lle
