// The tests' view of a JSON document (comparing our JSON with the shared Python tools' JSON): plain
// fields that tests index freely. Parsed by the project's one reader, traces::JsonValue, in its
// Python dialect: numbers keep their text so 64-bit integers compare exactly, and Python's
// NaN/Infinity tokens are accepted. Errors are exceptions naming the byte offset.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace coralsim::testing {

struct JsonValue {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  std::string text;  // String: the decoded string; Number: the literal as written
  std::vector<JsonValue> items;  // Array elements; Object values (same order as `keys`)
  std::vector<std::string> keys;  // Object keys, in document order

  [[nodiscard]] const JsonValue* find(std::string_view key) const;
  // Number helpers. isInteger: the literal has no fraction/exponent (and is not NaN/Infinity).
  [[nodiscard]] bool isInteger() const;
  [[nodiscard]] double asDouble() const;
};

class JsonParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

JsonValue parseJson(std::string_view text);

// A JSON file read whole and parsed (a golden manifest, the ground-truth record); a file that cannot be
// read parses as an empty document and so throws JsonParseError.
JsonValue readJsonFile(const std::filesystem::path& path);

}  // namespace coralsim::testing
