// LOGISTIC and TANH on 8-bit tensors as TFLite's builtin 8-bit kernels compute them: a 256-entry
// table over every input value of dequantise (float) -> function -> round(y / output_scale) +
// output_zp, clamped to the type.
#include <algorithm>
#include <cmath>

#include "models/hle/kernel_context.h"

namespace coralsim::hle {
namespace {

template <typename Fn>
void tableActivation(KernelContext& ctx, Fn fn) {
  const Tensor& inT = ctx.input(0);
  const Tensor& outT = ctx.output();
  ctx.require(isQuantized8(inT.type) && outT.type == inT.type, "only uint8/int8 input and output of one type are supported");
  const float inScale = ctx.scaleOf(inT);
  const int32_t inZp = ctx.zeroPointOf(inT);
  const float inverseOutScale = 1.0F / ctx.scaleOf(outT);
  const int32_t outZp = ctx.zeroPointOf(outT);
  const int32_t lo = typeMin(inT.type), hi = typeMax(inT.type);
  int32_t table[256];  // indexed by the stored byte
  for (int32_t v = lo; v <= hi; ++v) {
    const float x = inScale * static_cast<float>(v - inZp);
    const float rescaled = std::round(fn(x) * inverseOutScale);
    table[static_cast<uint8_t>(v & 0xFF)] = std::clamp(static_cast<int32_t>(rescaled + static_cast<float>(outZp)), lo, hi);
  }
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  ctx.require(out.size() == in.size(), "output size differs from the input");
  for (size_t i = 0; i < in.size(); ++i) store8(out.data(), i, table[in[i]]);
}

}  // namespace

void runLogistic(KernelContext& ctx) {
  tableActivation(ctx, [](float x) { return 1.0F / (1.0F + std::exp(-x)); });
}

void runTanh(KernelContext& ctx) {
  tableActivation(ctx, [](float x) { return std::tanh(x); });
}

}  // namespace coralsim::hle
