// CONV_2D and DEPTHWISE_CONV_2D, 8-bit (TFLite reference ConvPerChannel / DepthwiseConvPerChannel
// and the uint8 per-tensor forms, which are the same arithmetic with one channel parameter):
// acc = bias + sum (input - input_zp) * (filter - filter_zp), requantised per output channel with
// multiplier input_scale * filter_scale[c] / output_scale, plus output_zp, clamped to the fused
// activation range.
#include <algorithm>
#include <vector>

#include "models/hle/kernel_context.h"

namespace coralsim::hle {
namespace {

struct ConvGeometry {
  int32_t batches, inH, inW, inC, outH, outW, outC, filterH, filterW;
  int32_t strideH, strideW, dilationH, dilationW, padTop, padLeft;
};

// TFLite's ComputePaddingHeightWidth: half the total padding before, the odd one after.
int32_t paddingBefore(Padding padding, int32_t stride, int32_t dilation, int32_t in, int32_t filter, int32_t out) {
  if (padding == Padding::Valid) return 0;
  const int32_t effectiveFilter = (filter - 1) * dilation + 1;
  const int32_t total = (out - 1) * stride + effectiveFilter - in;
  return std::max(total, 0) / 2;
}

ConvGeometry geometry(const KernelContext& ctx, bool depthwise) {
  const Tensor& in = ctx.input(0);
  const Tensor& filter = ctx.input(1);
  const Tensor& out = ctx.output();
  ctx.require(in.shape.size() == 4 && filter.shape.size() == 4 && out.shape.size() == 4,
              "input, filter and output must be 4-D (NHWC)");
  const OpOptions& o = ctx.options();
  ConvGeometry g{in.shape[0], in.shape[1], in.shape[2], in.shape[3], out.shape[1], out.shape[2], out.shape[3],
                 filter.shape[1], filter.shape[2], o.strideH, o.strideW, o.dilationH, o.dilationW, 0, 0};
  ctx.require(g.strideH > 0 && g.strideW > 0 && g.dilationH > 0 && g.dilationW > 0, "stride and dilation must be positive");
  ctx.require(out.shape[0] == g.batches, "output batch differs from the input batch");
  if (depthwise) {
    ctx.require(filter.shape[3] == g.outC, "depthwise filter channels differ from the output channels");
    const int32_t multiplier = o.depthMultiplier > 0 ? o.depthMultiplier : g.outC / std::max(g.inC, 1);
    ctx.require(g.inC * multiplier == g.outC, "output channels are not input channels x depth multiplier");
  } else {
    ctx.require(filter.shape[0] == g.outC && filter.shape[3] == g.inC, "filter shape does not match input/output channels");
  }
  g.padTop = paddingBefore(o.padding, g.strideH, g.dilationH, g.inH, g.filterH, g.outH);
  g.padLeft = paddingBefore(o.padding, g.strideW, g.dilationW, g.inW, g.filterW, g.outW);
  return g;
}

struct ChannelRequant {
  std::vector<QuantizedMultiplier> multiplier;
  std::vector<int32_t> filterZeroPoint;
  std::vector<int32_t> bias;
};

ChannelRequant channelParams(const KernelContext& ctx, int32_t outC) {
  const Tensor& in = ctx.input(0);
  const Tensor& filter = ctx.input(1);
  const Tensor& out = ctx.output();
  ChannelRequant r;
  const double inScale = ctx.scaleOf(in);
  const double outScale = ctx.scaleOf(out);
  ctx.require(filter.scale.size() == 1 || filter.scale.size() == static_cast<size_t>(outC),
              "filter has " + std::to_string(filter.scale.size()) + " scales for " + std::to_string(outC) + " output channels");
  std::span<const uint8_t> bias;
  if (ctx.hasInput(2)) {
    ctx.require(ctx.input(2).type == ElementType::Int32, "bias must be int32");
    bias = ctx.inputBytes(2);
    ctx.require(bias.size() == static_cast<size_t>(outC) * 4, "bias length differs from the output channels");
  }
  for (int32_t c = 0; c < outC; ++c) {
    const auto ch = static_cast<size_t>(c);
    r.multiplier.push_back(quantizeMultiplier(inScale * static_cast<double>(ctx.scaleOf(filter, ch)) / outScale));
    r.filterZeroPoint.push_back(ctx.zeroPointOf(filter, ch));
    r.bias.push_back(bias.empty() ? 0 : loadInt32(bias, ch));
  }
  return r;
}

void checkTypes(const KernelContext& ctx) {
  ctx.require(isQuantized8(ctx.input(0).type) && isQuantized8(ctx.input(1).type) && isQuantized8(ctx.output().type),
              "only uint8/int8 input, filter and output are supported");
}

}  // namespace

void runConv2d(KernelContext& ctx) {
  checkTypes(ctx);
  const ConvGeometry g = geometry(ctx, false);
  const ChannelRequant r = channelParams(ctx, g.outC);
  const Tensor& inT = ctx.input(0);
  const Tensor& fT = ctx.input(1);
  const Tensor& outT = ctx.output();
  const auto in = ctx.inputBytes(0);
  const auto filter = ctx.inputBytes(1);
  auto out = ctx.allocateOutput();
  int32_t lo = 0, hi = 0;
  ctx.activationRange(outT, lo, hi);
  const int32_t inZp = ctx.zeroPointOf(inT);
  const int32_t outZp = ctx.zeroPointOf(outT);

  // Widen once: the inner loop then is plain int32 multiply-accumulate.
  std::vector<int32_t> inVals(in.size()), fVals(filter.size());
  for (size_t i = 0; i < in.size(); ++i) inVals[i] = load8(inT.type, in.data(), i) - inZp;
  for (size_t i = 0; i < filter.size(); ++i) fVals[i] = load8(fT.type, filter.data(), i);

  size_t o = 0;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.outH; ++oy) {
      for (int32_t ox = 0; ox < g.outW; ++ox) {
        const int32_t y0 = oy * g.strideH - g.padTop;
        const int32_t x0 = ox * g.strideW - g.padLeft;
        for (int32_t oc = 0; oc < g.outC; ++oc, ++o) {
          const int32_t fZp = r.filterZeroPoint[static_cast<size_t>(oc)];
          int32_t acc = 0;
          for (int32_t fy = 0; fy < g.filterH; ++fy) {
            const int32_t y = y0 + fy * g.dilationH;
            if (y < 0 || y >= g.inH) continue;
            for (int32_t fx = 0; fx < g.filterW; ++fx) {
              const int32_t x = x0 + fx * g.dilationW;
              if (x < 0 || x >= g.inW) continue;
              const int32_t* ip = &inVals[((static_cast<size_t>(b) * g.inH + y) * g.inW + x) * g.inC];
              const int32_t* fp = &fVals[((static_cast<size_t>(oc) * g.filterH + fy) * g.filterW + fx) * g.inC];
              for (int32_t c = 0; c < g.inC; ++c) acc += ip[c] * (fp[c] - fZp);
            }
          }
          acc += r.bias[static_cast<size_t>(oc)];
          acc = multiplyByQuantizedMultiplier(acc, r.multiplier[static_cast<size_t>(oc)]) + outZp;
          store8(out.data(), o, std::clamp(acc, lo, hi));
        }
      }
    }
  }
}

