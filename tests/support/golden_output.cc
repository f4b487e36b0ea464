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

}  // namespace coralsim::testing
