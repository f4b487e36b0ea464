// The packet fields the low-level datapath reads (lle_fields.def) as a constexpr table, and
// readers. The envelope (packet_envelope.h) clears exactly these bits before pinning the rest.
#pragma once

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "models/isa/confidence.h"
#include "models/isa/word128.h"

namespace coralsim::lle {

enum class LleField : uint16_t {
#define CORAL_LLE_FIELD(id, ...) id,
#include "models/lle/lle_fields.def"
#undef CORAL_LLE_FIELD
};

struct LleFieldDef {
  std::string_view name;
  uint8_t opcode;
  uint32_t lsb;  // absolute bit in the packet: 128 x word + bit
  uint8_t width;
  uint8_t count;
  uint16_t stride;
  isa::Confidence confidence;
  std::string_view meaning;
  std::string_view evidence;
};

inline constexpr LleFieldDef kLleFields[] = {
#define CORAL_LLE_FIELD(id, op, word, bit, width, count, stride, conf, meaning, evidence) \
  LleFieldDef{#id, op, (word) * 128u + (bit), width, count, stride, isa::Confidence::conf, meaning, evidence},
#include "models/lle/lle_fields.def"
#undef CORAL_LLE_FIELD
};

[[nodiscard]] constexpr const LleFieldDef& fieldDef(LleField field) { return kLleFields[static_cast<size_t>(field)]; }

// Element `element` of `field` from a packet's words (the caller checked the opcode and length).
[[nodiscard]] inline uint64_t readField(std::span<const isa::Word128> words, LleField field, unsigned element = 0) {
  const LleFieldDef& f = fieldDef(field);
  const uint32_t lsb = f.lsb + element * f.stride;
  const unsigned word = lsb / 128;
  const unsigned bit = lsb % 128;
  if (bit + f.width <= 128) return words[word].bits(bit, f.width);
  // Straddles two words (NLU table elements).
  const unsigned low = 128 - bit;
  return words[word].bits(bit, low) | (words[word + 1].bits(0, f.width - low) << low);
}

// The same field read as a two's-complement number of its width (loop wraps, strides).
[[nodiscard]] inline int64_t readSigned(std::span<const isa::Word128> words, LleField field, unsigned element = 0) {
  const unsigned width = fieldDef(field).width;
  const uint64_t raw = readField(words, field, element);
  return width < 64 && (raw >> (width - 1)) ? static_cast<int64_t>(raw) - (int64_t{1} << width) : static_cast<int64_t>(raw);
}

// "Name (word W bits H:L) = value" (element `element` of an array field as "Name[i] ..."): how a refusal names a field.
[[nodiscard]] inline std::string fieldText(LleField field, uint64_t value, unsigned element = 0) {
  const LleFieldDef& f = fieldDef(field);
  const uint32_t lsb = f.lsb + element * f.stride;
  return std::string(f.name) + (f.count > 1 ? "[" + std::to_string(element) + "]" : "") + " (word " + std::to_string(lsb / 128) +
         " bit" + (f.width > 1 ? "s " : " ") + (f.width > 1 ? std::to_string(lsb % 128 + f.width - 1) + ":" : "") +
         std::to_string(lsb % 128) + ") = " + std::to_string(value);
}

[[nodiscard]] inline float readF32(std::span<const isa::Word128> words, LleField field, unsigned element = 0) {
  return std::bit_cast<float>(static_cast<uint32_t>(readField(words, field, element)));
}

// The iterations of a counting nest's listed level-limit fields (count - 1 each, every element of an array field):
// the product of limit + 1 -- how the executors compare what two nests of one compute count.
[[nodiscard]] inline uint64_t levelIterations(std::span<const isa::Word128> words, std::initializer_list<LleField> levels) {
  uint64_t n = 1;
  for (const LleField field : levels) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) n *= readField(words, field, e) + 1;
  }
  return n;
}

}  // namespace coralsim::lle
