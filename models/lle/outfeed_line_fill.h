// The line-form outfeed moves whole 8-byte lines (0x27 OutfeedLines + 1 of them; docs/decoding-log.md
// "decode3" §D). A host-bound read counts 4-byte groups, so a read of 4 (mod 8) bytes fills its last line
// only half: in every corpus pair of a line-form 0x27 with its host-bound read (1,146 pairs), the 0x27 names
// the read's bytes rounded up to whole lines (1,110 equal, 36 one half line more, none else), and the
// executables' output buffers (size_bytes) count those lines whole, the half-filled ones included (25 / 25
// executables with such a read). The host receives the line; no output tensor byte is laid in its last 4
// bytes (docs/decoding-log.md "loomout"). What the device puts there is not decoded: the rung sends zeros.
#pragma once

#include <cstdint>
#include <vector>

namespace coralsim::lle {

inline constexpr uint64_t kOutfeedLineBytes = 8;

// The bytes a line-form outfeed moves for a read of `readBytes`: the read rounded up to whole lines.
constexpr uint64_t outfeedLineBytesOf(uint64_t readBytes) {
  return (readBytes + kOutfeedLineBytes - 1) / kOutfeedLineBytes * kOutfeedLineBytes;
}

// Whether an outfeed of `bytes` carries a read of `readBytes`: the read whole (every form; an outfeed to scalar
// memory counts 4-byte groups), or a line-form read filled to whole lines.
constexpr bool outfeedLinesCarry(uint64_t bytes, uint64_t readBytes) {
  return readBytes != 0 && (readBytes == bytes || outfeedLineBytesOf(readBytes) == bytes);
}

// A read's bytes as the line-form outfeed of `lineBytes` hands them to the host: the rest of the last
// line (not the read's; not decoded) as zeros. The caller has checked outfeedLinesCarry.
inline std::vector<uint8_t> filledToOutfeedLines(std::vector<uint8_t> read, uint64_t lineBytes) {
  read.resize(lineBytes, 0);
  return read;
}

}  // namespace coralsim::lle
