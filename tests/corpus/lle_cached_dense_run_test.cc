// The bias-prefix Dense form (ComputeParamPrefix 1, docs/decoding-log.md "loomdense", decoded on looming alone) held out on
// a raw program whose weights another raw program caches ("loomout"): edgetpuxray's dense_1_8_mul pops only its input and
// reads tile 0's wide rows 0 (the bias row) and 1 (its one K group, 8 lanes, ComputeZpWeight 128); weight_copy_in_0x80
// pops a 128-byte parameter stream to tile 0 and receives a prefix row at wide row 0 and one row at row 1. Run on one
// device (wide memory persists between runs, as between a caching and an execution-only executable), the copy with a
// parameter stream we choose (non-zero biases of both signs, weights around the zero point), then dense_1_8_mul on a few
// inputs: it must run fully, its output exactly 8 bytes, lane c = the reading's sum (bias[c] at stream bytes 4c..4c+3,
// little-endian; lane c's weight for input byte i at stream byte 64 + 4c + i, less ComputeZpWeight) requantised with the
// packet's multiplier, clamps and output zero point. The stream is ours, so this checks the chain (receive rows, the
// prefix-1 layout at a non-zero weight zero point and bias, requantisation, the outfeed), not the device's bytes: no
// outside truth exists for this program (edgetpuxray_expected.json: "not derivable").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "hosting/in_process_transport.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "sim/device.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_cached_dense_run_test {
namespace {

namespace fs = std::filesystem;
using lle::LleField;

constexpr size_t kLanes = 8, kGroupBytes = 4, kStreamBytes = 128, kRowBytes = 64;

// The raw program's first compute packet's words (its epilogue constants).
std::optional<std::vector<isa::Word128>> computeWords(const ModelFile& model) {
  if (!model.rawBitstream) return std::nullopt;
  const auto program = models::DecodedProgram::fromBytes(model.rawBitstream->bytes);
  for (const models::DecodedPacket& p : program->packets()) {
    if (static_cast<uint8_t>(p.opcode) == 0x01) return std::vector<isa::Word128>(p.words.begin(), p.words.end());
  }
  return std::nullopt;
}

TEST(LleCachedDense, DenseOneByEightRunsOnTheRowsWeightCopyCachesAndFollowsTheBiasPrefixReading) {
  const auto corpus = coralsim::testing::corpusDir();
  const fs::path dir = corpus ? *corpus / "geohot+edgetpuxray" / "programs" : fs::path();
  const fs::path copyPath = dir / "weight_copy_in_0x80.coral", densePath = dir / "dense_1_8_mul.coral";
  if (!corpus || !fs::exists(copyPath) || !fs::exists(densePath)) {
    GTEST_SKIP() << "\n*** SKIPPED: edgetpuxray's weight_copy_in_0x80 / dense_1_8_mul are not in the corpus (" << dir << "). ***\n";
  }
  const ModelFile copyModel = loadModelFile(copyPath), denseModel = loadModelFile(densePath);  // the plans refer into them
  const RunPlan copyPlan = planRun(copyModel), densePlan = planRun(denseModel);
  const auto words = computeWords(denseModel);
  ASSERT_TRUE(words.has_value()) << "dense_1_8_mul has no compute";
  ASSERT_EQ(lle::readField(*words, LleField::ComputeParamPrefix), 1u) << "not the bias-prefix Dense form";
  const float mult = lle::readF32(*words, LleField::ComputeMult);
  const float clampLo = lle::readF32(*words, LleField::ComputeClampLo), clampHi = lle::readF32(*words, LleField::ComputeClampHi);
  const auto zpOut = static_cast<int32_t>(lle::readField(*words, LleField::ComputeZpOut));
  const auto zpWeight = static_cast<int32_t>(lle::readField(*words, LleField::ComputeZpWeight));

  // The stream: row 0 the lanes' int32 biases (of both signs), row 1 lane c's four weights at 4c.
  std::vector<uint8_t> stream(kStreamBytes, 0);
  std::vector<int32_t> bias(kLanes);
  for (size_t c = 0; c < kLanes; ++c) {
    bias[c] = (static_cast<int32_t>(c) - 3) * 150;
    for (size_t b = 0; b < 4; ++b) stream[4 * c + b] = static_cast<uint8_t>(static_cast<uint32_t>(bias[c]) >> (8 * b));
    for (size_t i = 0; i < kGroupBytes; ++i) stream[kRowBytes + 4 * c + i] = static_cast<uint8_t>(zpWeight - 40 + 11 * c + 7 * i);
  }

  sim::DeviceOptions options;
  options.chip.mode = models::ExecutionMode::kLle;
  sim::Device device(options);
  InProcessTransport transport(device);
  Runner runner(transport, RunnerOptions{});
  runner.open();
  const RunResult copy = runner.run(copyPlan, {std::vector<uint8_t>(8, 0), stream});
  ASSERT_TRUE(copy.ok()) << "weight_copy_in_0x80 stopped on lle: " << *copy.error;
  size_t exact = 0, compared = 0;
  for (const uint8_t x : {0, 1, 9, 60, 255}) {
    std::vector<uint8_t> input(8, 0);
    for (size_t i = 0; i < kGroupBytes; ++i) input[i] = static_cast<uint8_t>(x + 3 * i);
    const RunResult r = runner.run(densePlan, {input});
    ASSERT_TRUE(r.ok()) << "dense_1_8_mul stopped on lle after the copy: " << *r.error;
    ASSERT_EQ(r.outputs.size(), 1u);
    ASSERT_EQ(r.outputs[0].bytes.size(), kLanes) << "the output, exact size";
    for (size_t c = 0; c < kLanes; ++c) {
      int64_t acc = bias[c];
      for (size_t i = 0; i < kGroupBytes; ++i) acc += int64_t{input[i]} * (int64_t{stream[kRowBytes + 4 * c + i]} - zpWeight);
      const float y = std::clamp(static_cast<float>(acc) * mult, clampLo, clampHi);
      const auto want = static_cast<uint8_t>(static_cast<int32_t>(std::nearbyint(y)) + zpOut);
      EXPECT_EQ(r.outputs[0].bytes[c], want) << "input byte " << int{x} << ", lane " << c << ", sum " << acc;
      exact += r.outputs[0].bytes[c] == want;
      ++compared;
    }
  }
  runner.close();
  std::printf("dense_1_8_mul after weight_copy_in_0x80: %zu / %zu bytes follow the bias-prefix reading\n", exact, compared);
}

}  // namespace
}  // namespace coralsim::driver::lle_cached_dense_run_test
