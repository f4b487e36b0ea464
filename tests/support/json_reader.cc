// The tests' JSON view is built from the project's one JSON reader (traces/json_value.h) in its
// Python dialect, so the grammar, escapes and error offsets are written once.
#include "tests/support/json_reader.h"

#include <fstream>
#include <sstream>
#include <utility>

#include "traces/json_value.h"

namespace coralsim::testing {
namespace {

JsonValue toTestView(const traces::JsonValue& v) {
  using Kind = traces::JsonValue::Kind;
  JsonValue out;
  switch (v.kind()) {
    case Kind::kNull:
      break;
    case Kind::kBool:
      out.type = JsonValue::Type::Bool;
      out.boolean = *v.asBool();
      break;
    case Kind::kNumber:
      out.type = JsonValue::Type::Number;
      out.text = *v.numberText();
      break;
    case Kind::kString:
      out.type = JsonValue::Type::String;
      out.text = *v.asString();
      break;
    case Kind::kArray:
      out.type = JsonValue::Type::Array;
      out.items.reserve(v.asArray()->size());
      for (const traces::JsonValue& item : *v.asArray()) out.items.push_back(toTestView(item));
      break;
    case Kind::kObject:
      out.type = JsonValue::Type::Object;
      for (const auto& [key, member] : *v.members()) {
        out.keys.push_back(key);
        out.items.push_back(toTestView(member));
      }
      break;
  }
  return out;
}

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
  return traces::JsonValue::parse(text, traces::JsonDialect::kPythonNonFinite).asDouble().value_or(0.0);
}

JsonValue parseJson(std::string_view text) {
  try {
    return toTestView(traces::JsonValue::parse(text, traces::JsonDialect::kPythonNonFinite));
  } catch (const traces::JsonParseError& e) {
    throw JsonParseError(e.what());
  }
}

}  // namespace coralsim::testing

namespace coralsim::testing {

JsonValue readJsonFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream contents;
  contents << in.rdbuf();
  return parseJson(contents.str());
}

}  // namespace coralsim::testing
