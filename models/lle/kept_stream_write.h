// The kept-stream write (lle_fields.def Stage14SourceSideOn, docs/decoding-log.md "dma14"): a 0x14 whose
// word 4 is zero takes no pop and no receive; it puts back, at its own address and along its own nest,
// the bytes a read kept on its tiles (0x13 with Stage13Route 0, 0) took earlier under the same stream tag.
// Its w0[127:62] / w1 -- in the other forms a copy of the 0x11 receive that comes next -- are then a copy
// of that read, bit for bit, from the read's Stage13Channel on: the same layout (stream tag, level flag,
// limit, wraps, ..., step) shifted by the distance between the two tags' positions. The 1024^2
// convolutions keep their tile's image window this way before a convolution pass writes over it and put
// it back, one pass further up narrow memory, after each pass.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

// The words all clear in this form: 4 (the source side: Stage14SourceSideOn and everything beside it) and 5
// (whose bit 15 every other corpus 0x14 sets: 5,662 / 5,662; 0 in all 154 kept-stream writes).
constexpr unsigned kKeptStreamWriteZeroWords[] = {4, 5};

[[nodiscard]] inline bool isKeptStreamWrite(std::span<const isa::Word128> words) {
  return words.size() > 5 && readField(words, LleField::Stage14SourceSideOn) == 0;
}

// A read kept in its tile: both route bits clear (lle_fields.def Stage13Route).
[[nodiscard]] inline bool isKeptRead(std::span<const isa::Word128> words) {
  return readField(words, LleField::Stage13Route, 0) == 0 && readField(words, LleField::Stage13Route, 1) == 0;
}

// Bit `bit` of a packet (0 past its words).
[[nodiscard]] inline bool packetBit(std::span<const isa::Word128> words, uint32_t bit) {
  return bit / 128 < words.size() && words[bit / 128].bits(bit % 128, 1) != 0;
}

// The copied range of the write: its partner-copy fields, w0[127:62] and w1 (lle_fields.def
// Stage14PartnerW0 / W1), and where the read holds the same bits.
struct KeptStreamCopy {
  uint32_t writeFirst;  // first copied bit of the 0x14
  uint32_t writeEnd;    // one past its last
  uint32_t readFirst;   // the 0x13's bit holding writeFirst
};

[[nodiscard]] inline KeptStreamCopy keptStreamCopy() {
  const LleFieldDef& w0 = fieldDef(LleField::Stage14PartnerW0);
  const LleFieldDef& w1 = fieldDef(LleField::Stage14PartnerW1);
  const uint32_t shift = fieldDef(LleField::Stage13Channel).lsb - fieldDef(LleField::Stage14CopyStream).lsb;
  return KeptStreamCopy{w0.lsb, w1.lsb + (w1.count - 1u) * w1.stride + w1.width, w0.lsb + shift};
}

// "" when the write's copied bits are the read's; otherwise the differing bits of the write, named.
[[nodiscard]] inline std::string keptStreamCopyDifference(std::span<const isa::Word128> write, std::span<const isa::Word128> read) {
  const KeptStreamCopy c = keptStreamCopy();
  std::string bits;
  unsigned count = 0;
  for (uint32_t b = c.writeFirst; b < c.writeEnd; ++b) {
    if (packetBit(write, b) == packetBit(read, c.readFirst + (b - c.writeFirst))) continue;
    if (++count <= 8) bits += (bits.empty() ? "" : ", ") + std::string("w") + std::to_string(b / 128) + "[" + std::to_string(b % 128) + "]";
  }
  if (count == 0) return "";
  return std::to_string(count) + " copied bit(s) differ from the kept read's bits " + std::to_string(c.readFirst) + " ... " +
         std::to_string(c.readFirst + (c.writeEnd - c.writeFirst) - 1) + " (" + bits + (count > 8 ? ", ..." : "") + ")";
}

}  // namespace coralsim::lle
