// A weight stream's prefix length (Recv12PrefixBytes8, Recv11PrefixBytes8: 8-byte units) read as whole 256-byte rows
// (docs/decoding-log.md "w3b103" §B). The newer compiler (google-coral+edgetpu/test_data, coralmicro, project-posenet,
// iwatake) writes a one-array prefix as 33, with Span8 1 (Bytes8 = Span8 + 32 still), where the older compiles of the same
// networks (google-coral+test_data) write 32 / 0: a mark in the low bit, not a longer prefix. The stream is still one row
// a block: the weight broadcast that fills it sends blocks x 1 + transfers rows (the same count as 32's), and the 0x11
// streams of that form feed the stride sweep's 1 x 1 convolution, golden-exact with its bias read at the row's start.
// No corpus stream carries the mark with two or three arrays (64 / 96 only), so that is refused, not guessed.
#pragma once

#include <cstdint>
#include <optional>

namespace coralsim::lle {

inline constexpr uint64_t kPrefixBytes8PerRow = 256 / 8;

// The prefix's 256-byte arrays, or nullopt where the length is not whole rows nor one row with the mark.
[[nodiscard]] constexpr std::optional<uint64_t> prefixArraysOfBytes8(uint64_t bytes8) {
  const uint64_t arrays = bytes8 / kPrefixBytes8PerRow;
  const uint64_t mark = bytes8 % kPrefixBytes8PerRow;
  if (mark == 0) return arrays;
  if (mark == 1 && arrays == 1) return arrays;
  return std::nullopt;
}

}  // namespace coralsim::lle
