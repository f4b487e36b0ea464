// The lle rung against outputs recorded on real Edge TPU hardware (../shared/corpus/ground_truth,
// GROUND_TRUTH_public.json, entries of kind "bit-exact output (golden)"): the program runs through the
// driver strictly on lle with the recorded input (the entry's input file, its first N bytes), and its
// whole output tensor, exact size, must equal the recorded device output. The recorded file is read as
// the entry's "expect" text describes it: a 28-byte header (int32 ndims, int32 dims[4], a 64-bit byte
// count) and then the bytes. Nothing here names a program: every such entry whose model is in the
// corpus is run; one that stops on lle prints where, and at least one must run (today the rubensrech
// 40 x 40 box convolution at 500^2: docs/decoding-log.md "loop27", "rowrest").
// Entries of kind "raw-output hash" record an FNV-1a 64 of the raw output stream (the device's byte order
// and encoding) for an input stream of bytes[i] = i % M: the second test feeds that stream and hashes
// what the device sent (today RingCanary's 12 x 176 x 32 convolution: docs/decoding-log.md "w12c" §B).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/run/output_layout.h"
#include "driver/run/run_plan.h"
#include "driver/run/tensor_encoding.h"
#include "models/hle/program_registry.h"
#include "tests/corpus/lle_run_on_device.h"
#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"

