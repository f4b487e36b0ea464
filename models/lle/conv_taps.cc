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

// AVX2 (hosts without AVX-512 VNNI): 8 outputs a pass, their 4-byte inputs one gather. There is
// no exact byte dot product here (vpmaddubsw saturates at 16 bits), so the bytes are widened to
// 16 bits and vpmaddwd adds products in pairs: each accumulator holds, per output, the sum of
// bytes 0-1 and the sum of bytes 2-3, added together at the end. Every product is below 2^16 and
// the sums wrap modulo 2^32 as the portable path's do, so the results are identical.
// `pairs` holds 4 outputs x 2 pair sums a 256-bit half, in output order; out[o * stride] gets
// output o's two sums added.
__attribute__((target("avx2"))) void addPairSums(const __m256i (&pairs)[2], unsigned count, size_t stride, uint32_t* out) {
  alignas(32) std::array<uint32_t, 16> v{};
  _mm256_store_si256(reinterpret_cast<__m256i*>(v.data()), pairs[0]);
  _mm256_store_si256(reinterpret_cast<__m256i*>(v.data() + 8), pairs[1]);
  for (unsigned o = 0; o < count; ++o) out[o * stride] = v[2 * o] + v[2 * o + 1];
}

template <unsigned N>
__attribute__((target("avx2"))) void lanePassAvx2(const uint8_t* input, __m256i index, const uint8_t* weightRun,
                                                  const ConvTaps& taps, unsigned firstLane, bool countInputs,
                                                  uint32_t* sumX, uint32_t* dot, unsigned count) {
  const __m256i ones = _mm256_set1_epi16(1);
  __m256i acc[N][2];
  for (unsigned k = 0; k < N; ++k) acc[k][0] = acc[k][1] = _mm256_setzero_si256();
  __m256i sx[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
  for (size_t t = 0; t < taps.inputAt.size(); ++t) {
    const __m256i x = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), reinterpret_cast<const int*>(input + taps.inputAt[t]),
                                                  index, _mm256_set1_epi32(-1), 1);
    // Outputs 0-3 and 4-7, 16 bits a byte.
    const __m256i xw[2] = {_mm256_cvtepu8_epi16(_mm256_castsi256_si128(x)), _mm256_cvtepu8_epi16(_mm256_extracti128_si256(x, 1))};
    if (countInputs) {
      sx[0] = _mm256_add_epi32(sx[0], _mm256_madd_epi16(xw[0], ones));
      sx[1] = _mm256_add_epi32(sx[1], _mm256_madd_epi16(xw[1], ones));
    }
    const uint8_t* g = weightRun + taps.weightAt[t] + 4 * firstLane;
    for (unsigned k = 0; k < N; ++k) {
      const __m256i w = _mm256_cvtepu8_epi16(_mm_set1_epi32(static_cast<int32_t>(load32(g + 4 * k))));
      acc[k][0] = _mm256_add_epi32(acc[k][0], _mm256_madd_epi16(xw[0], w));
      acc[k][1] = _mm256_add_epi32(acc[k][1], _mm256_madd_epi16(xw[1], w));
    }
  }
  if (countInputs) addPairSums(sx, count, 1, sumX);
  for (unsigned k = 0; k < N; ++k) addPairSums(acc[k], count, taps.lanes, dot + firstLane + k);
}

__attribute__((target("avx2"))) void dotConvTapsAvx2(const uint8_t* input, const uint32_t* runStarts, unsigned count,
                                                     const uint8_t* weightRun, const ConvTaps& taps, uint32_t* dot,
                                                     uint32_t* sumX) {
  constexpr unsigned kPassOutputs = 8;
  for (unsigned first = 0; first < count; first += kPassOutputs) {
    const unsigned n = std::min(kPassOutputs, count - first);
    alignas(32) std::array<uint32_t, kPassOutputs> starts{};
    for (unsigned o = 0; o < kPassOutputs; ++o) starts[o] = runStarts[first + (o < n ? o : 0)];  // spare slots repeat
    const __m256i index = _mm256_load_si256(reinterpret_cast<const __m256i*>(starts.data()));
    uint32_t* passDot = dot + static_cast<size_t>(first) * taps.lanes;
    for (unsigned lane = 0; lane < taps.lanes;) {
      const bool countInputs = lane == 0;
      if (taps.lanes - lane >= 8) {
        lanePassAvx2<8>(input, index, weightRun, taps, lane, countInputs, sumX + first, passDot, n);
        lane += 8;
      } else {
        lanePassAvx2<4>(input, index, weightRun, taps, lane, countInputs, sumX + first, passDot, n);
        lane += 4;
      }
    }
  }
}
#endif

}  // namespace

void dotConvTaps(const uint8_t* input, const uint32_t* runStarts, unsigned count, const uint8_t* weightRun,
                 const ConvTaps& taps, uint32_t* dot, uint32_t* sumX, MacPath path) {
#ifdef CORALSIM_LLE_HAVE_VNNI_TAPS
  if (path == MacPath::kAvx512Vnni && hostSupports(MacPath::kAvx512Vnni)) {
    dotConvTapsVnni(input, runStarts, count, weightRun, taps, dot, sumX);
    return;
  }
  if (path != MacPath::kPortable && hostSupports(MacPath::kAvx2)) {
    dotConvTapsAvx2(input, runStarts, count, weightRun, taps, dot, sumX);
    return;
  }
#endif
  (void)path;
  dotConvTapsPortable(input, runStarts, count, weightRun, taps, dot, sumX);
}

}  // namespace coralsim::lle
