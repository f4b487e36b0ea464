// `coralsim check-layers` as a user calls it: on a compiled model the lle rung runs fully, exit 0
// and one JSON object saying no layer differs; on a copy of it whose parameter stream has one byte
// flipped that changes the lle output (beside a copy of its twin), exit 1 and the first differing layer
// named — for every compute form that runs whole programs (Dense, the one-step and 8-lane convolutions).
#include <unistd.h>  // getpid: temp names unique per process (worktrees and build trees run the same tests)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "sim/hle_host/twin_discovery.h"
#include "tests/corpus/parameter_flip.h"
#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"
#include "tests/support/run_command.h"

namespace coralsim::testing::check_layers_cli_test {
namespace {

namespace fs = std::filesystem;

const std::string kCoralsim = std::string(CORALSIM_BINARY_DIR) + "/coralsim";

void writeFile(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.flush()) << path;
}

TEST(CheckLayersCli, ExitsZeroWhenTheLayersMatchAndOneOnAFlippedWeight) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  size_t checked = 0;
  for (const fs::path& path : corpusFiles("_edgetpu.tflite")) {
    const sim::TwinSearch twin = sim::findTwinBeside(path);
    if (!twin.found) continue;
    const auto clean = runCommand({kCoralsim, "check-layers", path.string(), "--json"});
    if (!clean) continue;  // exit 1: the twin or the mapping run failed (corpus_layer_check reports those)
    const JsonValue json = parseJson(*clean);
    ASSERT_EQ(json.type, JsonValue::Type::Object) << path;
    for (const char* key : {"model", "twin", "lle_completed", "stop", "refusal", "mismatch", "layers"}) {
      EXPECT_NE(json.find(key), nullptr) << key;
    }
    EXPECT_FALSE(json.find("mismatch")->boolean) << path;
    if (!json.find("lle_completed")->boolean) continue;
    // Every compute form reports what it wrote (models/lle/compute_observer.h); a program whose layers
    // have no packet (the iwatake padding sweep: identity copies into a PAD's output, no MACs) has no
    // layer to name and no weight to flip; its bytes are checked against golden by corpus_lle.
    const auto& layers = json.find("layers")->items;
    if (std::ranges::all_of(layers, [](const JsonValue& l) { return l.find("packets")->items.empty(); })) continue;
    // A program none of whose layers the map places or compares (model_mat_Add: its two-byte ADDs write a lane
    // layout the layer map does not place, docs/decoding-log.md "twobyte"; their bytes are checked against the
    // twin's ADD tensors by corpus_lle_two_byte) has no layer a flipped weight could show in: said, not counted.
    if (std::ranges::none_of(layers, [](const JsonValue& l) {
          const std::string& verdict = l.find("verdict")->text;
          return verdict == "matched" || verdict == "within tolerance";
        })) {
      std::printf("%s: lle ran fully but the layer map compares none of its layers; not checked here\n", path.filename().string().c_str());
      continue;
    }

    // A copy of the program with one parameter byte flipped: the first whose flip changes the lle
    // output on the all-255 inputs below (parameter_flip.h: found by running it, no parameter layout).
    driver::ModelFile model = driver::loadModelFile(path);
    const driver::RunPlan plan = driver::planRun(model);
    std::vector<std::vector<uint8_t>> inputs;
    for (const auto& input : plan.inputs) inputs.emplace_back(input.sizeBytes, 255);
    const std::vector<uint8_t> parameters = [&] {
      for (const driver::Executable* e : driver::allExecutables(model)) {
        if (!e->parameters.empty()) return e->parameters;
      }
      return std::vector<uint8_t>{};
    }();
    ASSERT_FALSE(parameters.empty()) << path << ": layers with packets but no parameters";
    // The search runs lle once a byte tried: bounded, so a program whose output no early parameter byte moves (model_dense:
    // its zero biases and ReLUs leave every output 0 whatever one early weight is, docs/decoding-log.md "dense45") is said
    // and not counted instead of being run once per parameter byte. The programs counted below find theirs at bytes 0-2.
    constexpr size_t kFlipTries = 64;
    const std::optional<ParameterFlip> flip = flipFirstOutputChangingParameter(model, inputs, 0, kFlipTries);
    if (!flip) {
      std::printf("%s: no parameter byte among the first %zu changes lle's output on all-255 inputs; not checked here\n",
                  path.filename().string().c_str(), kFlipTries);
      continue;
    }
    std::vector<uint8_t> bytes = readFile(path);
    const auto at = std::search(bytes.begin(), bytes.end(), parameters.begin(), parameters.end());
    ASSERT_NE(at, bytes.end()) << path << ": parameters not found in the file";
    bytes.at(static_cast<size_t>(at - bytes.begin()) + flip->offset) ^= 0x80;
    const fs::path dir = fs::temp_directory_path() / ("coralsim_check_layers_cli_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    writeFile(dir / "flipped_edgetpu.tflite", bytes);
    fs::copy_file(twin.candidate, dir / "flipped.tflite", fs::copy_options::overwrite_existing);
    // The inputs the flip was chosen on.
    std::vector<std::string> argv = {kCoralsim, "check-layers", (dir / "flipped_edgetpu.tflite").string(), "--json"};
    for (size_t i = 0; i < inputs.size(); ++i) {
      const fs::path input = dir / ("input" + std::to_string(i) + ".bin");
      writeFile(input, inputs[i]);
      argv.insert(argv.end(), {"--input", input.string()});
    }
    EXPECT_FALSE(runCommand(argv)) << path << ": exit 0 with a flipped weight";
    const auto flipped = runCommand(argv, 1);
    ASSERT_TRUE(flipped) << path << ": not exit 1";
    const JsonValue report = parseJson(*flipped);
    EXPECT_TRUE(report.find("mismatch")->boolean) << path;
    EXPECT_EQ(report.find("first_differing_layer")->type, JsonValue::Type::Number) << path;
    std::printf("%s: parameter byte %zu flipped, first differing layer %.0f\n", path.filename().string().c_str(), flip->offset,
                report.find("first_differing_layer")->asDouble());
    fs::remove_all(dir);
    ++checked;
  }
  // Measured ("layercheck"): the two Dense templates, the 11 stride / padding_stride programs, gabor 64² / 128² 7k.
  EXPECT_GE(checked, 15u);
}

}  // namespace
}  // namespace coralsim::testing::check_layers_cli_test
