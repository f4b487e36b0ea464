// AVERAGE_POOL_2D and MAX_POOL_2D on 8-bit tensors (TFLite reference): the window is clipped to
// the input, the average divides by the clipped count rounding half away from zero, both clamp to
// the fused activation range. Input and output share their quantisation.
#include <algorithm>

#include "models/hle/kernel_context.h"

namespace coralsim::hle {
namespace {

void pool(KernelContext& ctx, bool average) {
  const Tensor& inT = ctx.input(0);
  const Tensor& outT = ctx.output();
  ctx.require(isQuantized8(inT.type) && outT.type == inT.type, "only uint8/int8 input and output of one type are supported");
  ctx.require(inT.shape.size() == 4 && outT.shape.size() == 4, "input and output must be 4-D (NHWC)");
  const OpOptions& o = ctx.options();
  ctx.require(o.strideH > 0 && o.strideW > 0 && o.filterH > 0 && o.filterW > 0, "stride and filter must be positive");
  const int32_t batches = inT.shape[0], inH = inT.shape[1], inW = inT.shape[2], depth = inT.shape[3];
  const int32_t outH = outT.shape[1], outW = outT.shape[2];
  ctx.require(outT.shape[0] == batches && outT.shape[3] == depth, "output batch/depth differ from the input");
  auto padBefore = [&](int32_t stride, int32_t in, int32_t filter, int32_t out) {
    return o.padding == Padding::Valid ? 0 : std::max((out - 1) * stride + filter - in, 0) / 2;
  };
  const int32_t padTop = padBefore(o.strideH, inH, o.filterH, outH);
  const int32_t padLeft = padBefore(o.strideW, inW, o.filterW, outW);
  int32_t lo = 0, hi = 0;
  ctx.activationRange(outT, lo, hi);
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  size_t oi = 0;
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t oy = 0; oy < outH; ++oy) {
      for (int32_t ox = 0; ox < outW; ++ox) {
        const int32_t y0 = oy * o.strideH - padTop, x0 = ox * o.strideW - padLeft;
        const int32_t yBegin = std::max(0, y0), yEnd = std::min(inH, y0 + o.filterH);
        const int32_t xBegin = std::max(0, x0), xEnd = std::min(inW, x0 + o.filterW);
        for (int32_t c = 0; c < depth; ++c, ++oi) {
          int32_t acc = average ? 0 : typeMin(inT.type);
          int32_t count = 0;
          for (int32_t y = yBegin; y < yEnd; ++y) {
            for (int32_t x = xBegin; x < xEnd; ++x) {
              const int32_t v = load8(inT.type, in.data(), ((static_cast<size_t>(b) * inH + y) * inW + x) * depth + c);
              acc = average ? acc + v : std::max(acc, v);
              ++count;
            }
          }
          if (average) {
            ctx.require(count > 0, "a pooling window covers no input");
            acc = acc >= 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
          }
          store8(out.data(), oi, std::clamp(acc, lo, hi));
        }
      }
    }
  }
}

}  // namespace

void runAveragePool2d(KernelContext& ctx) { pool(ctx, true); }
void runMaxPool2d(KernelContext& ctx) { pool(ctx, false); }

}  // namespace coralsim::hle
