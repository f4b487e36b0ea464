// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR on 8-bit NHWC tensors. Both move and blend the stored
// values and ignore the quantisation, as TFLite does: a twin whose resize output is quantised
// differently from its input (the older DeepLab v3 conversion) gets the same raw values.
//
// Bilinear has two arithmetics in TFLite 2.9's builtin kernels, checked bit-exactly against it on
// generated single-op models (every flag combination, up- and downscaling):
//  - int8: the integer form (ResizeBilinearInteger): source coordinates in 10-bit fixed point,
//    scale = round(2^10 * in / out) (or (in - 1) / (out - 1) with align_corners),
//    half_pixel_centers shifts by half a source and half a destination pixel; the four weights
//    multiply to a 20-bit fraction, and the sum is rounded half away from zero.
//  - uint8: the float form (the optimised kernel TFLite runs for uint8): float scale and source
//    coordinate, weights (1 - dy)(1 - dx) ..., the four products summed in float in TFLite's order,
//    + 0.5 and truncated.
// Nearest neighbour follows TFLite's GetNearestNeighbor: float scale, floor (round with
// align_corners), clamped.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "models/hle/kernel_context.h"

namespace coralsim::hle {
namespace {

struct ResizeShape {
  int32_t batches, inH, inW, depth, outH, outW;
};

// Checks what both resizes need: 8-bit 4-D input and output of one type, a size tensor [2]
// (int32) that agrees with the output shape.
ResizeShape resizeShape(const KernelContext& ctx) {
  const Tensor& inT = ctx.input(0);
  const Tensor& outT = ctx.output();
  ctx.require(isQuantized8(inT.type) && outT.type == inT.type, "only uint8/int8 input and output of one type are supported");
  ctx.require(inT.shape.size() == 4 && outT.shape.size() == 4, "input and output must be 4-D (NHWC)");
  ctx.require(outT.shape[0] == inT.shape[0] && outT.shape[3] == inT.shape[3], "output batch/depth differ from the input");
  if (ctx.hasInput(1)) {
    const Tensor& sizeT = ctx.input(1);
    ctx.require(sizeT.type == ElementType::Int32 && elementCount(sizeT.shape) == 2, "size must be int32[2]");
    const auto size = ctx.inputBytes(1);
    ctx.require(loadInt32(size, 0) == outT.shape[1] && loadInt32(size, 1) == outT.shape[2],
                "size (" + std::to_string(loadInt32(size, 0)) + ", " + std::to_string(loadInt32(size, 1)) +
                    ") differs from the output shape");
  }
  const ResizeShape s{inT.shape[0], inT.shape[1], inT.shape[2], inT.shape[3], outT.shape[1], outT.shape[2]};
  ctx.require(s.batches > 0 && s.depth > 0 && s.inH > 0 && s.inW > 0 && s.outH > 0 && s.outW > 0,
              "input and output must not be empty");
  // Keeps 2^10 x extent (the fixed-point coordinates) inside int32.
  constexpr int32_t kMaxExtent = 1 << 20;
  ctx.require(s.inH < kMaxExtent && s.inW < kMaxExtent && s.outH < kMaxExtent && s.outW < kMaxExtent,
              "height or width of 2^20 or more is not supported");
  return s;
}

// The source coordinate of output index `value` in 10-bit fixed point, and its two neighbours.
struct Source10 {
  int32_t scaled, lower, upper;
};

int32_t scale10(int32_t in, int32_t out, bool alignCorners) {
  if (alignCorners && out > 1) return ((1 << 10) * (in - 1) + (out - 1) / 2) / (out - 1);
  return ((1 << 10) * in + out / 2) / out;
}

Source10 source10(int32_t value, int32_t scale, bool halfPixelCenters, int32_t inSize) {
  Source10 s{};
  s.scaled = halfPixelCenters ? value * scale + scale / 2 - (1 << 9) : value * scale;
  s.lower = std::max(s.scaled / (1 << 10), 0);  // division truncates: -0.3 -> 0, like TFLite
  s.upper = std::min((s.scaled + (1 << 10) - 1) / (1 << 10), inSize - 1);
  return s;
}

int32_t nearest(int32_t value, int32_t inSize, int32_t outSize, bool alignCorners, bool halfPixelCenters) {
  const float scale = (alignCorners && outSize > 1) ? static_cast<float>(inSize - 1) / static_cast<float>(outSize - 1)
                                                    : static_cast<float>(inSize) / static_cast<float>(outSize);
  const float offset = halfPixelCenters ? 0.5F : 0.0F;
  const float pos = (static_cast<float>(value) + offset) * scale;
  int32_t result = std::min(alignCorners ? roundToInt(pos) : static_cast<int32_t>(std::floor(pos)), inSize - 1);
  if (halfPixelCenters) result = std::max(result, 0);
  return result;
}

// TFLite's float source coordinate (ComputeInterpolationValues) and its two neighbours.
struct SourceF {
  float scaled;
  int32_t lower, upper;
};

float scaleF(int32_t in, int32_t out, bool alignCorners) {
  if (alignCorners && out > 1) return static_cast<float>(in - 1) / static_cast<float>(out - 1);
  return static_cast<float>(in) / static_cast<float>(out);
}

SourceF sourceF(int32_t value, float scale, bool halfPixelCenters, int32_t inSize) {
  SourceF s{};
  s.scaled = halfPixelCenters ? (static_cast<float>(value) + 0.5F) * scale - 0.5F : static_cast<float>(value) * scale;
  s.lower = std::max(static_cast<int32_t>(std::floor(s.scaled)), 0);
  s.upper = std::min(static_cast<int32_t>(std::ceil(s.scaled)), inSize - 1);
  return s;
}

void resizeBilinearUint8(KernelContext& ctx, const ResizeShape& s) {
  const OpOptions& o = ctx.options();
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  const float scaleY = scaleF(s.inH, s.outH, o.alignCorners);
  const float scaleX = scaleF(s.inW, s.outW, o.alignCorners);
  const auto at = [&](int32_t b, int32_t y, int32_t x, int32_t c) {
    return static_cast<float>(in[((static_cast<size_t>(b) * s.inH + y) * s.inW + x) * s.depth + c]);
  };
  size_t oi = 0;
  for (int32_t b = 0; b < s.batches; ++b) {
    for (int32_t y = 0; y < s.outH; ++y) {
      const SourceF sy = sourceF(y, scaleY, o.halfPixelCenters, s.inH);
      const float dy = sy.scaled - static_cast<float>(sy.lower);
      for (int32_t x = 0; x < s.outW; ++x) {
        const SourceF sx = sourceF(x, scaleX, o.halfPixelCenters, s.inW);
        const float dx = sx.scaled - static_cast<float>(sx.lower);
        for (int32_t c = 0; c < s.depth; ++c, ++oi) {
          // Evaluation order as in TFLite: each product left to right, the sum left to right.
          const float v = at(b, sy.lower, sx.lower, c) * (1 - dy) * (1 - dx) + at(b, sy.upper, sx.lower, c) * dy * (1 - dx) +
                          at(b, sy.lower, sx.upper, c) * (1 - dy) * dx + at(b, sy.upper, sx.upper, c) * dy * dx + 0.5F;
          store8(out.data(), oi, std::clamp(static_cast<int32_t>(v), 0, 255));
        }
      }
    }
  }
}

}  // namespace

void runResizeBilinear(KernelContext& ctx) {
  const ResizeShape s = resizeShape(ctx);
  const OpOptions& o = ctx.options();
  ctx.require(!(o.alignCorners && o.halfPixelCenters), "align_corners and half_pixel_centers are exclusive");
  const ElementType type = ctx.input(0).type;
  if (type == ElementType::UInt8) {
    resizeBilinearUint8(ctx, s);
    return;
  }
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  const int32_t scaleY = scale10(s.inH, s.outH, o.alignCorners);
  const int32_t scaleX = scale10(s.inW, s.outW, o.alignCorners);
  const auto at = [&](int32_t b, int32_t y, int32_t x, int32_t c) {
    return static_cast<int64_t>(load8(type, in.data(), ((static_cast<size_t>(b) * s.inH + y) * s.inW + x) * s.depth + c));
  };
  size_t oi = 0;
  for (int32_t b = 0; b < s.batches; ++b) {
    for (int32_t y = 0; y < s.outH; ++y) {
      const Source10 sy = source10(y, scaleY, o.halfPixelCenters, s.inH);
      const int64_t wy1 = sy.scaled - (1 << 10) * sy.lower;  // weight of the upper row, /1024
      const int64_t wy0 = (1 << 10) - wy1;
      for (int32_t x = 0; x < s.outW; ++x) {
        const Source10 sx = source10(x, scaleX, o.halfPixelCenters, s.inW);
        const int64_t wx1 = sx.scaled - (1 << 10) * sx.lower;
        const int64_t wx0 = (1 << 10) - wx1;
        for (int32_t c = 0; c < s.depth; ++c, ++oi) {
          const int64_t sum20 = at(b, sy.lower, sx.lower, c) * wy0 * wx0 + at(b, sy.upper, sx.lower, c) * wy1 * wx0 +
                                at(b, sy.lower, sx.upper, c) * wy0 * wx1 + at(b, sy.upper, sx.upper, c) * wy1 * wx1;
          const int64_t half = sum20 > 0 ? (int64_t{1} << 19) : -(int64_t{1} << 19);
          const int64_t v = (sum20 + half) / (int64_t{1} << 20);  // truncating division: ties away from zero
          store8(out.data(), oi, static_cast<int32_t>(std::clamp<int64_t>(v, typeMin(type), typeMax(type))));
        }
      }
    }
  }
}

void runResizeNearestNeighbor(KernelContext& ctx) {
  const ResizeShape s = resizeShape(ctx);
  const OpOptions& o = ctx.options();
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  const auto depth = static_cast<size_t>(s.depth);
  uint8_t* dst = out.data();
  for (int32_t b = 0; b < s.batches; ++b) {
    for (int32_t y = 0; y < s.outH; ++y) {
      const int32_t iy = nearest(y, s.inH, s.outH, o.alignCorners, o.halfPixelCenters);
      for (int32_t x = 0; x < s.outW; ++x, dst += depth) {
        const int32_t ix = nearest(x, s.inW, s.outW, o.alignCorners, o.halfPixelCenters);
        std::memcpy(dst, in.data() + ((static_cast<size_t>(b) * s.inH + iy) * s.inW + ix) * depth, depth);
      }
    }
  }
}

}  // namespace coralsim::hle
