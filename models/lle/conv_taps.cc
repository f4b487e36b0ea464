#include "models/lle/conv_taps.h"

#include <algorithm>
#include <array>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CORALSIM_LLE_HAVE_VNNI_TAPS 1
#endif

namespace coralsim::lle {
namespace {

uint32_t load32(const uint8_t* at) {
  uint32_t v = 0;
  std::memcpy(&v, at, 4);
  return v;
}

// One output, the lane count a compile-time constant so the accumulators stay in registers (the
// 4-lane convolutions) -- or, with Lanes = 0, any lane count read at run time.
template <unsigned Lanes>
void dotOneOutput(const uint8_t* xRun, const uint8_t* weightRun, const ConvTaps& taps, uint32_t* dot, uint32_t& sumX) {
  const unsigned lanes = Lanes != 0 ? Lanes : taps.lanes;
  std::array<uint32_t, Lanes != 0 ? Lanes : 64> acc{};
  uint32_t sx = 0;
  for (size_t t = 0; t < taps.inputAt.size(); ++t) {
    const uint8_t* x = xRun + taps.inputAt[t];
    const uint8_t* g = weightRun + taps.weightAt[t];
    const uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
    sx += x0 + x1 + x2 + x3;
    for (unsigned c = 0; c < lanes; ++c) acc[c] += x0 * g[4 * c] + x1 * g[4 * c + 1] + x2 * g[4 * c + 2] + x3 * g[4 * c + 3];
  }
  std::copy_n(acc.begin(), lanes, dot);
  sumX = sx;
}

void dotConvTapsPortable(const uint8_t* input, const uint32_t* runStarts, unsigned count, const uint8_t* weightRun,
                         const ConvTaps& taps, uint32_t* dot, uint32_t* sumX) {
  for (unsigned o = 0; o < count; ++o) {
    const uint8_t* xRun = input + runStarts[o];
    uint32_t* out = dot + static_cast<size_t>(o) * taps.lanes;
    switch (taps.lanes) {
      case 4: dotOneOutput<4>(xRun, weightRun, taps, out, sumX[o]); break;
      case 8: dotOneOutput<8>(xRun, weightRun, taps, out, sumX[o]); break;
      default: dotOneOutput<0>(xRun, weightRun, taps, out, sumX[o]); break;
    }
  }
}

#ifdef CORALSIM_LLE_HAVE_VNNI_TAPS
// AVX-512 VNNI, chosen at run time: the batch's 16 outputs are the 16 32-bit elements of one
// register, so a tap is one gather of their 4 input bytes and one vpdpbusd per lane against the
// lane's 4 weight bytes broadcast. vpdpbusd multiplies unsigned by signed bytes, so the weights go in
// as w - 128 (w XOR 0x80) and 128 x sum x is added back: exact modulo 2^32, as the portable path.
// N lanes a pass (4 or 8), so their accumulators stay in registers; passes after the first re-gather.
template <unsigned N>
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void lanePass(const uint8_t* input, __m512i index,
                                                                      const uint8_t* weightRun, const ConvTaps& taps,
                                                                      unsigned firstLane, bool countInputs, __m512i& sumX,
                                                                      uint32_t* dot, unsigned count) {
  const __m512i ones = _mm512_set1_epi8(1);
  __m512i acc[N];
  for (unsigned k = 0; k < N; ++k) acc[k] = _mm512_setzero_si512();
  for (size_t t = 0; t < taps.inputAt.size(); ++t) {
    // The masked form with a zero source: the unmasked intrinsic's undefined source trips GCC 12's
    // maybe-uninitialized warning.
    const __m512i x = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), 0xffff, index, input + taps.inputAt[t], 1);
    if (countInputs) sumX = _mm512_dpbusd_epi32(sumX, x, ones);
    const uint8_t* g = weightRun + taps.weightAt[t] + 4 * firstLane;
    for (unsigned k = 0; k < N; ++k) {
      const __m512i w = _mm512_set1_epi32(static_cast<int32_t>(load32(g + 4 * k) ^ 0x80808080u));
      acc[k] = _mm512_dpbusd_epi32(acc[k], x, w);
    }
  }
  alignas(64) std::array<uint32_t, kTapBatch> sums{};
  _mm512_store_si512(sums.data(), sumX);
  for (unsigned k = 0; k < N; ++k) {
    alignas(64) std::array<uint32_t, kTapBatch> lane{};
    _mm512_store_si512(lane.data(), acc[k]);
    for (unsigned o = 0; o < count; ++o) dot[static_cast<size_t>(o) * taps.lanes + firstLane + k] = lane[o] + 128u * sums[o];
  }
}

__attribute__((target("avx512f,avx512bw,avx512vnni"))) void dotConvTapsVnni(const uint8_t* input, const uint32_t* runStarts,
                                                                             unsigned count, const uint8_t* weightRun,
                                                                             const ConvTaps& taps, uint32_t* dot,
                                                                             uint32_t* sumX) {
  alignas(64) std::array<uint32_t, kTapBatch> starts{};
  for (unsigned o = 0; o < kTapBatch; ++o) starts[o] = runStarts[o < count ? o : 0];  // spare slots repeat output 0
  const __m512i index = _mm512_load_si512(starts.data());
  __m512i sx = _mm512_setzero_si512();  // the first pass sums the inputs; later passes reuse it
  for (unsigned lane = 0; lane < taps.lanes;) {
    const bool first = lane == 0;
    if (taps.lanes - lane >= 8) {
      lanePass<8>(input, index, weightRun, taps, lane, first, sx, dot, count);
      lane += 8;
    } else {
      lanePass<4>(input, index, weightRun, taps, lane, first, sx, dot, count);
      lane += 4;
    }
  }
  alignas(64) std::array<uint32_t, kTapBatch> sums{};
  _mm512_store_si512(sums.data(), sx);
  std::copy_n(sums.begin(), count, sumX);
}
#endif

}  // namespace

void dotConvTaps(const uint8_t* input, const uint32_t* runStarts, unsigned count, const uint8_t* weightRun,
                 const ConvTaps& taps, uint32_t* dot, uint32_t* sumX, MacPath path) {
#ifdef CORALSIM_LLE_HAVE_VNNI_TAPS
  if (path == MacPath::kAvx512Vnni && macPath() == MacPath::kAvx512Vnni) {
    dotConvTapsVnni(input, runStarts, count, weightRun, taps, dot, sumX);
    return;
  }
#endif
  (void)path;
  dotConvTapsPortable(input, runStarts, count, weightRun, taps, dot, sumX);
}

}  // namespace coralsim::lle
