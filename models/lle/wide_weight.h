#pragma once
// A kept block's signed 16-bit weights (ComputeWideWeights: the two-byte element form, the one-byte output form),
// little-endian, numbered from the block's first byte.

#include <cstddef>
#include <cstdint>
#include <span>

namespace coralsim::lle {

[[nodiscard]] inline int32_t wideWeightAt(std::span<const uint8_t> block, size_t index) {
  return static_cast<int16_t>(static_cast<uint16_t>(block[2 * index] | (block[2 * index + 1] << 8)));
}

}  // namespace coralsim::lle
