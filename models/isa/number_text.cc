#include "models/isa/number_text.h"

#include <bit>
#include <charconv>
#include <cstdio>
#include <limits>

namespace coralsim::isa {

std::string formatHex(uint64_t value, unsigned minDigits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(minDigits),
                static_cast<unsigned long long>(value));
  return buf;
}

std::string formatWordHex(const Word128& w) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "0x%016llx%016llx", static_cast<unsigned long long>(w.hi),
                static_cast<unsigned long long>(w.lo));
  return buf;
}

std::string formatF32(uint32_t bits) {
  const bool negative = (bits >> 31) != 0;
  const uint32_t exponent = (bits >> 23) & 0xff;
  const uint32_t mantissa = bits & 0x7fffff;
  if (exponent == 0xff) {
    if (mantissa == 0) return negative ? "-inf" : "inf";
    char buf[24];
    std::snprintf(buf, sizeof buf, "nan:0x%08x", bits);
    return buf;
  }
  // Nine significant digits identify every float32 uniquely (including subnormals).
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(std::bit_cast<float>(bits)));
  std::string text = buf;
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string formatAddress(uint64_t wordIndex) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%04llx", static_cast<unsigned long long>(wordIndex));
  std::string text = buf;
  if (text[0] >= 'a') text.insert(text.begin(), '0');
  return text;
}

std::optional<uint64_t> parseUnsigned(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<int64_t> parseSigned(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  const auto magnitude = parseUnsigned(text);
  if (!magnitude) return std::nullopt;
  constexpr uint64_t kMaxNegative = uint64_t{1} << 63;
  if (negative) {
    if (*magnitude > kMaxNegative) return std::nullopt;
    return static_cast<int64_t>(0 - *magnitude);
  }
  if (*magnitude >= kMaxNegative) return std::nullopt;
  return static_cast<int64_t>(*magnitude);
}

std::optional<uint32_t> parseF32(std::string_view text) {
  if (text == "inf" || text == "+inf") return 0x7f800000u;
  if (text == "-inf") return 0xff800000u;
  if (text.starts_with("nan:")) {
    const auto bits = parseUnsigned(text.substr(4));
    if (!bits || *bits > 0xffffffffu) return std::nullopt;
    const uint32_t b = static_cast<uint32_t>(*bits);
    if (((b >> 23) & 0xff) != 0xff || (b & 0x7fffff) == 0) return std::nullopt;  // not a NaN
    return b;
  }
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  if (text.empty() || text.starts_with("0x") || text.starts_with("-0x")) return std::nullopt;
  float value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return std::bit_cast<uint32_t>(value);
}

std::optional<Word128> parseWordHex(std::string_view text) {
  if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return std::nullopt;
  text.remove_prefix(2);
  if (text.size() > 32) return std::nullopt;
  Word128 w;
  for (char c : text) {
    unsigned digit;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return std::nullopt;
    }
    w.hi = (w.hi << 4) | (w.lo >> 60);
    w.lo = (w.lo << 4) | digit;
  }
  return w;
}

bool looksLikeFloat(std::string_view text) {
  if (text.starts_with("0x") || text.starts_with("-0x") || text.starts_with("+0x")) return false;
  if (text == "inf" || text == "+inf" || text == "-inf" || text.starts_with("nan:")) return true;
  return text.find_first_of(".eE") != std::string_view::npos;
}

}  // namespace coralsim::isa
