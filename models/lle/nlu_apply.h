// The compute epilogue that applies a tile's NLU table (ComputeNluApply, 0x01 w15 bit 26;
// docs/decoding-log.md "nlu"): the accumulator scaled and clamped as the requantiser does, but not
// rounded, is the table's x; the table's value, rounded to an integer, is the 16-bit result.
// Decoded from the corpus's softmax computes: their multiplier is the twin's beta x input scale
// (float32-equal in 14 programs) and their clamps [-13.04, 0] bound the exp table's domain, so x is
// the real-valued input; each result takes 2 bytes of narrow memory (the next computes and
// transfers address 64 lanes at 128 bytes, 256 results at 512). Byte order, the rounding of the
// table's value and a non-zero output zero point are not decoded (corpus: zero point 0).
#pragma once

#include <cstdint>

#include "models/lle/nlu_table.h"

namespace coralsim::lle {

class NluApplication {
 public:
  static constexpr unsigned kResultBytes = 2;

  // `scale` is the lane's float32 scale (1 in the element-wise form), `mult` and the clamps the
  // compute packet's (ComputeMult, ComputeClampLo / Hi).
  NluApplication(float scale, float mult, float clampLo, float clampHi) : scale_(scale), mult_(mult), lo_(clampLo), hi_(clampHi) {}

  // The table's input for an accumulator: float32 acc x scale x mult, clamped.
  [[nodiscard]] float input(int32_t acc) const;
  // The 16-bit result: the table's value at input(acc), rounded half-even, saturated to 0..65535.
  [[nodiscard]] uint16_t operator()(const NluTable& table, int32_t acc) const;

 private:
  float scale_;
  float mult_;
  float lo_;
  float hi_;
};

}  // namespace coralsim::lle
