#include "tests/support/json_reader.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace coralsim::testing {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  JsonValue document() {
    JsonValue v = value(0);
    skipSpace();
    if (pos_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw JsonParseError("JSON offset " + std::to_string(pos_) + ": " + what);
  }

  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
  }

  bool consume(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  void expect(char c) {
    skipSpace();
    if (pos_ >= s_.size() || s_[pos_] != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  JsonValue value(int depth) {
    if (depth > 256) fail("nesting too deep");
    skipSpace();
    if (pos_ >= s_.size()) fail("unexpected end");
    JsonValue v;
    const char c = s_[pos_];
    if (c == '{') {
      v.type = JsonValue::Type::Object;
      ++pos_;
      skipSpace();
      if (consume("}")) return v;
      do {
        skipSpace();
        std::string key = string();
        expect(':');
        v.keys.push_back(std::move(key));
        v.items.push_back(value(depth + 1));
        skipSpace();
      } while (consume(","));
      expect('}');
    } else if (c == '[') {
      v.type = JsonValue::Type::Array;
      ++pos_;
      skipSpace();
      if (consume("]")) return v;
      do {
        v.items.push_back(value(depth + 1));
        skipSpace();
      } while (consume(","));
      expect(']');
    } else if (c == '"') {
      v.type = JsonValue::Type::String;
      v.text = string();
    } else if (consume("true")) {
      v.type = JsonValue::Type::Bool;
      v.boolean = true;
    } else if (consume("false")) {
      v.type = JsonValue::Type::Bool;
    } else if (consume("null")) {
      v.type = JsonValue::Type::Null;
    } else {
      v.type = JsonValue::Type::Number;
      v.text = number();
    }
    return v;
  }

  std::string number() {
    const size_t start = pos_;
    // Python's json module writes these for non-finite floats.
    for (std::string_view word : {"NaN", "Infinity", "-Infinity"}) {
      if (consume(word)) return std::string(word);
    }
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' ||
                                s_[pos_] == '+' || s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
    }
    if (pos_ == start) fail("unexpected character");
    return std::string(s_.substr(start, pos_ - start));
  }

  unsigned hex4() {
    if (pos_ + 4 > s_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = s_[pos_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f') v |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= static_cast<unsigned>(h - 'A' + 10);
      else fail("bad hex digit");
    }
    return v;
  }

  static void appendUtf8(std::string& out, unsigned cp) {
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

  std::string string() {
    if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a string");
    ++pos_;
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated escape");
      const char e = s_[pos_++];
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
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && consume("\\u")) {  // surrogate pair
            const unsigned low = hex4();
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          appendUtf8(out, cp);
          break;
        }
        default:
          fail("bad escape");
      }
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

const JsonValue* JsonValue::find(std::string_view key) const {
  if (type != Type::Object) return nullptr;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == key) return &items[i];
  }
  return nullptr;
}

bool JsonValue::isInteger() const {
  return type == Type::Number && text.find_first_of(".eENI") == std::string::npos;
}

double JsonValue::asDouble() const {
  if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (text == "Infinity") return std::numeric_limits<double>::infinity();
  if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
  return std::strtod(text.c_str(), nullptr);
}

JsonValue parseJson(std::string_view text) { return Parser(text).document(); }

}  // namespace coralsim::testing
