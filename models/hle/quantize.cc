// QUANTIZE (float -> 8-bit, or 8-bit -> 8-bit requantisation) and DEQUANTIZE (8-bit -> float),
// TFLite reference semantics: float input q = round(x / scale) + zp clamped; 8-bit input
// q = MultiplyByQuantizedMultiplier(x - zp_in, s_in / s_out) + zp_out clamped;
// dequantised x = float(double(scale) * (q - zp)).
#include <algorithm>

#include "models/hle/kernel_context.h"

namespace coralsim::hle {

void runQuantize(KernelContext& ctx) {
  const Tensor& inT = ctx.input(0);
  const Tensor& outT = ctx.output();
  ctx.require(isQuantized8(outT.type), "only uint8/int8 outputs are supported");
  ctx.require(outT.scale.size() <= 1, "per-channel QUANTIZE is not supported");
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  const size_t n = elementCount(outT.shape);
  ctx.require(elementCount(inT.shape) == n, "input and output element counts differ");
  const int32_t outZp = ctx.zeroPointOf(outT);
  const int32_t lo = typeMin(outT.type), hi = typeMax(outT.type);
  if (inT.type == ElementType::Float32) {
    const float scale = ctx.scaleOf(outT);
    for (size_t i = 0; i < n; ++i) store8(out.data(), i, std::clamp(roundToInt(loadFloat(in, i) / scale) + outZp, lo, hi));
    return;
  }
  ctx.require(isQuantized8(inT.type), "only float32 and uint8/int8 inputs are supported");
  const QuantizedMultiplier m =
      quantizeMultiplier(static_cast<double>(ctx.scaleOf(inT)) / static_cast<double>(ctx.scaleOf(outT)));
  const int32_t inZp = ctx.zeroPointOf(inT);
  for (size_t i = 0; i < n; ++i) {
    const int32_t v = multiplyByQuantizedMultiplier(load8(inT.type, in.data(), i) - inZp, m) + outZp;
    store8(out.data(), i, std::clamp(v, lo, hi));
  }
}

void runDequantize(KernelContext& ctx) {
  const Tensor& inT = ctx.input(0);
  const Tensor& outT = ctx.output();
  ctx.require(isQuantized8(inT.type) && outT.type == ElementType::Float32, "only uint8/int8 -> float32 is supported");
  ctx.require(inT.scale.size() <= 1, "per-channel DEQUANTIZE is not supported");
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  const double scale = ctx.scaleOf(inT);
  const int32_t zp = ctx.zeroPointOf(inT);
  for (size_t i = 0; i < in.size(); ++i) storeFloat(out, i, static_cast<float>(scale * (load8(inT.type, in.data(), i) - zp)));
}

}  // namespace coralsim::hle
