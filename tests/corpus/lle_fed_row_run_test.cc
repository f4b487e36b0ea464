// The programs whose weight-feed sends read a wide row other than 0 (docs/decoding-log.md "split2"): a
// convolution whose weights no tile holds at wide address 0 waits for its weight-feed send and takes the rows
// that send reads (its tile, Dma10Channel). Every golden model whose execution-only program holds such a send
// (a 0x10 with Dma10ToOutfeed and Dma10WeightFeed, Dma10Channel not 0) runs through the driver strictly on lle
// with each golden case's input; one that runs fully has its whole output tensors, exact size, compared with
// the golden custom-op outputs. Found by structure, no model named. The floor: one such program runs fully
// and every compared byte is exact (split_concat, 5 outputs, 384 bytes a case); the MobileNet / PoseNet /
// deeplab programs that also hold the form stop earlier, where printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/lle_run_on_device.h"
#include "tests/support/corpus.h"
#include "tests/support/golden_output.h"
#include "tests/support/json_reader.h"

namespace coralsim::driver {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::JsonValue;

std::string text(const JsonValue* v) { return v ? v->text : std::string(); }

JsonValue readManifest(const fs::path& dir) {
  std::ifstream f(dir / "manifest.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return coralsim::testing::parseJson(ss.str());
}

bool holdsAWeightFeedOfANonZeroRow(const ModelFile& model) {
  using lle::LleField;
  for (const Executable* e : allExecutables(model)) {
    if (e->type != ExecutableType::ExecutionOnly) continue;
    for (const auto& bitstream : e->bitstreams) {
      const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);  // held: packets() views it
      for (const models::DecodedPacket& p : program->packets()) {
        if (static_cast<uint8_t>(p.opcode) == 0x10 && lle::readField(p.words, LleField::Dma10ToOutfeed) != 0 &&
            lle::readField(p.words, LleField::Dma10WeightFeed) != 0 && lle::readField(p.words, LleField::Dma10Channel) != 0) {
          return true;
        }
      }
    }
  }
  return false;
}

TEST(LleCorpus, TheProgramsWhoseWeightFeedsReadANonZeroRowRunOnLleAndMatchTheGoldenWhole) {
  const auto golden = coralsim::testing::goldenDir();
  if (!golden) GTEST_SKIP() << "\n*** SKIPPED: golden data not found (set CORALSIM_GOLDEN). ***\n";
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  size_t programs = 0, fully = 0;
  for (const auto& entry : fs::directory_iterator(*golden)) {
    if (!entry.is_directory() || !fs::exists(entry.path() / "manifest.json")) continue;
    const JsonValue manifest = readManifest(entry.path());
    const fs::path compiledPath = *corpus / text(manifest.find("compiled")->find("path"));
    if (!fs::exists(compiledPath)) continue;
    const ModelFile model = loadModelFile(compiledPath);
    if (!holdsAWeightFeedOfANonZeroRow(model)) continue;
    ++programs;
    const RunPlan plan = planRun(model);
    bool ranFully = true;
    size_t cases = 0, bytes = 0;
    for (const JsonValue& c : manifest.find("cases")->items) {
      std::vector<std::vector<uint8_t>> inputs;
      for (const JsonValue& in : c.find("tpu_inputs")->items) inputs.push_back(coralsim::testing::readFile(entry.path() / text(in.find("file"))));
      const RunResult r = coralsim::testing::runOnLle(plan, inputs);
      if (!r.ok()) {
        const size_t at = r.error->find("not modelled");
        std::printf("  %s stops on lle: %s\n", compiledPath.filename().string().c_str(), r.error->substr(at == std::string::npos ? 0 : at).c_str());
        ranFully = false;
        break;
      }
      const auto& outs = c.find("tpu_outputs")->items;
      ASSERT_EQ(r.outputs.size(), outs.size()) << compiledPath;
      for (size_t j = 0; j < outs.size(); ++j) {
        const std::vector<uint8_t> want = coralsim::testing::readPreferredGoldenOutput(entry.path(), outs[j]);
        ASSERT_EQ(r.outputs[j].bytes.size(), want.size()) << compiledPath << " output " << j;
        EXPECT_EQ(r.outputs[j].bytes, want) << compiledPath << " golden case " << text(c.find("id")) << " output " << j;
        bytes += want.size();
      }
      ++cases;
    }
    if (ranFully) {
      ++fully;
      std::printf("  %s runs fully on lle: %zu golden case(s), %zu bytes compared whole\n", compiledPath.filename().string().c_str(), cases,
                  bytes);
    }
  }
  std::printf("programs with a weight feed of a non-zero row and golden data: %zu; fully on lle: %zu\n", programs, fully);
  ASSERT_GT(programs, 0u) << "no program with a weight feed of a non-zero row has golden data: the corpus or golden set lost them";
  EXPECT_GE(fully, 1u) << "fewer programs with a weight feed of a non-zero row run fully on lle than docs/decoding-log.md \"split2\" "
                          "reports (split_concat)";
}

}  // namespace
}  // namespace coralsim::driver
