#include "traces/json_value.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

namespace coralsim::traces {

JsonParseError::JsonParseError(size_t offset, const std::string& what)
    : std::runtime_error("byte " + std::to_string(offset) + ": " + what), offset_(offset) {}

class JsonParser {
 public:
  JsonParser(std::string_view text, JsonDialect dialect) : text_(text), dialect_(dialect) {}

  JsonValue parseDocument() {
    JsonValue v = parseValue(0);
    skipSpace();
    if (pos_ != text_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 64;
  // "-Infinity" before a plain number: both start with '-'.
  static constexpr std::pair<std::string_view, double> kNonFinite[] = {
      {"NaN", std::numeric_limits<double>::quiet_NaN()},
      {"Infinity", std::numeric_limits<double>::infinity()},
      {"-Infinity", -std::numeric_limits<double>::infinity()},
  };

  [[noreturn]] void fail(const std::string& what) const { throw JsonParseError(pos_, what); }

  void skipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool consumeWord(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  JsonValue parseValue(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than 64 levels");
    skipSpace();
    if (pos_ >= text_.size()) fail("unexpected end of input, expected a value");
    JsonValue v;
    const char c = text_[pos_];
    if (c == '{') {
      v.kind_ = JsonValue::Kind::kObject;
      ++pos_;
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return v;
      }
      for (;;) {
        skipSpace();
        if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a member name in quotes");
        std::string name = parseString();
        skipSpace();
        if (pos_ >= text_.size() || text_[pos_] != ':') fail("expected ':' after member name");
        ++pos_;
        v.object_.emplace_back(std::move(name), parseValue(depth + 1));
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < text_.size() && text_[pos_] == '}') {
          ++pos_;
          return v;
        }
        fail("expected ',' or '}' in object");
      }
    }
    if (c == '[') {
      v.kind_ = JsonValue::Kind::kArray;
      ++pos_;
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return v;
      }
      for (;;) {
        v.array_.push_back(parseValue(depth + 1));
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < text_.size() && text_[pos_] == ']') {
          ++pos_;
          return v;
        }
        fail("expected ',' or ']' in array");
      }
    }
    if (c == '"') {
      v.kind_ = JsonValue::Kind::kString;
      v.string_ = parseString();
      return v;
    }
    if (consumeWord("true")) {
      v.kind_ = JsonValue::Kind::kBool;
      v.boolean_ = true;
      return v;
    }
    if (consumeWord("false")) {
      v.kind_ = JsonValue::Kind::kBool;
      return v;
    }
    if (consumeWord("null")) return v;
    if (dialect_ == JsonDialect::kPythonNonFinite) {
      for (const auto& [word, value] : kNonFinite) {
        if (!consumeWord(word)) continue;
        v.kind_ = JsonValue::Kind::kNumber;
        v.number_ = value;
        v.string_ = word;
        return v;
      }
    }
    if (c == '-' || (c >= '0' && c <= '9')) return parseNumber();
    fail(std::string("unexpected character '") + c + "'");
  }

  JsonValue parseNumber() {
    const size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    auto digits = [&] {
      const size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      if (pos_ == from) fail("malformed number");
    };
    digits();
    bool integral = true;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      digits();
      integral = false;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      digits();
      integral = false;
    }
    const std::string_view number = text_.substr(start, pos_ - start);
    JsonValue v;
    v.kind_ = JsonValue::Kind::kNumber;
    // strtod needs a terminated string; numbers are short.
    v.string_ = number;
    v.number_ = std::strtod(v.string_.c_str(), nullptr);
    if (integral && number[0] != '-') {
      uint64_t u = 0;
      const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), u);
      if (ec == std::errc() && end == number.data() + number.size()) v.integer_ = u;
    }
    return v;
  }

  static void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  uint32_t parseHex4() {
    if (text_.size() - pos_ < 4) fail("truncated \\u escape");
    uint32_t cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      cp <<= 4;
      if (h >= '0' && h <= '9') cp |= static_cast<uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') cp |= static_cast<uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') cp |= static_cast<uint32_t>(h - 'A' + 10);
      else fail("bad hex digit in \\u escape");
    }
    return cp;
  }

  std::string parseString() {
    ++pos_;  // opening quote
    std::string out;
    for (;;) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character inside a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated escape");
      const char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = parseHex4();
          if (cp >= 0xD800 && cp < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            const uint32_t low = parseHex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("unpaired surrogate in \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          appendUtf8(out, cp);
          break;
        }
        default: fail(std::string("unknown escape '\\") + e + "'");
      }
    }
  }

  std::string_view text_;
  JsonDialect dialect_;
  size_t pos_ = 0;
};

JsonValue JsonValue::parse(std::string_view text, JsonDialect dialect) {
  return JsonParser(text, dialect).parseDocument();
}

std::optional<bool> JsonValue::asBool() const {
  if (kind_ != Kind::kBool) return std::nullopt;
  return boolean_;
}
std::optional<double> JsonValue::asDouble() const {
  if (kind_ != Kind::kNumber) return std::nullopt;
  return number_;
}
std::optional<uint64_t> JsonValue::asUint() const {
  if (kind_ != Kind::kNumber) return std::nullopt;
  return integer_;
}
const std::string* JsonValue::numberText() const { return kind_ == Kind::kNumber ? &string_ : nullptr; }
const std::string* JsonValue::asString() const { return kind_ == Kind::kString ? &string_ : nullptr; }
const std::vector<JsonValue>* JsonValue::asArray() const { return kind_ == Kind::kArray ? &array_ : nullptr; }
const std::vector<std::pair<std::string, JsonValue>>* JsonValue::members() const {
  return kind_ == Kind::kObject ? &object_ : nullptr;
}
const JsonValue* JsonValue::find(std::string_view name) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (const auto& [k, v] : object_) {
    if (k == name) return &v;
  }
  return nullptr;
}

}  // namespace coralsim::traces
