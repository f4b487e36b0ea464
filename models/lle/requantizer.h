// The compute epilogue: int32 accumulator -> uint8 output, from the per-channel float32 scale
// (parameter prefix), the packet's float32 multiplier and clamps and the output zero point
// (docs/isa.md §4.2, §5.5). The rounding is a configuration choice (ChipConfig::requantRounding):
// the exact hardware arithmetic is open question Q1, and the corpus test reports how many golden
// bytes each option matches.
#pragma once

#include <cstdint>

#include "models/chip_config.h"

namespace coralsim::lle {

class Requantizer {
 public:
  // `scale` is the channel's stored float32 effective scale, `mult` the packet's multiplier.
  Requantizer(float scale, float mult, float clampLo, float clampHi, int32_t zpOut, models::RequantRounding rounding);

  [[nodiscard]] uint8_t operator()(int32_t acc) const;

 private:
  float scale_;
  float mult_;
  float lo_;
  float hi_;
  int32_t zpOut_;
  models::RequantRounding rounding_;
  // kTfliteFixedPoint: the scale x mult as a Q31 multiplier and a power-of-two shift.
  int32_t quantizedMultiplier_ = 0;
  int shift_ = 0;
};

// TFLite's reference integer requantisation (exposed for unit tests): the doubling high multiply
// and the rounding right shift of gemmlowp.
[[nodiscard]] int32_t multiplyByQuantizedMultiplier(int32_t x, int32_t quantizedMultiplier, int shift);
void quantizeMultiplier(double multiplier, int32_t& quantizedMultiplier, int& shift);

}  // namespace coralsim::lle
