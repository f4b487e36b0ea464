// SOFTMAX on 8-bit tensors as TFLite's builtin 8-bit kernel computes it (the form the golden
// primary backend runs): a float table exp(-input_scale * beta * (max - x)), a float sum per row,
// and each probability quantised as round(p / output_scale) + output_zp, clamped.
#include <algorithm>
#include <cmath>

#include "models/hle/kernel_context.h"

namespace coralsim::hle {

void runSoftmax(KernelContext& ctx) {
  const Tensor& inT = ctx.input(0);
  const Tensor& outT = ctx.output();
  ctx.require(isQuantized8(inT.type) && isQuantized8(outT.type), "only uint8/int8 input and output are supported");
  ctx.require(!inT.shape.empty(), "input must have at least one dimension");
  const auto depth = static_cast<size_t>(inT.shape.back());
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  ctx.require(out.size() == in.size() && depth > 0, "output size differs from the input");
  const float scale = -ctx.scaleOf(inT) * ctx.options().beta;
  float table[256];
  for (int k = 0; k < 256; ++k) table[k] = std::exp(scale * static_cast<float>(k));  // k = max - x
  const int32_t outZp = ctx.zeroPointOf(outT);
  const float outScale = ctx.scaleOf(outT);
  for (size_t row = 0; row < in.size() / depth; ++row) {
    const size_t base = row * depth;
    int32_t maxValue = typeMin(inT.type);
    for (size_t j = 0; j < depth; ++j) maxValue = std::max(maxValue, load8(inT.type, in.data(), base + j));
    float sum = 0.0F;
    for (size_t j = 0; j < depth; ++j) sum += table[maxValue - load8(inT.type, in.data(), base + j)];
    const float inverse = 1.0F / (sum * outScale);
    for (size_t j = 0; j < depth; ++j) {
      const float p = table[maxValue - load8(inT.type, in.data(), base + j)] * inverse;
      store8(out.data(), base + j, std::clamp(roundToInt(p) + outZp, typeMin(outT.type), typeMax(outT.type)));
    }
  }
}

}  // namespace coralsim::hle