namespace coralsim::driver::lle_hardware_output_test {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::JsonValue;

std::string text(const JsonValue* v) { return v ? v->text : std::string(); }

// "a/b/c.bin (first 250000 bytes)" -> ("a/b/c.bin", 250000); no count: the whole file (0).
std::pair<std::string, uint64_t> inputOf(const std::string& spec) {
  static const std::regex kFirst(R"(^(\S+) \(first (\d+) bytes\)$)");
  std::smatch m;
  if (std::regex_match(spec, m, kFirst)) return {m[1].str(), std::stoull(m[2].str())};
  return {spec, 0};
}

// "output tensor == elementary-ops/golden/x.out (28-B header: ...)" -> "elementary-ops/golden/x.out".
std::string expectedFileOf(const std::string& expect) {
  static const std::regex kFile(R"(== (\S+))");
  std::smatch m;
  return std::regex_search(expect, m, kFile) ? m[1].str() : std::string();
}

// The recorded output: the bytes after the 28-byte header, whose byte count they must match.
std::vector<uint8_t> recordedOutput(const fs::path& file, std::string& problem) {
  const std::vector<uint8_t> raw = coralsim::testing::readFile(file);
  constexpr size_t kHeader = 4 + 4 * 4 + 8;
  if (raw.size() < kHeader) {
    problem = "shorter than its 28-byte header";
    return {};
  }
  uint64_t bytes = 0;
  std::memcpy(&bytes, raw.data() + 20, sizeof bytes);
  if (bytes != raw.size() - kHeader) {
    problem = "header says " + std::to_string(bytes) + " bytes, the file holds " + std::to_string(raw.size() - kHeader);
    return {};
  }
  return {raw.begin() + kHeader, raw.end()};
}

// The corpus's record of what real hardware did (ground_truth/).
fs::path groundTruthFile(const fs::path& corpus) { return corpus / "ground_truth" / "GROUND_TRUTH_public.json"; }
using coralsim::testing::readJsonFile;

TEST(LleHardwareOutput, ProgramsWithARecordedDeviceOutputRunOnLleToThoseBytes) {
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const fs::path truthFile = groundTruthFile(*corpus);
  ASSERT_TRUE(fs::exists(truthFile)) << truthFile;
  const JsonValue truth = readJsonFile(truthFile);
  size_t entries = 0, ranFully = 0;
  for (const JsonValue& e : truth.items) {
    if (text(e.find("kind")) != "bit-exact output (golden)") continue;
    const JsonValue* models = e.find("models_present");
    const JsonValue* inputs = e.find("inputs");
    if (!models || models->items.size() != 1 || !inputs || inputs->items.size() != 1) continue;
    const std::string modelRel = models->items[0].text;
    const fs::path modelPath = *corpus / modelRel;
    if (!fs::exists(modelPath)) continue;
    ++entries;
    const std::string id = text(e.find("id"));
    // The expected file is named relative to the model's repository folder (the path's first part).
    const std::string repository = modelRel.substr(0, modelRel.find('/'));
    const fs::path expectedPath = *corpus / repository / expectedFileOf(text(e.find("expect")));
    const auto [inputRel, inputBytes] = inputOf(inputs->items[0].text);
    ASSERT_TRUE(fs::exists(expectedPath)) << id << ": " << expectedPath;
    ASSERT_TRUE(fs::exists(*corpus / inputRel)) << id << ": " << inputRel;
    std::string problem;
    const std::vector<uint8_t> expected = recordedOutput(expectedPath, problem);
    ASSERT_TRUE(problem.empty()) << id << ": " << expectedPath << " " << problem;
    std::vector<uint8_t> input = coralsim::testing::readFile(*corpus / inputRel);
    if (inputBytes != 0) {
      ASSERT_GE(input.size(), inputBytes) << id;
      input.resize(inputBytes);
    }
    const ModelFile model = loadModelFile(modelPath);  // the plan refers into it
    const RunPlan plan = planRun(model);
    const RunResult result = coralsim::testing::runOnLle(plan, {input});
    if (!result.ok()) {
      std::printf("  %-45s stops on lle: %s\n", id.c_str(), result.error->substr(0, 160).c_str());
      continue;
    }
    ++ranFully;
    ASSERT_EQ(result.outputs.size(), 1u) << id;
    const std::vector<uint8_t>& ours = result.outputs[0].bytes;
    ASSERT_EQ(ours.size(), expected.size()) << id << ": the output tensor's size";
    size_t differing = 0, first = ours.size();
    for (size_t i = 0; i < ours.size(); ++i) {
      if (ours[i] != expected[i]) {
        if (differing++ == 0) first = i;
      }
    }
    std::printf("  %-45s %zu / %zu bytes equal to the device's recorded output\n", id.c_str(), ours.size() - differing,
                ours.size());
    EXPECT_EQ(differing, 0u) << id << ": first differing byte " << first;
  }
  std::printf("hardware-recorded outputs: %zu entries with their model in the corpus, %zu run fully on lle\n", entries, ranFully);
  ASSERT_GT(entries, 0u) << "no bit-exact hardware output entry found in " << truthFile;
  EXPECT_GE(ranFully, 1u) << "the box convolution 500^2 ran fully on lle when this test was written";
}

// "input bytes[i] = i % 251 (...) -> FNV-1a-64 of raw output stream = 0x00435b5db3e2d027" -> (251, hash);
// nullopt when the text is not of that form.
std::optional<std::pair<unsigned, uint64_t>> rawHashExpectation(const std::string& expect) {
  static const std::regex kForm(R"(input bytes\[i\] = i % (\d+).*FNV-1a-64 of raw output stream = 0x([0-9a-fA-F]+))");
  std::smatch m;
  if (!std::regex_search(expect, m, kForm)) return std::nullopt;
  return std::make_pair(static_cast<unsigned>(std::stoul(m[1].str())), std::stoull(m[2].str(), nullptr, 16));
}

// The bytes the device sent for `output` of `layer`: the driver's TFLite-order tensor put back in the
// device's order and encoding (the inverse of what the driver did to it).
std::optional<std::vector<uint8_t>> deviceStream(const OutputTensor& output, const Layer& layer) {
  std::vector<uint8_t> bytes = output.bytes;
  if (output.signFlipped) flipSignBits(bytes);
  if (!output.relaidOut) return bytes;
  return tfliteToDeviceOrder(layer, bytes);
}

TEST(LleHardwareOutput, ProgramsWithARecordedRawOutputHashRunOnLleToThatHash) {
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const fs::path truthFile = groundTruthFile(*corpus);
  ASSERT_TRUE(fs::exists(truthFile)) << truthFile;
  const JsonValue truth = readJsonFile(truthFile);
  size_t entries = 0, ranFully = 0;
  for (const JsonValue& e : truth.items) {
    if (text(e.find("kind")) != "raw-output hash") continue;
    const JsonValue* models = e.find("models_present");
    if (!models || models->items.size() != 1) continue;
    const fs::path modelPath = *corpus / models->items[0].text;
    if (!fs::exists(modelPath)) continue;
    const std::string id = text(e.find("id"));
    const auto expectation = rawHashExpectation(text(e.find("expect")));
    ASSERT_TRUE(expectation) << id << ": an expectation of a form this test does not read: " << text(e.find("expect"));
    ++entries;
    const ModelFile model = loadModelFile(modelPath);  // the plan refers into it
    const RunPlan plan = planRun(model);
    ASSERT_EQ(plan.inputs.size(), 1u) << id;
    ASSERT_EQ(plan.outputs.size(), 1u) << id;
    // The recorded stream is the device's bytes; the driver takes the TFLite encoding and flips int8 itself.
    std::vector<uint8_t> input(plan.inputs[0].sizeBytes);
    for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i % expectation->first);
    if (plan.inputs[0].flipsSign) flipSignBits(input);
    const RunResult result = coralsim::testing::runOnLle(plan, {input});
    if (!result.ok()) {
      std::printf("  %-45s stops on lle: %s\n", id.c_str(), result.error->substr(0, 160).c_str());
      continue;
    }
    ++ranFully;
    ASSERT_EQ(result.outputs.size(), 1u) << id;
    const Layer* layer = nullptr;
    for (const PlanUnit& unit : plan.units) {
      for (const PlannedExecutable& program : unit.programs) {
        for (const Layer& l : program.executable->outputLayers) {
          if (l.name == result.outputs[0].name) layer = &l;
        }
      }
    }
    ASSERT_NE(layer, nullptr) << id << ": no output layer named " << result.outputs[0].name;
    const auto stream = deviceStream(result.outputs[0], *layer);
    ASSERT_TRUE(stream) << id << ": the output layout cannot be followed back";
    ASSERT_EQ(stream->size(), static_cast<size_t>(layer->sizeBytes)) << id << ": the raw output stream's size";
    const uint64_t hash = hle::rawChunkHash(*stream);
    std::printf("  %-45s FNV-1a 64 of the raw output stream 0x%016llx, the device's 0x%016llx\n", id.c_str(),
                static_cast<unsigned long long>(hash), static_cast<unsigned long long>(expectation->second));
    EXPECT_EQ(hash, expectation->second) << id;
  }
  std::printf("hardware-recorded output hashes: %zu entries with their model in the corpus, %zu run fully on lle\n", entries,
              ranFully);
  ASSERT_GT(entries, 0u) << "no raw-output hash entry found in " << truthFile;
  EXPECT_GE(ranFully, 1u) << "RingCanary's 12 x 176 x 32 convolution ran fully on lle when this test was written";
}

}  // namespace
}  // namespace coralsim::driver::lle_hardware_output_test
