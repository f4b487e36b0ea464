// One output unit of an identity copy: the 4 lanes of a position weighed by the 16-byte kept block
// (docs/decoding-log.md "eltwise" §B: the prologue's 4 x 4 int8 identity, kept by the first 0x13), then
// requantised. Lane c = sum over the position's elements g of element[g] x int8(block[4c + g]). The
// one-byte copy weighs its C channels (C <= 4), the ring copy a whole 4-byte K group; both call this.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "models/lle/requantizer.h"

namespace coralsim::lle {

inline constexpr unsigned kLanesAUnit = 4;

[[nodiscard]] inline std::array<uint8_t, kLanesAUnit> weighByKeptBlock(const uint8_t* elements, unsigned count,
                                                                     std::span<const uint8_t> block, const Requantizer& requant) {
  std::array<uint8_t, kLanesAUnit> lanes{};
  for (unsigned c = 0; c < kLanesAUnit; ++c) {
    int32_t acc = 0;
    for (unsigned g = 0; g < count; ++g) acc += int32_t{elements[g]} * int32_t{static_cast<int8_t>(block[kLanesAUnit * c + g])};
    lanes[c] = requant(acc);
  }
  return lanes;
}

}  // namespace coralsim::lle
