// FULLY_CONNECTED, 8-bit (TFLite reference FullyConnected, uint8 per-tensor and int8 per-tensor or
// per-channel along weights dimension 0): rows of the input (last dimension = weights depth) times
// the weights rows, plus bias, requantised per output unit.
#include <algorithm>
#include <vector>

#include "models/hle/kernel_context.h"

namespace coralsim::hle {

void runFullyConnected(KernelContext& ctx) {
  const Tensor& inT = ctx.input(0);
  const Tensor& wT = ctx.input(1);
  const Tensor& outT = ctx.output();
  ctx.require(isQuantized8(inT.type) && isQuantized8(wT.type) && isQuantized8(outT.type),
              "only uint8/int8 input, weights and output are supported");
  ctx.require(wT.shape.size() == 2, "weights must be 2-D [units, depth]");
  const auto units = static_cast<size_t>(wT.shape[0]);
  const auto depth = static_cast<size_t>(wT.shape[1]);
  const auto in = ctx.inputBytes(0);
  const auto weights = ctx.inputBytes(1);
  ctx.require(depth > 0 && in.size() % depth == 0, "input size is not a multiple of the weights depth");
  const size_t rows = in.size() / depth;
  ctx.require(elementCount(outT.shape) == rows * units, "output size is not rows x units");
  std::span<const uint8_t> bias;
  if (ctx.hasInput(2)) {
    ctx.require(ctx.input(2).type == ElementType::Int32, "bias must be int32");
    bias = ctx.inputBytes(2);
    ctx.require(bias.size() == units * 4, "bias length differs from the units");
  }
  ctx.require(wT.scale.size() == 1 || wT.scale.size() == units, "weights scales are neither per tensor nor per unit");
  const double inScale = ctx.scaleOf(inT);
  const double outScale = ctx.scaleOf(outT);
  std::vector<QuantizedMultiplier> mult(units);
  // Per-tensor weights: TFLite's GetQuantizedConvolutionMultipler rounds the input x weights
  // scale product to float before dividing in double; that float rounding moves the Q31
  // mantissa's low bits, so it is reproduced. Per-unit weights (never run by TFLite <= 2.9; the
  // golden data's reference is the reference-kernel formula) stay in double.
  const bool perTensor = wT.scale.size() == 1;
  for (size_t u = 0; u < units; ++u) {
    const double product = perTensor ? static_cast<double>(ctx.scaleOf(inT) * ctx.scaleOf(wT))
                                     : inScale * static_cast<double>(ctx.scaleOf(wT, u));
    mult[u] = quantizeMultiplier(product / outScale);
  }
  const int32_t inZp = ctx.zeroPointOf(inT);
  const int32_t outZp = ctx.zeroPointOf(outT);
  int32_t lo = 0, hi = 0;
  ctx.activationRange(outT, lo, hi);
  auto out = ctx.allocateOutput();
  for (size_t r = 0; r < rows; ++r) {
    for (size_t u = 0; u < units; ++u) {
      const int32_t wZp = ctx.zeroPointOf(wT, u);
      int32_t acc = 0;
      for (size_t d = 0; d < depth; ++d) {
        acc += (load8(inT.type, in.data(), r * depth + d) - inZp) * (load8(wT.type, weights.data(), u * depth + d) - wZp);
      }
      if (!bias.empty()) acc += loadInt32(bias, u);
      acc = multiplyByQuantizedMultiplier(acc, mult[u]) + outZp;
      store8(out.data(), r * units + u, std::clamp(acc, lo, hi));
    }
  }
}

}  // namespace coralsim::hle
