#include "tests/support/golden_output.h"

#include <string>

#include "tests/support/corpus.h"

namespace coralsim::testing {
namespace {

std::string textOf(const JsonValue* v) { return v ? v->text : std::string(); }

}  // namespace

std::vector<uint8_t> readPreferredGoldenOutput(const std::filesystem::path& caseDir, const JsonValue& output) {
  if (const std::string tfliteForm = textOf(output.find("alt_xnnpack_file")); !tfliteForm.empty()) {
    return readFile(caseDir / tfliteForm);
  }
  if (const std::string deviceForm = textOf(output.find("alt_xnnpack_dev_file")); !deviceForm.empty()) {
    std::vector<uint8_t> bytes = readFile(caseDir / deviceForm);
    if (textOf(output.find("dtype")) == "int8") {
      for (uint8_t& b : bytes) b ^= 0x80;
    }
    return bytes;
  }
  return readFile(caseDir / textOf(output.find("file")));
}

std::optional<std::vector<uint8_t>> readPreferredGoldenCaseOutput(const std::filesystem::path& goldenModelDir, const std::string& caseId,
                                                                  size_t index) {
  if (!std::filesystem::exists(goldenModelDir / "manifest.json")) return std::nullopt;
  const JsonValue manifest = readJsonFile(goldenModelDir / "manifest.json");
  const JsonValue* cases = manifest.find("cases");
  if (!cases) return std::nullopt;
  for (const JsonValue& c : cases->items) {
    if (textOf(c.find("case")) != caseId && textOf(c.find("id")) != caseId) continue;
    const JsonValue* outputs = c.find("tpu_outputs");
    if (!outputs || index >= outputs->items.size()) return std::nullopt;
    return readPreferredGoldenOutput(goldenModelDir, outputs->items[index]);
  }
  return std::nullopt;
}

std::vector<uint8_t> readPreferredGoldenDeviceOutput(const std::filesystem::path& caseDir, const JsonValue& output) {
  if (const std::string deviceForm = textOf(output.find("alt_xnnpack_dev_file")); !deviceForm.empty()) {
    return readFile(caseDir / deviceForm);
  }
  return readFile(caseDir / textOf(output.find("dev_file")));
}

bool goldenRoundsPoolTies(const JsonValue& manifest) {
  const JsonValue* tolerance = manifest.find("tolerance");
  const JsonValue* ops = tolerance ? tolerance->find("tpu_subgraph_ops") : nullptr;
  return ops && ops->find("AVERAGE_POOL_2D") != nullptr;
}

GoldenReferenceSpread goldenReferenceSpread(const JsonValue& manifest) {
  GoldenReferenceSpread spread;
  const JsonValue* tolerance = manifest.find("tolerance");
  if (!tolerance) return spread;
  if (const JsonValue* f = tolerance->find("float_requant_spread_lsb")) spread.floatRequantSpreadLsb = static_cast<int>(f->asDouble());
  if (const JsonValue* l = tolerance->find("requantising_layers")) spread.requantisingLayers = static_cast<int>(l->asDouble());
  if (const JsonValue* m = tolerance->find("max_abs_lsb")) spread.maxAbsLsb = static_cast<int>(m->asDouble());
  return spread;
}

std::set<std::filesystem::path> compiledModelsWhoseGoldenReferencesDisagree(const std::filesystem::path& golden,
                                                                            const std::filesystem::path& corpus) {
  namespace fs = std::filesystem;
  std::set<fs::path> out;
  for (const auto& entry : fs::directory_iterator(golden)) {
    if (!entry.is_directory() || !fs::exists(entry.path() / "manifest.json")) continue;
    const JsonValue manifest = readJsonFile(entry.path() / "manifest.json");
    const JsonValue* compiled = manifest.find("compiled");
    if (!compiled || !goldenReferenceSpread(manifest).referencesDisagree()) continue;
    out.insert((corpus / textOf(compiled->find("path"))).lexically_normal());
  }
  return out;
}

}  // namespace coralsim::testing
