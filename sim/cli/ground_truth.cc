#include "sim/cli/ground_truth.h"

#include <fstream>
#include <iterator>
#include <regex>

#include "driver/model/load_error.h"
#include "traces/json_value.h"

namespace coralsim::cli {

std::optional<ClassExpectation> parseClassExpectation(std::string_view expectView, std::string_view compiledFileName) {
  const std::string expect(expectView);
  const std::string file(compiledFileName);
  static const std::regex pattern(R"((?:label |: )(\d+)\b[^;]*?score ?> ?([0-9.]+))");
  size_t from = 0;
  while (from <= expect.size()) {
    size_t end = expect.find(';', from);
    if (end == std::string::npos) end = expect.size();
    const std::string segment = expect.substr(from, end - from);
    from = end + 1;
    std::smatch m;
    if (!std::regex_search(segment, m, pattern)) continue;
    // A segment "KEY: label ..." applies to the model whose file name KEY describes.
    const size_t colon = segment.find(':');
    if (colon != std::string::npos && colon < static_cast<size_t>(m.position(0)) + 1) {
      std::string key = segment.substr(0, colon);
      key = key.substr(key.find_last_of(" >") == std::string::npos ? 0 : key.find_last_of(" >") + 1);
      const bool matches = key == "mnv2" ? file.starts_with("mobilenet_v2") : file.find(key) != std::string::npos;
      if (!matches) continue;
    }
    ClassExpectation e;
    e.label = std::stoi(m[1].str());
    e.minScore = std::stod(m[2].str());
    return e;
  }
  return std::nullopt;
}

std::optional<ClassGroundTruth> findClassGroundTruth(const std::filesystem::path& corpus, const std::string& modelRel,
                                                     const std::string& imageRel) {
  const std::filesystem::path path = corpus / "ground_truth" / "GROUND_TRUTH_public.json";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw driver::LoadError(path.string() + ": cannot open the ground truth");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  traces::JsonValue records;
  try {
    records = traces::JsonValue::parse(text);
  } catch (const traces::JsonParseError& e) {
    throw driver::LoadError(path.string() + ": " + e.what());
  }
  if (!records.isArray()) throw driver::LoadError(path.string() + ": expected an array of records");
  auto string = [](const traces::JsonValue* v) { return v && v->asString() ? *v->asString() : std::string(); };
  auto lists = [](const traces::JsonValue* v, const std::string& item) {
    if (!v || !v->asArray()) return false;
    for (const traces::JsonValue& x : *v->asArray()) {
      if (x.asString() && *x.asString() == item) return true;
    }
    return false;
  };
  for (const traces::JsonValue& r : *records.asArray()) {
    if (string(r.find("kind")) != "classification" || !lists(r.find("models_present"), modelRel) ||
        !lists(r.find("inputs"), imageRel)) {
      continue;
    }
    const std::string expect = string(r.find("expect"));
    const auto expectation = parseClassExpectation(expect, std::filesystem::path(modelRel).filename().string());
    if (!expectation) continue;
    return ClassGroundTruth{string(r.find("id")), expect, string(r.find("source")), *expectation};
  }
  return std::nullopt;
}

}  // namespace coralsim::cli
