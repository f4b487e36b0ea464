// CONV_2D and DEPTHWISE_CONV_2D, 8-bit (TFLite ConvPerChannel / DepthwiseConvPerChannel and the
// uint8 per-tensor forms, which are the same arithmetic with one channel parameter):
// acc = bias + sum (input - input_zp) * (filter - filter_zp), requantised per output channel with
// multiplier input_scale * filter_scale[c] / output_scale, plus output_zp, clamped to the fused
// activation range. The rounding is TFLite 2.9's as the golden data shows it: CONV_2D goes through
// its GEMM back end (final shift rounds ties up), DEPTHWISE_CONV_2D through the reference
// rounding (ties away from zero).
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
  ctx.require(g.batches >= 0 && g.inH >= 0 && g.inW >= 0 && g.inC > 0 && g.outH >= 0 && g.outW >= 0 && g.outC > 0 &&
                  g.filterH > 0 && g.filterW > 0,
              "a dimension of the input, filter or output is negative or zero");
  ctx.require(out.shape[0] == g.batches, "output batch differs from the input batch");
  if (depthwise) {
    ctx.require(filter.shape[0] == 1 && filter.shape[3] == g.outC, "depthwise filter must be [1, h, w, output channels]");
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
  // TFLite keeps two derivations: uint8 models use the legacy per-tensor multiplier, whose
  // input x filter scale product is rounded to float before the division in double
  // (GetQuantizedConvolutionMultipler); int8 uses per-channel multipliers computed in double
  // throughout. The two differ in the low bits of the Q31 mantissa, which flips rounding ties.
  const bool legacyUint8 = in.type == ElementType::UInt8;
  for (int32_t c = 0; c < outC; ++c) {
    const auto ch = static_cast<size_t>(c);
    const double product = legacyUint8 ? static_cast<double>(ctx.scaleOf(in) * ctx.scaleOf(filter, ch))
                                       : inScale * static_cast<double>(ctx.scaleOf(filter, ch));
    r.multiplier.push_back(quantizeMultiplier(product / outScale));
    r.filterZeroPoint.push_back(ctx.zeroPointOf(filter, ch));
    r.bias.push_back(bias.empty() ? 0 : loadInt32(bias, ch));
  }
  return r;
}

// Output pixels computed together: each filter row is read once per block, not once per pixel.
constexpr size_t kPixelBlock = 4;

// x86-64 GCC builds the hot loop twice (AVX2 and baseline) and picks one at load time; the
// results are integers, identical either way.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#define CORALSIM_HLE_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CORALSIM_HLE_VECTOR_CLONES
#endif

