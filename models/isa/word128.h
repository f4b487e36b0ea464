// One 128-bit instruction word of the Edge TPU instruction stream.
//
// The stream is little-endian: byte 0 of a word holds bits 7:0. Bit numbers everywhere in
// coralsim count from the least significant bit of this 128-bit integer (docs/isa.md §2.2).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace coralsim::isa {

struct Word128 {
  uint64_t lo = 0;  // bits 63:0
  uint64_t hi = 0;  // bits 127:64

  static constexpr size_t kBytes = 16;

  // Reads `width` (1..64) bits starting at bit `lsb` (0..127); fields may straddle bit 64.
  [[nodiscard]] constexpr uint64_t bits(unsigned lsb, unsigned width) const {
    uint64_t value;
    if (lsb >= 64) {
      value = hi >> (lsb - 64);
    } else if (lsb == 0) {
      value = lo;
    } else {
      value = (lo >> lsb) | (hi << (64 - lsb));
    }
    return width >= 64 ? value : value & ((uint64_t{1} << width) - 1);
  }

  // Overwrites `width` (1..64) bits at `lsb` with the low bits of `value`.
  constexpr void setBits(unsigned lsb, unsigned width, uint64_t value) {
    const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    value &= mask;
    if (lsb < 64) {
      lo = (lo & ~(mask << lsb)) | (value << lsb);
      if (lsb + width > 64 && lsb != 0) {
        const unsigned spill = lsb + width - 64;
        const uint64_t hiMask = spill >= 64 ? ~uint64_t{0} : (uint64_t{1} << spill) - 1;
        hi = (hi & ~hiMask) | (value >> (64 - lsb));
      }
    } else {
      hi = (hi & ~(mask << (lsb - 64))) | (value << (lsb - 64));
    }
  }

  [[nodiscard]] static constexpr Word128 fromBytes(const uint8_t* bytes) {
    Word128 w;
    for (int i = 7; i >= 0; --i) {
      w.lo = (w.lo << 8) | bytes[i];
      w.hi = (w.hi << 8) | bytes[8 + i];
    }
    return w;
  }

  constexpr void toBytes(uint8_t* bytes) const {
    for (int i = 0; i < 8; ++i) {
      bytes[i] = static_cast<uint8_t>(lo >> (8 * i));
      bytes[8 + i] = static_cast<uint8_t>(hi >> (8 * i));
    }
  }

  friend constexpr bool operator==(const Word128&, const Word128&) = default;
};

// Splits a byte buffer into words. The caller checks that the size is a multiple of 16.
[[nodiscard]] inline std::vector<Word128> wordsFromBytes(std::span<const uint8_t> bytes) {
  std::vector<Word128> words(bytes.size() / Word128::kBytes);
  for (size_t i = 0; i < words.size(); ++i) {
    words[i] = Word128::fromBytes(bytes.data() + i * Word128::kBytes);
  }
  return words;
}

[[nodiscard]] inline std::vector<uint8_t> bytesFromWords(std::span<const Word128> words) {
  std::vector<uint8_t> bytes(words.size() * Word128::kBytes);
  for (size_t i = 0; i < words.size(); ++i) words[i].toBytes(bytes.data() + i * Word128::kBytes);
  return bytes;
}

}  // namespace coralsim::isa
