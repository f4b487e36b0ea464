// SPLIT, SPLIT_V and TILE: byte copies along one axis (any element type; quantisation passes
// through unchanged, as TFLite requires equal input and output quantisation for them).
#include <cstring>
#include <vector>

#include "models/hle/kernel_context.h"

namespace coralsim::hle {
namespace {

int64_t loadIndex(const KernelContext& ctx, size_t input, size_t i) {
  const Tensor& t = ctx.input(input);
  ctx.require(t.type == ElementType::Int32 || t.type == ElementType::Int64,
              "input " + std::to_string(input) + " ('" + t.name + "') must be int32 or int64");
  const auto bytes = ctx.inputBytes(input);
  ctx.require(i < elementCount(t.shape), "input " + std::to_string(input) + " ('" + t.name + "') has too few elements");
  if (t.type == ElementType::Int32) return loadInt32(bytes, i);
  int64_t v = 0;
  std::memcpy(&v, bytes.data() + i * 8, 8);
  return v;
}

void requireNonNegativeShape(const KernelContext& ctx, const Tensor& t) {
  for (int32_t d : t.shape) ctx.require(d >= 0, "tensor '" + t.name + "' has a negative dimension");
}

size_t resolveAxis(const KernelContext& ctx, size_t axisInput, size_t rank) {
  ctx.require(elementCount(ctx.input(axisInput).shape) == 1, "axis must hold one value");
  int64_t axis = loadIndex(ctx, axisInput, 0);
  const auto signedRank = static_cast<int64_t>(rank);
  ctx.require(axis >= -signedRank && axis < signedRank, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  if (axis < 0) axis += signedRank;
  return static_cast<size_t>(axis);
}

// Copies consecutive slices of `value` along `axis` into the op's outputs, one per entry of
// `sizes` (element counts along the axis).
void splitInto(KernelContext& ctx, size_t valueInput, size_t axis, const std::vector<int64_t>& sizes) {
  const Tensor& inT = ctx.input(valueInput);
  requireNonNegativeShape(ctx, inT);
  const size_t rank = inT.shape.size();
  const size_t esize = elementSize(inT.type);
  size_t outer = 1, inner = esize;
  for (size_t d = 0; d < axis; ++d) outer *= static_cast<size_t>(inT.shape[d]);
  for (size_t d = axis + 1; d < rank; ++d) inner *= static_cast<size_t>(inT.shape[d]);
  const auto in = ctx.inputBytes(valueInput);
  const size_t inRow = static_cast<size_t>(inT.shape[axis]) * inner;
  size_t offset = 0;
  for (size_t k = 0; k < sizes.size(); ++k) {
    const Tensor& outT = ctx.output(k);
    ctx.require(outT.type == inT.type, "output " + std::to_string(k) + " differs in type from the input");
    const size_t row = static_cast<size_t>(sizes[k]) * inner;
    auto out = ctx.allocateOutput(k);
    ctx.require(out.size() == outer * row, "output " + std::to_string(k) + " ('" + outT.name + "') has " +
                                               std::to_string(out.size()) + " bytes, its slice has " + std::to_string(outer * row));
    for (size_t o = 0; o < outer; ++o) std::memcpy(out.data() + o * row, in.data() + o * inRow + offset, row);
    offset += row;
  }
}

}  // namespace

void runSplit(KernelContext& ctx) {
  // Inputs: 0 = axis, 1 = value; the outputs are equal parts.
  const Tensor& inT = ctx.input(1);
  const size_t axis = resolveAxis(ctx, 0, inT.shape.size());
  const size_t parts = ctx.op().outputs.size();
  const int64_t extent = inT.shape[axis];
  ctx.require(parts > 0 && extent % static_cast<int64_t>(parts) == 0,
              "axis extent " + std::to_string(extent) + " does not split into " + std::to_string(parts) + " equal parts");
  splitInto(ctx, 1, axis, std::vector<int64_t>(parts, extent / static_cast<int64_t>(parts)));
}

void runSplitV(KernelContext& ctx) {
  // Inputs: 0 = value, 1 = size_splits (one entry may be -1: the rest), 2 = axis.
  const Tensor& inT = ctx.input(0);
  const size_t axis = resolveAxis(ctx, 2, inT.shape.size());
  const size_t parts = ctx.op().outputs.size();
  ctx.require(elementCount(ctx.input(1).shape) == parts, "size_splits has a different count than the outputs");
  const int64_t extent = inT.shape[axis];
  std::vector<int64_t> sizes(parts);
  int64_t known = 0;
  size_t inferred = parts;
  for (size_t k = 0; k < parts; ++k) {
    sizes[k] = loadIndex(ctx, 1, k);
    if (sizes[k] == -1) {
      ctx.require(inferred == parts, "size_splits has more than one -1");
      inferred = k;
    } else {
      ctx.require(sizes[k] >= 0 && sizes[k] <= extent, "size_splits[" + std::to_string(k) + "] = " + std::to_string(sizes[k]) +
                                                          " is outside [0, " + std::to_string(extent) + "]");
      known += sizes[k];
    }
  }
  if (inferred != parts) sizes[inferred] = extent - known;
  ctx.require(known <= extent && (inferred != parts || known == extent),
              "size_splits do not add up to the axis extent " + std::to_string(extent));
  splitInto(ctx, 0, axis, sizes);
}

void runTile(KernelContext& ctx) {
  const Tensor& inT = ctx.input(0);
  const Tensor& outT = ctx.output();
  ctx.require(outT.type == inT.type, "input and output types differ");
  requireNonNegativeShape(ctx, inT);
  requireNonNegativeShape(ctx, outT);
  const size_t rank = inT.shape.size();
  ctx.require(outT.shape.size() == rank && elementCount(ctx.input(1).shape) == rank, "multiples must have one entry per input dimension");
  for (size_t d = 0; d < rank; ++d) {
    const int64_t m = loadIndex(ctx, 1, d);
    ctx.require(m >= 0 && static_cast<int64_t>(inT.shape[d]) * m == outT.shape[d],
                "multiples[" + std::to_string(d) + "] = " + std::to_string(m) + " does not match the output shape");
  }
  const auto in = ctx.inputBytes(0);
  auto out = ctx.allocateOutput();
  const size_t esize = elementSize(inT.type);
  const size_t total = elementCount(outT.shape);
  // Each output element reads the input at its coordinates modulo the input extents.
  std::vector<int32_t> idx(rank, 0);
  for (size_t i = 0; i < total; ++i) {
    size_t src = 0;
    for (size_t d = 0; d < rank; ++d) src = src * static_cast<size_t>(inT.shape[d]) + static_cast<size_t>(idx[d] % inT.shape[d]);
    std::memcpy(out.data() + i * esize, in.data() + src * esize, esize);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < outT.shape[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace coralsim::hle
