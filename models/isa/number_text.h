// How numbers are written in coralsim assembly, in both directions. Every printer uses these and
// the assembler parses with their counterparts, so a printed value always reads back bit-exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/isa/word128.h"

namespace coralsim::isa {

// "0x1f" (no padding) or, with minDigits, "0x001f".
[[nodiscard]] std::string formatHex(uint64_t value, unsigned minDigits = 1);

// A whole word as "0x" + 32 hex digits.
[[nodiscard]] std::string formatWordHex(const Word128& w);

// A float32 bit pattern as text that parseF32 reads back to the same bits: "1.0", "-129.0",
// "0.00294935", "inf", "-inf", "nan:0x7fc00000" (NaNs keep their payload).
[[nodiscard]] std::string formatF32(uint32_t bits);

// Word addresses in listings: at least 4 hex digits and always starting with a decimal digit, so
// an address ("0abcd:") can never be mistaken for a label ("abcd:").
[[nodiscard]] std::string formatAddress(uint64_t wordIndex);

// Integers: "0x..." hex or decimal, optionally signed ("-1", "+2"). nullopt on malformed text or
// overflow of 64 bits. The caller range-checks against the field width.
[[nodiscard]] std::optional<int64_t> parseSigned(std::string_view text);
[[nodiscard]] std::optional<uint64_t> parseUnsigned(std::string_view text);

// Floats as formatF32 writes them (and any decimal/exponent form from_chars accepts).
[[nodiscard]] std::optional<uint32_t> parseF32(std::string_view text);

// "0x" + 1..32 hex digits.
[[nodiscard]] std::optional<Word128> parseWordHex(std::string_view text);

// True when `text` looks like a float literal rather than an integer (has '.', an exponent, or is
// inf/nan), so "28.0" is a float and "28" / "0x1c" are integers.
[[nodiscard]] bool looksLikeFloat(std::string_view text);

}  // namespace coralsim::isa
