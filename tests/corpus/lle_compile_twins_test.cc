// Two compiles of one program (docs/decoding-log.md "dense2" §B, §C): every raw edgetpuxray program
// X_aarch64.coral whose x86-64 twin X.coral is beside it is run on the lle rung with the same inputs
// as its twin, and both must run fully and return the same bytes. The aarch64 compiles differ from
// their twins in flag bits (pinned by the envelope to the values of the decode program,
// div2_8_aarch64) and in structure: the element-wise compute counts its positions at level 2 of its
// nests, and the host-bound send comes before its outfeed. Any other aarch64 compile (div2_10_aarch64
// is one) is held out: it reaches the rung on decoded fields only. Which bytes are right is not
// asked here (edgetpuxray_expected.json, lle_edgetpuxray_test.cc); that the two compiles agree is.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "hosting/in_process_transport.h"
#include "sim/device.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_compile_twins_test {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kCompileSuffix = "_aarch64";

// The outputs of `path` on the lle rung for each input, or the rung's refusal.
struct LleOutputs {
  std::vector<std::vector<uint8_t>> outputs;
  std::string error;
};

// Each element of `runs` is one run's inputs (a raw program's input and parameter streams).
LleOutputs runOnLle(const fs::path& path, const std::vector<std::vector<std::vector<uint8_t>>>& runs) {
  const ModelFile model = loadModelFile(path);
  const RunPlan plan = planRun(model);
  sim::DeviceOptions options;
  options.chip.mode = models::ExecutionMode::kLle;
  sim::Device device(options);
  InProcessTransport transport(device);
  Runner runner(transport, RunnerOptions{});
  runner.open();
  LleOutputs result;
  for (const auto& inputs : runs) {
    const RunResult r = runner.run(plan, inputs);
    if (!r.ok()) {
      result.error = *r.error;
      break;
    }
    if (r.outputs.size() != 1) {
      result.error = "expected one output, got " + std::to_string(r.outputs.size());
      break;
    }
    result.outputs.push_back(r.outputs[0].bytes);
  }
  runner.close();
  return result;
}

TEST(LleCompileTwins, AnAarch64CompileReturnsTheBytesOfItsX8664Twin) {
  const auto corpus = coralsim::testing::corpusDir();
  const fs::path dir = corpus ? *corpus / "geohot+edgetpuxray" / "programs" : fs::path();
  if (!corpus || !fs::is_directory(dir)) {
    GTEST_SKIP() << "\n*** SKIPPED: the edgetpuxray programs not found (set CORALSIM_CORPUS). ***\n";
  }
  size_t pairs = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string stem = entry.path().stem().string();
    if (entry.path().extension() != ".coral" || !stem.ends_with(kCompileSuffix)) continue;
    const fs::path twin = dir / (stem.substr(0, stem.size() - kCompileSuffix.size()) + ".coral");
    if (!fs::exists(twin)) continue;
    ++pairs;
    // Random input streams (`coralsim run --random SEED`'s bytes; the program reads what it needs).
    const RunPlan plan = planRun(loadModelFile(twin));
    std::vector<std::vector<std::vector<uint8_t>>> inputs;
    for (uint64_t seed = 1; seed <= 4; ++seed) inputs.push_back(randomInputs(plan, seed));
    const LleOutputs x86 = runOnLle(twin, inputs);
    const LleOutputs aarch64 = runOnLle(entry.path(), inputs);
    EXPECT_EQ(x86.error, "") << twin;
    EXPECT_EQ(aarch64.error, "") << entry.path();
    EXPECT_EQ(aarch64.outputs, x86.outputs) << entry.path() << " against " << twin;
    std::printf("%-24s %s on lle, %zu inputs, outputs %s its twin %s\n", entry.path().filename().string().c_str(),
                aarch64.error.empty() ? "runs fully" : "stops", inputs.size(),
                aarch64.outputs == x86.outputs ? "equal to" : "differ from", twin.filename().string().c_str());
  }
  EXPECT_GT(pairs, 0u) << "no X_aarch64.coral beside an X.coral in " << dir;
}

}  // namespace
}  // namespace coralsim::driver::lle_compile_twins_test
