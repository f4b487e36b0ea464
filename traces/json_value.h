// JsonValue: the project's one JSON reader, the counterpart of JsonWriter, so that coralsim can read
// back its own machine-readable files (USB transaction logs for `coralsim trace-diff`) and the tests
// can read the shared tools' JSON (tests/support/json_reader.h is a view over it). Strict on
// purpose: a malformed file is an error that names the byte offset, never a guess. Numbers keep
// the literal as written, so 64-bit integers and exact decimal text compare exactly.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace coralsim::traces {

class JsonParseError : public std::runtime_error {
 public:
  JsonParseError(size_t offset, const std::string& what);
  [[nodiscard]] size_t offset() const { return offset_; }

 private:
  size_t offset_;
};

// Which documents parse() accepts. kStrict is RFC 8259. kPythonNonFinite also takes the tokens
// NaN, Infinity and -Infinity as numbers, which Python's json.dumps writes by default (the shared
// tools' output); coralsim's own files never contain them.
enum class JsonDialect : uint8_t { kStrict, kPythonNonFinite };

class JsonValue {
 public:
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

  // Parses exactly one JSON value (surrounding whitespace allowed). Nesting is bounded (64 levels)
  // so hostile input cannot exhaust the stack. Throws JsonParseError.
  static JsonValue parse(std::string_view text, JsonDialect dialect = JsonDialect::kStrict);

  [[nodiscard]] Kind kind() const { return kind_; }
  [[nodiscard]] bool isNull() const { return kind_ == Kind::kNull; }
  [[nodiscard]] bool isObject() const { return kind_ == Kind::kObject; }
  [[nodiscard]] bool isArray() const { return kind_ == Kind::kArray; }
  [[nodiscard]] bool isString() const { return kind_ == Kind::kString; }
  [[nodiscard]] bool isNumber() const { return kind_ == Kind::kNumber; }
  [[nodiscard]] bool isBool() const { return kind_ == Kind::kBool; }

  // Accessors return nullopt / nullptr on a kind mismatch, so callers phrase their own errors.
  [[nodiscard]] std::optional<bool> asBool() const;
  [[nodiscard]] std::optional<double> asDouble() const;
  // Integral numbers written without fraction or exponent, in range of uint64_t.
  [[nodiscard]] std::optional<uint64_t> asUint() const;
  // The number's literal exactly as written ("NaN" / "Infinity" / "-Infinity" in the Python
  // dialect); nullptr when this is not a number.
  [[nodiscard]] const std::string* numberText() const;
  [[nodiscard]] const std::string* asString() const;
  [[nodiscard]] const std::vector<JsonValue>* asArray() const;
  // Object member by name; nullptr when absent or when this is not an object.
  [[nodiscard]] const JsonValue* find(std::string_view name) const;
  [[nodiscard]] const std::vector<std::pair<std::string, JsonValue>>* members() const;

 private:
  friend class JsonParser;
  Kind kind_ = Kind::kNull;
  bool boolean_ = false;
  double number_ = 0;
  std::optional<uint64_t> integer_;
  std::string string_;  // a string's decoded text, or a number's literal
  std::vector<JsonValue> array_;
  std::vector<std::pair<std::string, JsonValue>> object_;
};

}  // namespace coralsim::traces
