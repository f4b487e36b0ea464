#include "models/lle/mac_array.h"

#include <array>
#include <cstddef>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CORALSIM_LLE_HAVE_VNNI_PATH 1
#endif

namespace coralsim::lle {

namespace {

// Portable path, in the same algebra as the VNNI one: acc[c] = sum x*W - zpIn * sum W. Per group,
// the 4 activation bytes are scalars and the 64 lanes an independent inner loop over contiguous
// weight bytes, which the compiler vectorises with the baseline instruction set.
void macGroupsPortable(const uint8_t* x, int32_t zpIn, const uint8_t* weights, uint32_t groups, int32_t* acc) {
  alignas(64) std::array<int32_t, kLanes> dot{};
  alignas(64) std::array<int32_t, kLanes> sumW{};
  for (uint32_t g = 0; g < groups; ++g) {
    const int32_t x0 = x[g * 4], x1 = x[g * 4 + 1], x2 = x[g * 4 + 2], x3 = x[g * 4 + 3];
    const uint8_t* wg = weights + static_cast<size_t>(g) * kGroupStride;
    for (unsigned c = 0; c < kLanes; ++c) {
      const int32_t w0 = static_cast<int8_t>(wg[4 * c] ^ 0x80u), w1 = static_cast<int8_t>(wg[4 * c + 1] ^ 0x80u);
      const int32_t w2 = static_cast<int8_t>(wg[4 * c + 2] ^ 0x80u), w3 = static_cast<int8_t>(wg[4 * c + 3] ^ 0x80u);
      dot[c] += x0 * w0 + x1 * w1 + x2 * w2 + x3 * w3;
      sumW[c] += w0 + w1 + w2 + w3;
    }
  }
  for (unsigned c = 0; c < kLanes; ++c) acc[c] = dot[c] - zpIn * sumW[c];
}

#ifdef CORALSIM_LLE_HAVE_VNNI_PATH
// AVX-512 VNNI path, chosen at run time (the build targets the baseline ISA). The weight layout is
// exactly vpdpbusd's operand: each 32-bit lane dots 4 unsigned activation bytes with 4 signed
// weight bytes. So acc[c] = sum x*W - zpIn * sum W, both exact in int32 (no saturation).
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void macGroupsVnni(const uint8_t* x, int32_t zpIn,
                                                                            const uint8_t* weights, uint32_t groups,
                                                                            int32_t* acc) {
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  const __m512i ones = _mm512_set1_epi8(1);
  __m512i dot[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
  __m512i sumW[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
  for (uint32_t g = 0; g < groups; ++g) {
    int32_t xg;
    __builtin_memcpy(&xg, x + g * kGroupBytes, 4);
    const __m512i xb = _mm512_set1_epi32(xg);
    const uint8_t* wg = weights + static_cast<size_t>(g) * kGroupStride;
    for (int b = 0; b < 4; ++b) {
      const __m512i w = _mm512_xor_si512(_mm512_loadu_si512(wg + 64 * b), flip);
      dot[b] = _mm512_dpbusd_epi32(dot[b], xb, w);
      sumW[b] = _mm512_dpbusd_epi32(sumW[b], ones, w);
    }
  }
  const __m512i zp = _mm512_set1_epi32(zpIn);
  for (int b = 0; b < 4; ++b) {
    _mm512_storeu_si512(acc + 16 * b, _mm512_sub_epi32(dot[b], _mm512_mullo_epi32(zp, sumW[b])));
  }
}

bool haveVnni() {
  static const bool have = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                           __builtin_cpu_supports("avx512vnni");
  return have;
}
#endif

}  // namespace

bool hostSupports(MacPath path) {
  switch (path) {
    case MacPath::kPortable: return true;
#ifdef CORALSIM_LLE_HAVE_VNNI_PATH
    case MacPath::kAvx2: {
      static const bool have = __builtin_cpu_supports("avx2");
      return have;
    }
    case MacPath::kAvx512Vnni: return haveVnni();
#else
    case MacPath::kAvx2:
    case MacPath::kAvx512Vnni: return false;
#endif
  }
  return false;
}

MacPath macPath() {
  if (hostSupports(MacPath::kAvx512Vnni)) return MacPath::kAvx512Vnni;
  if (hostSupports(MacPath::kAvx2)) return MacPath::kAvx2;
  return MacPath::kPortable;
}

void macGroups(const uint8_t* x, int32_t zpIn, const uint8_t* weights, uint32_t groups, int32_t* acc, MacPath path) {
#ifdef CORALSIM_LLE_HAVE_VNNI_PATH
  if (path == MacPath::kAvx512Vnni && haveVnni()) {
    macGroupsVnni(x, zpIn, weights, groups, acc);
    return;
  }
#endif
  macGroupsPortable(x, zpIn, weights, groups, acc);
}

void macGroups(const uint8_t* x, int32_t zpIn, const uint8_t* weights, uint32_t groups, int32_t* acc) {
  macGroups(x, zpIn, weights, groups, acc, macPath());
}

}  // namespace coralsim::lle