void runDepthwiseConv2d(KernelContext& ctx) {
  checkTypes(ctx);
  const ConvGeometry g = geometry(ctx, true);
  const ChannelRequant r = channelParams(ctx, g.outC);
  const int32_t multiplier = g.outC / std::max(g.inC, 1);
  const Tensor& inT = ctx.input(0);
  const Tensor& fT = ctx.input(1);
  const Tensor& outT = ctx.output();
  const auto in = ctx.inputBytes(0);
  const auto filter = ctx.inputBytes(1);
  auto out = ctx.allocateOutput();
  int32_t lo = 0, hi = 0;
  ctx.activationRange(outT, lo, hi);
  const int32_t inZp = ctx.zeroPointOf(inT);
  const int32_t outZp = ctx.zeroPointOf(outT);

  size_t o = 0;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.outH; ++oy) {
      for (int32_t ox = 0; ox < g.outW; ++ox) {
        const int32_t y0 = oy * g.strideH - g.padTop;
        const int32_t x0 = ox * g.strideW - g.padLeft;
        for (int32_t oc = 0; oc < g.outC; ++oc, ++o) {
          const int32_t ic = oc / multiplier;
          const int32_t fZp = r.filterZeroPoint[static_cast<size_t>(oc)];
          int32_t acc = 0;
          for (int32_t fy = 0; fy < g.filterH; ++fy) {
            const int32_t y = y0 + fy * g.dilationH;
            if (y < 0 || y >= g.inH) continue;
            for (int32_t fx = 0; fx < g.filterW; ++fx) {
              const int32_t x = x0 + fx * g.dilationW;
              if (x < 0 || x >= g.inW) continue;
              const size_t ii = ((static_cast<size_t>(b) * g.inH + y) * g.inW + x) * g.inC + ic;
              const size_t fi = (static_cast<size_t>(fy) * g.filterW + fx) * g.outC + oc;
              acc += (load8(inT.type, in.data(), ii) - inZp) * (load8(fT.type, filter.data(), fi) - fZp);
            }
          }
          acc += r.bias[static_cast<size_t>(oc)];
          acc = multiplyByQuantizedMultiplier(acc, r.multiplier[static_cast<size_t>(oc)]) + outZp;
          store8(out.data(), o, std::clamp(acc, lo, hi));
        }
      }
    }
  }
}

}  // namespace coralsim::hle