// acc[k] = sum_i row[i] * patch[k][i], int16 products accumulated in int32 (the vectoriser's
// multiply-add-pairs).
CORALSIM_HLE_VECTOR_CLONES void dotBlock(const int16_t* row, const int16_t* const* patch, size_t n, int32_t* acc) {
  const int16_t* p0 = patch[0];
  const int16_t* p1 = patch[1];
  const int16_t* p2 = patch[2];
  const int16_t* p3 = patch[3];
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (size_t i = 0; i < n; ++i) {
    const int32_t w = row[i];
    a0 += w * p0[i];
    a1 += w * p1[i];
    a2 += w * p2[i];
    a3 += w * p3[i];
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}
static_assert(kPixelBlock == 4, "dotBlock computes four pixels");

// acc[c] += a[c] * b[c] over the channels (depthwise taps).
CORALSIM_HLE_VECTOR_CLONES void multiplyAccumulate(const int16_t* a, const int16_t* b, size_t n, int32_t* acc) {
  for (size_t c = 0; c < n; ++c) acc[c] += static_cast<int32_t>(a[c]) * static_cast<int32_t>(b[c]);
}

// The (zero-point-subtracted) input patch under the filter at (y0, x0), in filter order
// [fy][fx][c]; taps outside the input are zero. Without dilation the taps of one filter row are
// contiguous in the input, so each row is one copy.
void gatherPatch(const ConvGeometry& g, const int16_t* in, size_t b, int32_t y0, int32_t x0, int16_t* dst) {
  const auto inC = static_cast<size_t>(g.inC);
  const size_t rowLen = static_cast<size_t>(g.filterW) * inC;
  const auto pixelAt = [&](int32_t y, int32_t x) {
    return in + ((b * static_cast<size_t>(g.inH) + static_cast<size_t>(y)) * static_cast<size_t>(g.inW) + static_cast<size_t>(x)) * inC;
  };
  for (int32_t fy = 0; fy < g.filterH; ++fy, dst += rowLen) {
    const int32_t y = y0 + fy * g.dilationH;
    if (y < 0 || y >= g.inH) {
      std::fill(dst, dst + rowLen, int16_t{0});
      continue;
    }
    if (g.dilationW == 1) {
      const int32_t first = std::clamp(-x0, 0, g.filterW);             // taps left of the input
      const int32_t last = std::clamp(g.inW - x0, first, g.filterW);   // one past the last inside
      std::fill(dst, dst + static_cast<size_t>(first) * inC, int16_t{0});
      if (last > first) std::copy_n(pixelAt(y, x0 + first), static_cast<size_t>(last - first) * inC, dst + static_cast<size_t>(first) * inC);
      std::fill(dst + static_cast<size_t>(last) * inC, dst + rowLen, int16_t{0});
      continue;
    }
    for (int32_t fx = 0; fx < g.filterW; ++fx) {
      const int32_t x = x0 + fx * g.dilationW;
      int16_t* tap = dst + static_cast<size_t>(fx) * inC;
      if (x < 0 || x >= g.inW) {
        std::fill(tap, tap + inC, int16_t{0});
      } else {
        std::copy_n(pixelAt(y, x), inC, tap);
      }
    }
  }
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

  // Zero points subtracted once, into int16 (8-bit minus 8-bit fits): each output is then a dot
  // product of an input patch with a filter row. Padding contributes zero, as in TFLite.
  const auto inC = static_cast<size_t>(g.inC);
  const size_t patchLen = static_cast<size_t>(g.filterH) * static_cast<size_t>(g.filterW) * inC;
  std::vector<int16_t> inVals(in.size());
  for (size_t i = 0; i < in.size(); ++i) inVals[i] = static_cast<int16_t>(load8(inT.type, in.data(), i) - inZp);
  std::vector<int16_t> fVals(filter.size());
  for (size_t i = 0; i < filter.size(); ++i) {
    fVals[i] = static_cast<int16_t>(load8(fT.type, filter.data(), i) - r.filterZeroPoint[i / patchLen]);
  }

  // A 1x1 stride-1 unpadded convolution reads its patches straight from the input.
  const bool pointwise = g.filterH == 1 && g.filterW == 1 && g.strideH == 1 && g.strideW == 1 && g.padTop == 0 &&
                         g.padLeft == 0 && g.outH == g.inH && g.outW == g.inW;
  const size_t pixels = static_cast<size_t>(g.batches) * static_cast<size_t>(g.outH) * static_cast<size_t>(g.outW);
  std::vector<int16_t> patches(pointwise ? 0 : kPixelBlock * patchLen);
  const int16_t* patch[kPixelBlock] = {};

  for (size_t p0 = 0; p0 < pixels; p0 += kPixelBlock) {
    const size_t block = std::min(kPixelBlock, pixels - p0);
    for (size_t k = 0; k < block; ++k) {
      const size_t pixel = p0 + k;
      if (pointwise) {
        patch[k] = &inVals[pixel * inC];
        continue;
      }
      const size_t b = pixel / (static_cast<size_t>(g.outH) * static_cast<size_t>(g.outW));
      const auto oy = static_cast<int32_t>(pixel / static_cast<size_t>(g.outW) % static_cast<size_t>(g.outH));
      const auto ox = static_cast<int32_t>(pixel % static_cast<size_t>(g.outW));
      int16_t* dst = &patches[k * patchLen];
      patch[k] = dst;
      gatherPatch(g, inVals.data(), b, oy * g.strideH - g.padTop, ox * g.strideW - g.padLeft, dst);
    }
    for (size_t k = block; k < kPixelBlock; ++k) patch[k] = patch[0];  // a short last block repeats pixel 0
    for (int32_t oc = 0; oc < g.outC; ++oc) {
      const auto c = static_cast<size_t>(oc);
      int32_t acc[kPixelBlock];
      dotBlock(&fVals[c * patchLen], patch, patchLen, acc);
      for (size_t k = 0; k < block; ++k) {
        const int32_t v = multiplyByQuantizedMultiplierGemm(acc[k] + r.bias[c], r.multiplier[c]) + outZp;
        store8(out.data(), (p0 + k) * static_cast<size_t>(g.outC) + c, std::clamp(v, lo, hi));
      }
    }
  }
}

void runDepthwiseConv2d(KernelContext& ctx) {
  checkTypes(ctx);
  const ConvGeometry g = geometry(ctx, true);
  const ChannelRequant r = channelParams(ctx, g.outC);
  const auto multiplier = static_cast<size_t>(g.outC / std::max(g.inC, 1));
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

  // Zero points subtracted once into int16, the input repeated per depth multiplier so that
  // output channel c reads input lane c: every tap is then one multiply-add over all channels.
  const auto outC = static_cast<size_t>(g.outC);
  const size_t inPixels = in.size() / std::max<size_t>(static_cast<size_t>(g.inC), 1);
  std::vector<int16_t> inVals(inPixels * outC);
  for (size_t p = 0; p < inPixels; ++p) {
    for (size_t c = 0; c < outC; ++c) {
      inVals[p * outC + c] = static_cast<int16_t>(load8(inT.type, in.data(), p * static_cast<size_t>(g.inC) + c / multiplier) - inZp);
    }
  }
  std::vector<int16_t> fVals(filter.size());
  for (size_t i = 0; i < filter.size(); ++i) {
    fVals[i] = static_cast<int16_t>(load8(fT.type, filter.data(), i) - r.filterZeroPoint[i % outC]);
  }

  std::vector<int32_t> acc(outC);
  size_t o = 0;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.outH; ++oy) {
      for (int32_t ox = 0; ox < g.outW; ++ox) {
        const int32_t y0 = oy * g.strideH - g.padTop;
        const int32_t x0 = ox * g.strideW - g.padLeft;
        std::fill(acc.begin(), acc.end(), 0);
        for (int32_t fy = 0; fy < g.filterH; ++fy) {
          const int32_t y = y0 + fy * g.dilationH;
          if (y < 0 || y >= g.inH) continue;
          for (int32_t fx = 0; fx < g.filterW; ++fx) {
            const int32_t x = x0 + fx * g.dilationW;
            if (x < 0 || x >= g.inW) continue;
            const size_t pixel = (static_cast<size_t>(b) * static_cast<size_t>(g.inH) + static_cast<size_t>(y)) * static_cast<size_t>(g.inW) +
                                 static_cast<size_t>(x);
            const size_t tap = static_cast<size_t>(fy) * static_cast<size_t>(g.filterW) + static_cast<size_t>(fx);
            multiplyAccumulate(&inVals[pixel * outC], &fVals[tap * outC], outC, acc.data());
          }
        }
        for (size_t c = 0; c < outC; ++c, ++o) {
          const int32_t v = multiplyByQuantizedMultiplier(acc[c] + r.bias[c], r.multiplier[c]) + outZp;
          store8(out.data(), o, std::clamp(v, lo, hi));
        }
      }
    }
  }
}

}  // namespace coralsim::hle
