// Cross-check against an oracle we did not write: for every corpus model, the JSON of
// `coralsim inspect --json` (the same driver::writeModelJson the command calls) is compared field
// by field with `python3 tools/darwinn_dump.py --json`. Every key present in both is compared,
// recursively; arrays must have equal lengths. Conventions:
//   - integers compare exactly (64-bit tokens included), other numbers as doubles;
//   - a Python null equals an empty string (FlatBuffers "absent" vs "empty" for strings);
//   - every key the reference prints must exist in ours (extra keys of ours are fine);
//   - the comparison must have covered the key paths listed in kRequiredPaths.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "driver/model/model_json.h"
#include "driver/model/model_loader.h"
#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"
#include "tests/support/run_command.h"

namespace coralsim::driver::driver_crosscheck_test {
namespace {

using coralsim::testing::JsonValue;

// Key paths (array indices written as []) that must have been compared at least once.
const char* const kRequiredPaths[] = {
    "kind",
    "size",
    "cpu_ops[]",
    "n_edgetpu_ops",
    "subgraphs[].ops[]",
    "subgraphs[].inputs[].shape[]",
    "subgraphs[].inputs[].type",
    "subgraphs[].inputs[].scale[]",
    "subgraphs[].inputs[].zero_point[]",
    "subgraphs[].outputs[].n_quant_channels",
    "edgetpu_ops[].flex_keys[]",
    "edgetpu_ops[].key_4",
    "edgetpu_ops[].op_inputs[].name",
    "edgetpu_ops[].packages[].min_runtime_version",
    "edgetpu_ops[].packages[].executables[].type",
    "edgetpu_ops[].packages[].executables[].parameter_caching_token",
    "edgetpu_ops[].packages[].executables[].estimated_cycles_64bit",
    "edgetpu_ops[].packages[].executables[].used_narrow_memory_bytes_per_tile",
    "edgetpu_ops[].packages[].executables[].instruction_bitstreams[].bytes",
    "edgetpu_ops[].packages[].executables[].instruction_bitstreams[].field_offsets[].desc",
    "edgetpu_ops[].packages[].executables[].instruction_bitstreams[].field_offsets[].name",
    "edgetpu_ops[].packages[].executables[].instruction_bitstreams[].field_offsets[].position",
    "edgetpu_ops[].packages[].executables[].instruction_bitstreams[].field_offsets[].offset_bit",
    "edgetpu_ops[].packages[].executables[].parameters_bytes",
    "edgetpu_ops[].packages[].executables[].dma_hints.fully_deterministic",
    "edgetpu_ops[].packages[].executables[].dma_hints.hints[].kind",
    "edgetpu_ops[].packages[].executables[].dma_hints.hints[].dir",
    "edgetpu_ops[].packages[].executables[].dma_hints.hints[].desc",
    "edgetpu_ops[].packages[].executables[].dma_hints.hints[].offset",
    "edgetpu_ops[].packages[].executables[].dma_hints.hints[].size",
    "edgetpu_ops[].packages[].executables[].dma_hints.hints[].chunk",
    "edgetpu_ops[].packages[].executables[].dma_hints.hints[].type",
    "edgetpu_ops[].packages[].executables[].dma_pattern",
    "edgetpu_ops[].packages[].executables[].dma_kind",
    "edgetpu_ops[].packages[].executables[].input_layers[].zero_point",
    "edgetpu_ops[].packages[].executables[].input_layers[].dequantization_factor",
    "edgetpu_ops[].packages[].executables[].output_layers[].z_dim",
    "edgetpu_ops[].packages[].executables[].output_layers[].data_type",
    "edgetpu_ops[].packages[].executables[].output_layers[].shape[][]",
    "edgetpu_ops[].packages[].executables[].output_layers[].output_layout.linearized_tile_byte_offset[]",
    "executables[].type",
    "executables[].instruction_bitstreams[].field_offsets[].offset_bit",
    "instructions_16B",
};

class Comparison {
 public:
  void compare(const JsonValue& ref, const JsonValue& ours, const std::string& path, const std::string& shape) {
    using T = JsonValue::Type;
    if (ref.type == T::Object && ours.type == T::Object) {
      for (size_t i = 0; i < ref.keys.size(); ++i) {
        const std::string& key = ref.keys[i];
        if (const JsonValue* mine = ours.find(key)) {
          compare(ref.items[i], *mine, path + "." + key, shape.empty() ? key : shape + "." + key);
        } else {
          referenceOnly_.insert(shape.empty() ? key : shape + "." + key);
        }
      }
      return;
    }
    if (ref.type == T::Array && ours.type == T::Array) {
      if (ref.items.size() != ours.items.size()) {
        mismatch(path, "array of " + std::to_string(ref.items.size()) + " vs " + std::to_string(ours.items.size()));
        return;
      }
      for (size_t i = 0; i < ref.items.size(); ++i) {
        compare(ref.items[i], ours.items[i], path + "[" + std::to_string(i) + "]", shape + "[]");
      }
      if (ref.items.empty()) covered_.insert(shape + "[]");
      return;
    }
    ++leaves_;
    covered_.insert(shape);
    if (!sameLeaf(ref, ours)) mismatch(path, describe(ref) + " vs ours " + describe(ours));
  }

  size_t leaves() const { return leaves_; }
  size_t mismatches() const { return mismatches_; }
  const std::vector<std::string>& examples() const { return examples_; }
  const std::set<std::string>& covered() const { return covered_; }
  const std::set<std::string>& referenceOnly() const { return referenceOnly_; }

