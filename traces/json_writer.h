// A small streaming JSON writer: deterministic output (keys in the order written), correct string
// escaping, no allocation per value. Used by every machine-readable output of coralsim
// (`inspect --json`, `run --json`, JSONL traces) so that they share one formatting.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace coralsim::traces {

class JsonWriter {
 public:
  // `indent` = 0 writes one line (JSONL); > 0 pretty-prints with that many spaces per level.
  explicit JsonWriter(std::ostream& out, int indent = 0) : out_(out), indent_(indent) {}

  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();

  // Inside an object: names the next value.
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(bool b);
  JsonWriter& value(int64_t v);
  JsonWriter& value(uint64_t v);
  // Every other integer type widens to one of the two above.
  template <typename T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, int64_t> &&
             !std::is_same_v<T, uint64_t>)
  JsonWriter& value(T v) {
    if constexpr (std::is_signed_v<T>) return value(static_cast<int64_t>(v));
    else return value(static_cast<uint64_t>(v));
  }
  // Doubles print with the shortest round-trip form; NaN and infinities become strings
  // ("nan", "inf", "-inf") because JSON has no literal for them.
  JsonWriter& value(double v);
  JsonWriter& value(float v) { return value(static_cast<double>(v)); }
  JsonWriter& null();

  template <typename T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }

  static std::string escape(std::string_view s);

 private:
  void beforeValue();
  void newline();
  void close(char bracket);

  std::ostream& out_;
  int indent_;
  // One entry per open container: number of elements written so far.
  std::vector<int> counts_;
  bool afterKey_ = false;
};

}  // namespace coralsim::traces
