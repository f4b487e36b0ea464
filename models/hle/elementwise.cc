// ADD, SUB, MUL on 8-bit tensors with NumPy-style broadcasting (TFLite reference semantics).
// ADD/SUB: both inputs are brought to a common scale 2 * max(s1, s2) with 20 bits of headroom,
// summed, and requantised to the output (TFLite's "general" 8-bit add; SUB negates the second
// multiplier). MUL: (a - zp_a) * (b - zp_b) requantised with s_a * s_b / s_out.
#include <algorithm>
#include <functional>
#include <vector>

#include "models/hle/kernel_context.h"

namespace coralsim::hle {
namespace {

// Calls visit(outIndex, aIndex, bIndex) for every output element, broadcasting size-1 dimensions.
void forEachBroadcast(const KernelContext& ctx, const std::vector<int32_t>& a, const std::vector<int32_t>& b,
                      const std::vector<int32_t>& out, const std::function<void(size_t, size_t, size_t)>& visit) {
  const size_t rank = std::max({a.size(), b.size(), out.size()});
  auto padded = [rank](const std::vector<int32_t>& s) {
    std::vector<int32_t> p(rank - s.size(), 1);
    p.insert(p.end(), s.begin(), s.end());
    return p;
  };
  const auto pa = padded(a), pb = padded(b), po = padded(out);
  std::vector<size_t> sa(rank), sb(rank);
  size_t strideA = 1, strideB = 1;
  for (size_t d = rank; d-- > 0;) {
    ctx.require((pa[d] == po[d] || pa[d] == 1) && (pb[d] == po[d] || pb[d] == 1),
                "input shapes do not broadcast to the output shape");
    sa[d] = pa[d] == 1 ? 0 : strideA;
    sb[d] = pb[d] == 1 ? 0 : strideB;
    strideA *= static_cast<size_t>(pa[d]);
    strideB *= static_cast<size_t>(pb[d]);
  }
  const size_t total = elementCount(po);
  std::vector<int32_t> idx(rank, 0);
  size_t ia = 0, ib = 0;
  for (size_t o = 0; o < total; ++o) {
    visit(o, ia, ib);
    for (size_t d = rank; d-- > 0;) {  // odometer increment
      ++idx[d];
      ia += sa[d];
      ib += sb[d];
      if (idx[d] < po[d]) break;
      ia -= sa[d] * static_cast<size_t>(po[d]);
      ib -= sb[d] * static_cast<size_t>(po[d]);
      idx[d] = 0;
    }
  }
}

void checkTypes(const KernelContext& ctx) {
  ctx.require(isQuantized8(ctx.input(0).type) && ctx.input(1).type == ctx.input(0).type && ctx.output().type == ctx.input(0).type,
              "only uint8/int8 inputs and output of one type are supported");
}

void addOrSub(KernelContext& ctx, bool subtract) {
  checkTypes(ctx);
  const Tensor& aT = ctx.input(0);
  const Tensor& bT = ctx.input(1);
  const Tensor& outT = ctx.output();
  constexpr int kLeftShift = 20;
  const float sa = ctx.scaleOf(aT), sb = ctx.scaleOf(bT), so = ctx.scaleOf(outT);
  const double twiceMax = 2.0 * static_cast<double>(std::max(sa, sb));
  const QuantizedMultiplier ma = quantizeMultiplier(static_cast<double>(sa) / twiceMax);
  QuantizedMultiplier mb = quantizeMultiplier(static_cast<double>(sb) / twiceMax);
  if (subtract) mb.multiplier = -mb.multiplier;
  // (1 << 20) * output scale is a float product in TFLite; a power of two keeps it exact anyway.
  const QuantizedMultiplier mo = quantizeMultiplier(twiceMax / static_cast<double>(static_cast<float>(1 << kLeftShift) * so));
  const int32_t za = ctx.zeroPointOf(aT), zb = ctx.zeroPointOf(bT), zo = ctx.zeroPointOf(outT);
  int32_t lo = 0, hi = 0;
  ctx.activationRange(outT, lo, hi);
  const auto a = ctx.inputBytes(0);
  const auto b = ctx.inputBytes(1);
  auto out = ctx.allocateOutput();
  forEachBroadcast(ctx, aT.shape, bT.shape, outT.shape, [&](size_t o, size_t ia, size_t ib) {
    const int32_t va = (load8(aT.type, a.data(), ia) - za) * (1 << kLeftShift);
    const int32_t vb = (load8(bT.type, b.data(), ib) - zb) * (1 << kLeftShift);
    const int32_t sum = multiplyByQuantizedMultiplier(va, ma) + multiplyByQuantizedMultiplier(vb, mb);
    store8(out.data(), o, std::clamp(multiplyByQuantizedMultiplier(sum, mo) + zo, lo, hi));
  });
}

}  // namespace

void runAdd(KernelContext& ctx) { addOrSub(ctx, false); }
void runSub(KernelContext& ctx) { addOrSub(ctx, true); }

void runMul(KernelContext& ctx) {
  checkTypes(ctx);
  const Tensor& aT = ctx.input(0);
  const Tensor& bT = ctx.input(1);
  const Tensor& outT = ctx.output();
  // TFLite computes this product and quotient in float before widening to double.
  const float real = ctx.scaleOf(aT) * ctx.scaleOf(bT) / ctx.scaleOf(outT);
  const QuantizedMultiplier m = quantizeMultiplier(static_cast<double>(real));
  const int32_t za = ctx.zeroPointOf(aT), zb = ctx.zeroPointOf(bT), zo = ctx.zeroPointOf(outT);
  int32_t lo = 0, hi = 0;
  ctx.activationRange(outT, lo, hi);
  const auto a = ctx.inputBytes(0);
  const auto b = ctx.inputBytes(1);
  auto out = ctx.allocateOutput();
  forEachBroadcast(ctx, aT.shape, bT.shape, outT.shape, [&](size_t o, size_t ia, size_t ib) {
    const int32_t product = (load8(aT.type, a.data(), ia) - za) * (load8(bT.type, b.data(), ib) - zb);
    store8(out.data(), o, std::clamp(multiplyByQuantizedMultiplier(product, m) + zo, lo, hi));
  });
}

}  // namespace coralsim::hle
