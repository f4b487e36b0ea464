// RESHAPE, CONCATENATION, PAD: ops that move bytes. CONCATENATION of 8-bit inputs whose
// quantisation differs from the output's rescales them as TFLite's ConcatenationWithScaling does
// (float scale and bias, round half away from zero); PAD fills with the output zero point.
#include <algorithm>
#include <cstring>

#include "models/hle/kernel_context.h"

namespace coralsim::hle {

void runReshape(KernelContext& ctx) {
  const Tensor& inT = ctx.input(0);
  const Tensor& outT = ctx.output();
  ctx.require(inT.type == outT.type, "input and output types differ");
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  ctx.require(in.size() == out.size(), "input has " + std::to_string(in.size()) + " bytes, output shape needs " + std::to_string(out.size()));
  std::copy(in.begin(), in.end(), out.begin());
}

void runConcatenation(KernelContext& ctx) {
  const Tensor& outT = ctx.output();
  const size_t rank = outT.shape.size();
  int32_t axis = ctx.options().axis;
  if (axis < 0) axis += static_cast<int32_t>(rank);
  ctx.require(axis >= 0 && static_cast<size_t>(axis) < rank, "axis " + std::to_string(ctx.options().axis) + " is out of range");
  const size_t esize = elementSize(outT.type);
  size_t outer = 1, inner = esize;
  for (size_t d = 0; d < static_cast<size_t>(axis); ++d) outer *= static_cast<size_t>(outT.shape[d]);
  for (size_t d = static_cast<size_t>(axis) + 1; d < rank; ++d) inner *= static_cast<size_t>(outT.shape[d]);
  auto out = ctx.allocateOutput();
  size_t axisOffset = 0;
  const size_t outRow = static_cast<size_t>(outT.shape[static_cast<size_t>(axis)]) * inner;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const Tensor& inT = ctx.input(i);
    ctx.require(inT.type == outT.type && inT.shape.size() == rank, "input " + std::to_string(i) + " differs in type or rank");
    const auto in = ctx.inputBytes(i);
    const size_t row = static_cast<size_t>(inT.shape[static_cast<size_t>(axis)]) * inner;
    ctx.require(axisOffset + row <= outRow && in.size() == outer * row, "input " + std::to_string(i) + " does not fit the output");
    const bool rescale = isQuantized8(outT.type) &&
                         (ctx.scaleOf(inT) != ctx.scaleOf(outT) || ctx.zeroPointOf(inT) != ctx.zeroPointOf(outT));
    const float scale = rescale ? ctx.scaleOf(inT) * (1.0F / ctx.scaleOf(outT)) : 1.0F;
    const float bias = rescale ? -static_cast<float>(ctx.zeroPointOf(inT)) * scale : 0.0F;
    const int32_t outZp = rescale ? ctx.zeroPointOf(outT) : 0;
    for (size_t o = 0; o < outer; ++o) {
      uint8_t* dst = out.data() + o * outRow + axisOffset;
      const uint8_t* src = in.data() + o * row;
      if (!rescale) {
        std::memcpy(dst, src, row);
        continue;
      }
      for (size_t k = 0; k < row; ++k) {
        const int32_t v = roundToInt(static_cast<float>(load8(inT.type, src, k)) * scale + bias) + outZp;
        store8(dst, k, std::clamp(v, typeMin(outT.type), typeMax(outT.type)));
      }
    }
    axisOffset += row;
  }
  ctx.require(axisOffset == outRow, "inputs do not fill the output along the axis");
}

void runPad(KernelContext& ctx) {
  const Tensor& inT = ctx.input(0);
  const Tensor& padT = ctx.input(1);
  const Tensor& outT = ctx.output();
  ctx.require(inT.type == outT.type, "input and output types differ");
  const size_t rank = inT.shape.size();
  ctx.require(outT.shape.size() == rank, "input and output ranks differ");
  const auto pads = ctx.inputBytes(1);
  ctx.require(padT.type == ElementType::Int32 || padT.type == ElementType::Int64, "paddings must be int32 or int64");
  ctx.require(elementCount(padT.shape) == rank * 2, "paddings must be [rank, 2]");
  std::vector<int64_t> before(rank);
  for (size_t d = 0; d < rank; ++d) {
    int64_t b = 0, a = 0;
    if (padT.type == ElementType::Int32) {
      b = loadInt32(pads, 2 * d);
      a = loadInt32(pads, 2 * d + 1);
    } else {
      std::memcpy(&b, pads.data() + 16 * d, 8);
      std::memcpy(&a, pads.data() + 16 * d + 8, 8);
    }
    ctx.require(b >= 0 && a >= 0 && inT.shape[d] + b + a == outT.shape[d], "paddings do not match the output shape");
    before[d] = b;
  }
  const size_t esize = elementSize(outT.type);
  auto out = ctx.allocateOutput();
  if (isQuantized8(outT.type)) std::fill(out.begin(), out.end(), static_cast<uint8_t>(ctx.zeroPointOf(outT) & 0xFF));
  const auto in = ctx.inputBytes(0);
  const size_t total = elementCount(inT.shape);
  std::vector<int32_t> idx(rank, 0);
  for (size_t i = 0; i < total; ++i) {
    size_t o = 0;
    for (size_t d = 0; d < rank; ++d) o = o * static_cast<size_t>(outT.shape[d]) + static_cast<size_t>(idx[d] + before[d]);
    std::memcpy(out.data() + o * esize, in.data() + i * esize, esize);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < inT.shape[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace coralsim::hle
