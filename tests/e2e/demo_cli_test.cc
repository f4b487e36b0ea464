// The README's main job as a new user runs it: `coralsim demo` (what scripts/demo.sh executes after
// building) classifies the corpus's cat.bmp on the emulated Coral, with the CPU twin found beside
// the compiled model, and checks the result against the hardware ground truth; without the corpus
// it still runs part 1 and says why part 2 is skipped. Also `coralsim run --hle auto` directly.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"
#include "tests/support/run_command.h"

namespace {

namespace fs = std::filesystem;
using coralsim::testing::JsonValue;

const std::string kCoralsim = std::string(CORALSIM_BINARY_DIR) + "/coralsim";

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

TEST(DemoCli, ClassifiesTheCatWithTheTwinFoundBesideTheModelAndPassesTheGroundTruth) {
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const auto printed = coralsim::testing::runCommand({"env", "CORALSIM_CORPUS=" + corpus->string(), kCoralsim, "demo"});
  ASSERT_TRUE(printed.has_value()) << "coralsim demo failed (exit status not 0)";
  const std::string& out = *printed;
  // The twin was found by the compiler's naming and every run computed on the hle rung.
  EXPECT_TRUE(contains(out, "hle twin (--hle auto): found ")) << out;
  EXPECT_TRUE(contains(out, "mobilenet_v1_0.25_128_quant.tflite beside the compiled model")) << out;
  EXPECT_TRUE(contains(out, "execution mode: hle")) << out;
  EXPECT_FALSE(contains(out, "NOT COMPUTED")) << out;
  // Top-5 with labels from the labels file beside the model, the rung, the latency, the check.
  EXPECT_TRUE(contains(out, "cat.bmp: top-5 of 1001 classes")) << out;
  EXPECT_TRUE(contains(out, "computed on the hle rung")) << out;
  EXPECT_TRUE(contains(out, "labels: imagenet_labels.txt")) << out;
  EXPECT_TRUE(contains(out, "  5. ")) << out;
  EXPECT_TRUE(contains(out, "predicted device latency per inference (timing model, parameters cached): ")) << out;
  EXPECT_TRUE(contains(out, "check against the hardware ground truth (cls_mnv1_025_128")) << out;
  EXPECT_TRUE(contains(out, "(tiger cat) in the top 3")) << out;
  EXPECT_TRUE(contains(out, "-> PASS\n")) << out;
  EXPECT_FALSE(contains(out, "-> FAIL")) << out;
  EXPECT_TRUE(contains(out, "demo: all checks passed")) << out;
}

TEST(DemoCli, WithoutTheCorpusPartOneRunsAndPartTwoSaysItIsSkipped) {
  const auto printed = coralsim::testing::runCommand(
      {"env", "CORALSIM_CORPUS=/nonexistent/coralsim-corpus", kCoralsim, "demo"});
  ASSERT_TRUE(printed.has_value()) << "coralsim demo failed without the corpus";
  EXPECT_TRUE(contains(*printed, "== 2. skipped: no corpus found")) << *printed;
  EXPECT_TRUE(contains(*printed, "demo: all checks passed")) << *printed;
}

TEST(HleAutoCli, RegistersTheTwinBesideTheModelOrSaysThereIsNone) {
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const fs::path dir = *corpus / "google-coral+test_data";
  const auto printed = coralsim::testing::runCommand(
      {kCoralsim, "run", (dir / "mobilenet_v1_0.25_128_quant_edgetpu.tflite").string(), "--hle", "auto", "--random", "1", "--json"});
  ASSERT_TRUE(printed.has_value());
  const JsonValue json = coralsim::testing::parseJson(*printed);
  ASSERT_NE(json.find("hle_auto"), nullptr) << *printed;
  EXPECT_EQ(json.find("hle_auto")->text,
            "found " + (dir / "mobilenet_v1_0.25_128_quant.tflite").string() + " beside the compiled model");
  ASSERT_NE(json.find("hle_twins"), nullptr) << *printed;
  EXPECT_EQ(json.find("hle_twins")->items.at(0).find("registered_by")->text, "--hle auto");
  // The twin computes the execution run; the parameter-caching run moves no output, and since
  // docs/decoding-log.md "rows" the lle rung caches this model's parameters (part-row pops included).
  for (const JsonValue& run : json.find("runs")->items) {
    EXPECT_TRUE(run.find("completed")->boolean) << run.find("type")->text;
    EXPECT_EQ(run.find("rung")->text, run.find("type")->text == "PARAMETER_CACHING" ? "lle" : "hle") << run.find("type")->text;
  }
  EXPECT_TRUE(json.find("outputs")->items.at(0).find("computed")->boolean);

  // A compiled model with no X.tflite beside it: said so, and the run goes on uncomputed.
  const fs::path lonely =
      *corpus / "google-coral+edgetpu/test_data/posenet/posenet_mobilenet_v1_075_481_641_quant_decoder_edgetpu.tflite";
  if (fs::exists(lonely.parent_path() / "posenet_mobilenet_v1_075_481_641_quant_decoder.tflite")) {
    GTEST_SKIP() << "the corpus now has a twin beside " << lonely;
  }
  const auto none = coralsim::testing::runCommand({kCoralsim, "run", lonely.string(), "--hle", "auto", "--json"});
  ASSERT_TRUE(none.has_value());
  const JsonValue noneJson = coralsim::testing::parseJson(*none);
  ASSERT_NE(noneJson.find("hle_auto"), nullptr) << *none;
  EXPECT_TRUE(noneJson.find("hle_auto")->text.starts_with("none: ")) << *none;
  EXPECT_TRUE(contains(noneJson.find("hle_auto")->text, "does not exist")) << *none;
  EXPECT_EQ(noneJson.find("hle_twins"), nullptr);
  EXPECT_FALSE(noneJson.find("outputs")->items.at(0).find("computed")->boolean);
  // serve has no model to look beside: a usage error.
  EXPECT_TRUE(coralsim::testing::runCommand({kCoralsim, "serve", "--hle", "auto"}, 2).has_value());
}

}  // namespace
