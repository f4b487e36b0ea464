// The average pool executed on a real program, checked against a program we did not write (issue #12 target (c),
// docs/decoding-log.md "pool4"). LibrEdgeTPU's gabor 128x128 p4 is its 7k sibling's Gabor convolution followed by a
// 4x4 / stride 4 AVERAGE_POOL_2D, with the same output quantisation on both (scale 0.00227, zero point 0, the
// templates' json). The 7k program runs fully on lle and is golden-exact, so on one input p4's output must be the 4x4
// mean of 7k's output, byte for byte, wherever the mean is not a tie. At ties (a window sum with remainder 8 of 16)
// either neighbour is accepted: which way the chip rounds them is not known (no hardware pool output in the corpus;
// "gabp4" §C), and this test checks the gather, the stream layout and the weight walk, not a rounding rule.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "tests/corpus/lle_run_on_device.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_average_pool_run_test {
namespace {

namespace fs = std::filesystem;

constexpr size_t kSide = 128, kPooledSide = 32, kWindow = 4, kFilters = 8;

TEST(LleAveragePoolRun, GaborP4IsTheFourByFourMeanOfTheConvolutionItsSevenKSiblingComputes) {
  const auto corpus = coralsim::testing::corpusDir();
  const fs::path dir = corpus ? *corpus / "ricardodeazambuja+LibrEdgeTPU" / "libredgetpu" / "optical_flow" / "templates" : fs::path();
  const fs::path pooled = dir / "gabor_128x128_p4_edgetpu.tflite", convolved = dir / "gabor_128x128_7k_4o_2s_edgetpu.tflite";
  if (!corpus || !fs::exists(pooled) || !fs::exists(convolved)) {
    GTEST_SKIP() << "\n*** SKIPPED: the LibrEdgeTPU gabor templates are not in the corpus (" << dir << "). ***\n";
  }
  const ModelFile pooledFile = loadModelFile(pooled), convolvedFile = loadModelFile(convolved);  // the plans refer into them
  const RunPlan pooledPlan = planRun(pooledFile), convolvedPlan = planRun(convolvedFile);
  size_t exact = 0, ties = 0;
  for (uint64_t seed : {1u, 2u, 3u}) {
    const std::vector<std::vector<uint8_t>> inputs = randomInputs(convolvedPlan, seed);
    ASSERT_EQ(inputs.size(), 1u);
    ASSERT_EQ(inputs[0].size(), kSide * kSide) << "the 7k template's input is one 128 x 128 image";
    const RunResult conv = coralsim::testing::runOnLle(convolvedPlan, inputs);
    ASSERT_TRUE(conv.ok()) << "gabor 7k (golden-exact on lle) stopped: " << *conv.error;
    const RunResult pool = coralsim::testing::runOnLle(pooledPlan, inputs);
    ASSERT_TRUE(pool.ok()) << "gabor p4 stopped on lle: " << *pool.error;
    ASSERT_EQ(conv.outputs.size(), 1u);
    ASSERT_EQ(pool.outputs.size(), 1u);
    const std::vector<uint8_t>& full = conv.outputs[0].bytes;
    const std::vector<uint8_t>& mean = pool.outputs[0].bytes;
    ASSERT_EQ(full.size(), kSide * kSide * kFilters);
    ASSERT_EQ(mean.size(), kPooledSide * kPooledSide * kFilters) << "p4's output tensor, exact size";
    for (size_t y = 0; y < kPooledSide; ++y) {
      for (size_t x = 0; x < kPooledSide; ++x) {
        for (size_t c = 0; c < kFilters; ++c) {
          unsigned sum = 0;
          for (size_t dy = 0; dy < kWindow; ++dy) {
            for (size_t dx = 0; dx < kWindow; ++dx) sum += full[((kWindow * y + dy) * kSide + kWindow * x + dx) * kFilters + c];
          }
          const unsigned below = sum / (kWindow * kWindow), remainder = sum % (kWindow * kWindow);
          const unsigned got = mean[(y * kPooledSide + x) * kFilters + c];
          if (remainder == kWindow * kWindow / 2) {
            ++ties;
            EXPECT_TRUE(got == below || got == below + 1) << "seed " << seed << " (" << y << ", " << x << ", " << c << "): tie of sum "
                                                          << sum << ", got " << got;
          } else {
            const unsigned nearest = below + (remainder > kWindow * kWindow / 2 ? 1 : 0);
            EXPECT_EQ(got, nearest) << "seed " << seed << " (" << y << ", " << x << ", " << c << "): sum " << sum;
            exact += got == nearest;
          }
        }
      }
    }
  }
  std::printf("gabor p4 against the 4x4 mean of 7k's lle output, 3 inputs: %zu bytes exact off ties, %zu ties (either neighbour)\n",
              exact, ties);
  EXPECT_GT(exact, 0u);
}

}  // namespace
}  // namespace coralsim::driver::lle_average_pool_run_test
