// Reductions over axes: MEAN on 8-bit tensors and ARG_MAX.
//
// MEAN follows TFLite's reference kernels, which pick one of three arithmetics:
//  - 4-D input reduced over height and width (axes {1, 2}) with keep_dims: the fixed-point path.
//    uint8: sum * Q31(in_scale / (count * out_scale)) + (out_zp - trunc(in_zp * in_scale / out_scale)).
//    int8: (sum of (x - in_zp)) * Q31(in_scale / out_scale), then / count rounded half away from
//    zero, + out_zp.
//  - otherwise, input and output quantised alike: the integer sum divided by the count
//    (C++ division, truncating towards zero).
//  - otherwise (the requantising path): float mean, * in_scale / out_scale, - in_zp * that ratio,
//    rounded half away from zero, + out_zp.
// All clamp to the element type. ARG_MAX returns the first index of the largest value.
#include <algorithm>
#include <cstring>
#include <vector>

#include "models/hle/kernel_context.h"

namespace coralsim::hle {
namespace {

// The axis tensor's values resolved to [0, rank), deduplicated, in ascending order.
std::vector<size_t> resolveAxes(const KernelContext& ctx, size_t axisInput, size_t rank) {
  const Tensor& axisT = ctx.input(axisInput);
  ctx.require(axisT.type == ElementType::Int32 || axisT.type == ElementType::Int64, "axis must be int32 or int64");
  const auto bytes = ctx.inputBytes(axisInput);
  std::vector<size_t> axes;
  const size_t n = elementCount(axisT.shape);
  for (size_t i = 0; i < n; ++i) {
    int64_t a = 0;
    if (axisT.type == ElementType::Int32) {
      a = loadInt32(bytes, i);
    } else {
      std::memcpy(&a, bytes.data() + i * 8, 8);
    }
    const int64_t signedRank = static_cast<int64_t>(rank);
    ctx.require(a >= -signedRank && a < signedRank, "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    if (a < 0) a += signedRank;
    axes.push_back(static_cast<size_t>(a));
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

// For every input element, the flat index of the output element it reduces into.
struct Reduction {
  std::vector<size_t> target;  // per input element
  size_t outputs = 0;
  size_t countPerOutput = 0;
};

Reduction planReduction(const std::vector<int32_t>& shape, const std::vector<size_t>& axes) {
  Reduction r;
  const size_t rank = shape.size();
  std::vector<bool> reduced(rank, false);
  for (size_t a : axes) reduced[a] = true;
  r.outputs = 1;
  r.countPerOutput = 1;
  for (size_t d = 0; d < rank; ++d) (reduced[d] ? r.countPerOutput : r.outputs) *= static_cast<size_t>(shape[d]);
  const size_t total = elementCount(shape);
  r.target.resize(total);
  std::vector<int32_t> idx(rank, 0);
  for (size_t i = 0; i < total; ++i) {
    size_t o = 0;
    for (size_t d = 0; d < rank; ++d) {
      if (!reduced[d]) o = o * static_cast<size_t>(shape[d]) + static_cast<size_t>(idx[d]);
    }
    r.target[i] = o;
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return r;
}

void requireNonNegativeShape(const KernelContext& ctx, const Tensor& t) {
  for (int32_t d : t.shape) ctx.require(d >= 0, "tensor '" + t.name + "' has a negative dimension");
}

}  // namespace

void runMean(KernelContext& ctx) {
  const Tensor& inT = ctx.input(0);
  const Tensor& outT = ctx.output();
  ctx.require(isQuantized8(inT.type) && outT.type == inT.type, "only uint8/int8 input and output of one type are supported");
  requireNonNegativeShape(ctx, inT);
  const size_t rank = inT.shape.size();
  const std::vector<size_t> axes = resolveAxes(ctx, 1, rank);
  const Reduction plan = planReduction(inT.shape, axes);
  ctx.require(elementCount(outT.shape) == plan.outputs,
              "output has " + std::to_string(elementCount(outT.shape)) + " elements, the reduction gives " + std::to_string(plan.outputs));
  ctx.require(plan.countPerOutput > 0, "the reduced axes are empty");
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  const ElementType type = inT.type;
  const int32_t inZp = ctx.zeroPointOf(inT);
  const int32_t outZp = ctx.zeroPointOf(outT);
  const float inScale = ctx.scaleOf(inT);
  const float outScale = ctx.scaleOf(outT);
  const auto count = static_cast<int32_t>(plan.countPerOutput);
  const auto clampStore = [&](size_t i, int32_t v) { store8(out.data(), i, std::clamp(v, typeMin(type), typeMax(type))); };

  const bool heightWidth = rank == 4 && axes == std::vector<size_t>{1, 2} && ctx.options().keepDims;
  const bool sameQuantisation = inZp == outZp && inScale == outScale;
  std::vector<int32_t> sums(plan.outputs, 0);
  // The int8 fixed-point path sums (x - in_zp); every other path sums the stored values.
  const int32_t sumOffset = heightWidth && type == ElementType::Int8 ? inZp : 0;
  for (size_t i = 0; i < plan.target.size(); ++i) sums[plan.target[i]] += load8(type, in.data(), i) - sumOffset;

  if (heightWidth && type == ElementType::UInt8) {
    const int32_t bias = outZp - static_cast<int32_t>(static_cast<float>(inZp) * inScale / outScale);
    const QuantizedMultiplier m = quantizeMultiplier(static_cast<double>(inScale / (static_cast<float>(count) * outScale)));
    for (size_t o = 0; o < plan.outputs; ++o) clampStore(o, multiplyByQuantizedMultiplier(sums[o], m) + bias);
  } else if (heightWidth) {
    const QuantizedMultiplier m = quantizeMultiplier(static_cast<double>(inScale) / static_cast<double>(outScale));
    for (size_t o = 0; o < plan.outputs; ++o) {
      const int32_t scaled = multiplyByQuantizedMultiplier(sums[o], m);
      const int32_t mean = scaled > 0 ? (scaled + count / 2) / count : (scaled - count / 2) / count;
      clampStore(o, mean + outZp);
    }
  } else if (sameQuantisation) {
    for (size_t o = 0; o < plan.outputs; ++o) clampStore(o, sums[o] / count);
  } else {
    const float scale = inScale / outScale;
    const float bias = -static_cast<float>(inZp) * scale;
    for (size_t o = 0; o < plan.outputs; ++o) {
      const float mean = static_cast<float>(sums[o]) / static_cast<float>(count);
      clampStore(o, roundToInt(mean * scale + bias) + outZp);
    }
  }
}

void runArgMax(KernelContext& ctx) {
  const Tensor& inT = ctx.input(0);
  const Tensor& outT = ctx.output();
  ctx.require(isQuantized8(inT.type) || inT.type == ElementType::Int32 || inT.type == ElementType::Float32,
              "input must be uint8, int8, int32 or float32");
  ctx.require(outT.type == ElementType::Int32 || outT.type == ElementType::Int64, "output must be int32 or int64");
  requireNonNegativeShape(ctx, inT);
  const size_t rank = inT.shape.size();
  const std::vector<size_t> axes = resolveAxes(ctx, 1, rank);
  ctx.require(axes.size() == 1, "ARG_MAX takes exactly one axis");
  const size_t axis = axes[0];
  size_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= static_cast<size_t>(inT.shape[d]);
  for (size_t d = axis + 1; d < rank; ++d) inner *= static_cast<size_t>(inT.shape[d]);
  const auto extent = static_cast<size_t>(inT.shape[axis]);
  ctx.require(extent > 0, "the axis is empty");
  ctx.require(elementCount(outT.shape) == outer * inner, "output size differs from the input without the axis");
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  const auto value = [&](size_t i) -> double {
    if (isQuantized8(inT.type)) return load8(inT.type, in.data(), i);
    if (inT.type == ElementType::Int32) return loadInt32(in, i);
    return loadFloat(in, i);
  };
  for (size_t o = 0; o < outer; ++o) {
    for (size_t k = 0; k < inner; ++k) {
      size_t best = 0;
      double bestValue = value(o * extent * inner + k);
      for (size_t a = 1; a < extent; ++a) {
        const double v = value((o * extent + a) * inner + k);
        if (v > bestValue) {  // strictly greater: the first maximum wins
          bestValue = v;
          best = a;
        }
      }
      const size_t oi = o * inner + k;
      if (outT.type == ElementType::Int32) {
        const auto b = static_cast<int32_t>(best);
        std::memcpy(out.data() + oi * 4, &b, 4);
      } else {
        const auto b = static_cast<int64_t>(best);
        std::memcpy(out.data() + oi * 8, &b, 8);
      }
    }
  }
}

}  // namespace coralsim::hle
