// The compute epilogue: int32 accumulator -> uint8 output, from the per-channel float32 scale
// (parameter prefix), the packet's float32 multiplier and clamps and the output zero point
// (docs/isa.md §4.2, §5.5). The rounding is a configuration choice (ChipConfig::requantRounding); the
// rung's default, kFp32HalfEven, is the device's arithmetic as far as hardware-recorded outputs show
// (docs/decoding-log.md "round18", Likely): the int32 accumulator (bias included) converted to
// float32, multiplied in float32 by the scale and the multiplier, clamped, rounded half to even.
// The 500^2 box convolution's device bytes (250,000) hold 28 exact float32 ties where the exact
// product is no tie (acc 25,899,999 x 5.0e-6 -> 129.5 -> 130; 24,900,001 -> 124.5 -> 124): only this
// rule gives all of them (double arithmetic changes 28 bytes, half-away / half-up 1, TFLite's fixed
// point 28 and RingCanary's hash); prbodmann's nin_cnn device scores are reproduced 300 / 300 by it
// and 219 / 300 by the fixed point. Which factor is applied first (acc x scale x mult, or acc x
// (scale x mult)) no hardware output tells: each recorded program has one factor 1.0.
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