 private:
  static bool sameLeaf(const JsonValue& a, const JsonValue& b) {
    using T = JsonValue::Type;
    auto emptyish = [](const JsonValue& v) { return v.type == T::Null || (v.type == T::String && v.text.empty()); };
    if (emptyish(a) && emptyish(b)) return true;
    if (a.type == T::Number && b.type == T::String) {  // non-finite floats: Python NaN vs our "nan"
      return (a.text == "NaN" && b.text == "nan") || (a.text == "Infinity" && b.text == "inf") ||
             (a.text == "-Infinity" && b.text == "-inf");
    }
    if (a.type != b.type) return false;
    switch (a.type) {
      case T::Bool:
        return a.boolean == b.boolean;
      case T::String:
        return a.text == b.text;
      case T::Number:
        if (a.isInteger() && b.isInteger()) return a.text == b.text;
        return a.asDouble() == b.asDouble();
      default:
        return true;
    }
  }

  static std::string describe(const JsonValue& v) {
    switch (v.type) {
      case JsonValue::Type::Null:
        return "null";
      case JsonValue::Type::Bool:
        return v.boolean ? "true" : "false";
      case JsonValue::Type::String:
        return "\"" + v.text + "\"";
      case JsonValue::Type::Number:
        return v.text;
      case JsonValue::Type::Array:
        return "array";
      case JsonValue::Type::Object:
        return "object";
    }
    return "?";
  }

  void mismatch(const std::string& path, const std::string& what) {
    ++mismatches_;
    if (examples_.size() < 30) examples_.push_back(path + ": reference " + what);
  }

  size_t leaves_ = 0;
  size_t mismatches_ = 0;
  std::vector<std::string> examples_;
  std::set<std::string> covered_;
  std::set<std::string> referenceOnly_;
};

TEST(DriverCrossCheck, InspectJsonMatchesDarwinnDump) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  const auto tools = coralsim::testing::toolsDir();
  if (!tools || !std::filesystem::exists(*tools / "darwinn_dump.py") || !coralsim::testing::haveProgram("python3")) {
    GTEST_SKIP() << "\n*** SKIPPED: python3 or tools/darwinn_dump.py not found (set CORALSIM_TOOLS). This test "
                    "compares inspect --json with the reference tool. ***\n";
  }
  std::vector<std::filesystem::path> files;
  for (const char* suffix : {".tflite", ".coral", ".bin"}) {
    for (auto& f : coralsim::testing::corpusFiles(suffix)) files.push_back(f);
  }
  ASSERT_FALSE(files.empty());

  Comparison cmp;
  std::map<std::string, size_t> comparedByKind;
  size_t skipped = 0;
  // The reference tool is run once per batch of files (it prints one JSON line per file).
  constexpr size_t kBatch = 64;
  for (size_t start = 0; start < files.size(); start += kBatch) {
    std::vector<std::string> argv = {"python3", (*tools / "darwinn_dump.py").string(), "--json"};
    const size_t end = std::min(files.size(), start + kBatch);
    for (size_t i = start; i < end; ++i) argv.push_back(files[i].string());
    const auto out = coralsim::testing::runCommand(argv, 1);
    ASSERT_TRUE(out) << "darwinn_dump.py failed to run";
    std::istringstream lines(*out);
    for (size_t i = start; i < end; ++i) {
      std::string line;
      ASSERT_TRUE(std::getline(lines, line)) << "darwinn_dump.py printed no line for " << files[i];
      const JsonValue ref = coralsim::testing::parseJson(line);
      ASSERT_EQ(ref.find("file")->text, files[i].string());
      const std::string kind = ref.find("kind") ? ref.find("kind")->text : "";
      // The tool calls any file with a size divisible by 16 a raw bitstream; coralsim only treats
      // *.coral that way, and data files (images, firmware) are not models at all.
      if (kind == "unknown_binary" || (kind == "raw_bitstream" && files[i].extension() != ".coral")) {
        ++skipped;
        continue;
      }
      ASSERT_NE(kind, "error") << files[i] << ": the reference tool failed: " << line;
      std::ostringstream ours;
      try {
        writeModelJson(loadModelFile(files[i]), ours);
      } catch (const LoadError& e) {
        ADD_FAILURE() << "the reference tool reads it as " << kind << " but: " << e.what();
        continue;
      }
      cmp.compare(ref, coralsim::testing::parseJson(ours.str()), files[i].filename().string(), "");
      ++comparedByKind[kind];
    }
  }

  size_t compared = 0;
  for (const auto& [kind, n] : comparedByKind) {
    std::cout << "  " << kind << ": " << n << " files\n";
    compared += n;
  }
  std::cout << "compared " << compared << " files (" << skipped << " non-model files skipped), " << cmp.leaves()
            << " values, " << cmp.mismatches() << " mismatches\n";
  // Every concept the reference prints must have a counterpart under the same key.
  for (const auto& k : cmp.referenceOnly()) ADD_FAILURE() << "key only the reference tool prints: " << k;
  ::testing::Test::RecordProperty("files_compared", std::to_string(compared));
  ::testing::Test::RecordProperty("values_compared", std::to_string(cmp.leaves()));
  for (const auto& e : cmp.examples()) ADD_FAILURE() << e;
  EXPECT_EQ(cmp.mismatches(), 0u);
  for (const char* path : kRequiredPaths) {
    EXPECT_TRUE(cmp.covered().count(path)) << "never compared: " << path;
  }
}

}  // namespace
}  // namespace coralsim::driver::driver_crosscheck_test
