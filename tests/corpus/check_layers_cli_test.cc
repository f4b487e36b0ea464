// `coralsim check-layers` as a user calls it: on a compiled model the lle rung runs fully, exit 0
// and one JSON object saying no layer differs; on a copy of it whose parameter stream has one weight
// byte flipped (beside a copy of its twin), exit 1 and the first differing layer named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "sim/hle_host/twin_discovery.h"
#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"
#include "tests/support/run_command.h"

namespace coralsim::testing {
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
    // Only the Dense compute reports its lanes to the layer checker (models/lle/compute_observer.h); a
    // program whose convolutions run fully but report nothing (the iwatake stride sweep since
    // docs/decoding-log.md "scalar27") cannot name a differing layer: said, not checked here.
    if (const JsonValue* observed = json.find("lle_compute_packets"); observed != nullptr && observed->asDouble() == 0) {
      std::printf("%s: runs fully on lle, but no compute packet reached the layer checker: flipped weight not checked\n",
                  path.filename().string().c_str());
      continue;
    }

    // The executable with parameters, found in the file by its bytes; one byte of the first
    // block's weights (after the 512-byte scale and slot prefix, docs/isa.md §5.1) flipped.
    const driver::ModelFile model = driver::loadModelFile(path);
    const driver::Executable* withParameters = nullptr;
    for (const driver::Executable* e : driver::allExecutables(model)) {
      if (!e->parameters.empty() && !withParameters) withParameters = e;
    }
    // A program without parameters (the iwatake padding sweep, which runs fully on lle since
    // docs/decoding-log.md "pad13") has no weight to flip; its bytes are checked against golden by corpus_lle.
    if (withParameters == nullptr) continue;
    std::vector<uint8_t> bytes = readFile(path);
    const std::vector<uint8_t>& p = withParameters->parameters;
    const auto at = std::search(bytes.begin(), bytes.end(), p.begin(), p.end());
    ASSERT_NE(at, bytes.end()) << path << ": parameters not found in the file";
    const auto offset = static_cast<size_t>(at - bytes.begin()) + 512 + 4 * 9;  // lane 9, input byte 0
    bytes.at(offset) ^= 0x80;
    const fs::path dir = fs::temp_directory_path() / "coralsim_check_layers_cli_test";
    fs::create_directories(dir);
    writeFile(dir / "flipped_edgetpu.tflite", bytes);
    fs::copy_file(twin.candidate, dir / "flipped.tflite", fs::copy_options::overwrite_existing);
    // All-255 inputs (far from any zero point) keep the flipped weight's effect out of the clamps.
    std::vector<std::string> argv = {kCoralsim, "check-layers", (dir / "flipped_edgetpu.tflite").string(), "--json"};
    const driver::RunPlan plan = driver::planRun(model);
    for (size_t i = 0; i < plan.inputs.size(); ++i) {
      const fs::path input = dir / ("input" + std::to_string(i) + ".bin");
      writeFile(input, std::vector<uint8_t>(plan.inputs[i].sizeBytes, 255));
      argv.insert(argv.end(), {"--input", input.string()});
    }
    EXPECT_FALSE(runCommand(argv)) << path << ": exit 0 with a flipped weight";
    const auto flipped = runCommand(argv, 1);
    ASSERT_TRUE(flipped) << path << ": not exit 1";
    const JsonValue report = parseJson(*flipped);
    EXPECT_TRUE(report.find("mismatch")->boolean) << path;
    EXPECT_EQ(report.find("first_differing_layer")->type, JsonValue::Type::Number) << path;
    fs::remove_all(dir);
    ++checked;
  }
  EXPECT_GE(checked, 1u);
}

}  // namespace
}  // namespace coralsim::testing
