// One bit field of an instruction packet, as declared in the ISA tables (bundle_fields.def,
// packet_fields.def), and generic access to it.
//
// Bit positions count across the whole packet: bit b of word k is packet bit 128·k + b, so a field
// may straddle two words (the NLU table's float32 array starts at bit 62 of word 0). The decoder,
// the disassembler, the assembler and the table-consistency test all read these definitions;
// nothing else in coralsim spells a field position.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "models/isa/confidence.h"
#include "models/isa/word128.h"

namespace coralsim::isa {

// How a field's value is written in assembly text.
enum class FieldFormat : uint8_t {
  Hex,        // 0x1f
  HexPadded,  // 0x001f: zero-padded to the field width (tile masks read better aligned)
  Dec,        // 31
  Signed,     // +2 / -72 (two's complement of the field width)
  WordOffset, // signed offset in words from the packet itself: +2 / -72, or a label in assembly
  F32,        // IEEE float32 bit pattern, written as a float: 1.5, -129.0, inf, nan:0x7fc00001
  Cond,       // 5-bit predication code {gate, p[3:1], polarity}: written as a "(p0)"/"(!p3)" prefix
  Enum,       // a value with a name in FieldDef::valueNames ("final"), otherwise hex
};

// Presentation flags (bit set).
enum FieldFlag : uint8_t {
  kFieldNamed = 0,          // written "name=value"
  kFieldPositional = 1,     // written as a bare value right after the mnemonic
  kFieldOmitDefault = 2,    // left out of the text when equal to defaultValue
};

struct ValueName {
  uint64_t value;
  std::string_view name;
};

struct FieldDef {
  std::string_view name;   // as written in assembly ("zp_in"); unique within a packet layout
  uint32_t lsb;            // first bit, counted across the packet (see above)
  uint8_t width;           // 1..64 bits
  uint8_t count;           // number of elements (1 = a plain field, >1 = an array "name=[a,b,...]")
  uint16_t stride;         // bits from one element to the next
  FieldFormat format;
  uint8_t flags;           // FieldFlag bits
  uint64_t defaultValue;   // what the assembler writes when the text does not name the field
  std::string_view parent;  // "" = top level; else the field this one subdivides
  std::string_view view;    // for sub-fields: which reading of the parent they belong to
  Confidence confidence;
  std::string_view meaning;
  std::span<const ValueName> valueNames;  // for FieldFormat::Enum

  [[nodiscard]] constexpr uint32_t elementLsb(unsigned element) const { return lsb + element * stride; }
  // One past the last bit any element occupies.
  [[nodiscard]] constexpr uint32_t endBit() const { return lsb + (count - 1u) * stride + width; }
  [[nodiscard]] constexpr uint64_t mask() const {
    return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  }
  [[nodiscard]] constexpr bool isSubField() const { return !parent.empty(); }
};

// Reads `width` (1..64) bits at packet bit `lsb`. Bits past the end of `words` read as zero, so a
// caller can never read out of bounds, even on a truncated packet. (Out of line: generic field
// access is for printers and tile packets; the scalar core's bundle decoder uses Word128::bits.)
[[nodiscard]] uint64_t readPacketBits(std::span<const Word128> words, uint32_t lsb, unsigned width);

// Writes the low `width` bits of `value` at packet bit `lsb`; bits past the end are dropped.
void writePacketBits(std::span<Word128> words, uint32_t lsb, unsigned width, uint64_t value);

[[nodiscard]] inline uint64_t decodeField(const FieldDef& field, std::span<const Word128> words,
                                             unsigned element = 0) {
  return readPacketBits(words, field.elementLsb(element), field.width);
}

inline void encodeField(const FieldDef& field, std::span<Word128> words, uint64_t value,
                           unsigned element = 0) {
  writePacketBits(words, field.elementLsb(element), field.width, value);
}

[[nodiscard]] constexpr Word128 xorWords(const Word128& a, const Word128& b) {
  return Word128{a.lo ^ b.lo, a.hi ^ b.hi};
}

[[nodiscard]] constexpr bool isZeroWord(const Word128& w) { return w.lo == 0 && w.hi == 0; }

// Sign-extends the low `width` bits of `value`.
[[nodiscard]] constexpr int64_t signExtend(uint64_t value, unsigned width) {
  if (width >= 64) return static_cast<int64_t>(value);
  const uint64_t sign = uint64_t{1} << (width - 1);
  value &= (uint64_t{1} << width) - 1;
  return static_cast<int64_t>((value ^ sign) - sign);
}

}  // namespace coralsim::isa
