// The convolution's batched tap kernel (models/lle/conv_taps.h): every path against a plain
// reference loop, over lane counts the corpus has (4, 8, 64) and one it does not (12), partial
// batches, and sums large enough to wrap the 32-bit accumulator.
#include "models/lle/conv_taps.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace coralsim::lle::lle_conv_taps_test {
namespace {

struct Expected {
  std::vector<uint32_t> dot;
  std::vector<uint32_t> sumX;
};

Expected reference(const std::vector<uint8_t>& input, const std::vector<uint32_t>& starts, const std::vector<uint8_t>& weights,
                   const ConvTaps& taps) {
  Expected e{std::vector<uint32_t>(starts.size() * taps.lanes, 0), std::vector<uint32_t>(starts.size(), 0)};
  for (size_t o = 0; o < starts.size(); ++o) {
    for (size_t t = 0; t < taps.inputAt.size(); ++t) {
      for (unsigned i = 0; i < 4; ++i) {
        const uint32_t x = input[starts[o] + taps.inputAt[t] + i];
        e.sumX[o] += x;
        for (unsigned c = 0; c < taps.lanes; ++c) e.dot[o * taps.lanes + c] += x * weights[taps.weightAt[t] + 4 * c + i];
      }
    }
  }
  return e;
}

void expectEveryPathMatchesTheReference(unsigned lanes, unsigned count, size_t tapCount, uint8_t fill, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<uint8_t> input(8192), weights(tapCount * 4 * lanes + 64);
  for (auto& b : input) b = fill != 0 ? fill : static_cast<uint8_t>(random());
  for (auto& b : weights) b = fill != 0 ? fill : static_cast<uint8_t>(random());
  std::vector<uint32_t> inputAt(tapCount), weightAt(tapCount), starts(count);
  for (size_t t = 0; t < tapCount; ++t) {
    inputAt[t] = static_cast<uint32_t>(random() % 4000);  // taps in any order, revisiting bytes
    weightAt[t] = static_cast<uint32_t>((random() % tapCount) * 4 * lanes);
  }
  for (auto& s : starts) s = static_cast<uint32_t>(random() % 4000);
  const ConvTaps taps{inputAt, weightAt, lanes};
  const Expected want = reference(input, starts, weights, taps);
  for (MacPath path : {MacPath::kPortable, MacPath::kAvx2, MacPath::kAvx512Vnni}) {  // a path the host lacks falls back
    std::vector<uint32_t> dot(kTapBatch * lanes, 0xdeadbeef), sumX(kTapBatch, 0xdeadbeef);
    dotConvTaps(input.data(), starts.data(), count, weights.data(), taps, dot.data(), sumX.data(), path);
    dot.resize(count * lanes);
    sumX.resize(count);
    EXPECT_EQ(dot, want.dot) << "lanes " << lanes << ", " << count << " outputs, path " << static_cast<int>(path);
    EXPECT_EQ(sumX, want.sumX) << "lanes " << lanes << ", " << count << " outputs, path " << static_cast<int>(path);
  }
}

TEST(LleConvTaps, EveryPathGivesTheReferenceSumsForEveryLaneCountAndBatchSize) {
  unsigned seed = 1;
  for (unsigned lanes : {4u, 8u, 12u, 64u}) {
    for (unsigned count : {1u, 7u, 9u, kTapBatch}) expectEveryPathMatchesTheReference(lanes, count, 37, 0, seed++);
  }
}

TEST(LleConvTaps, SumsWrapModulo2To32AsTheAccumulatorDoes) {
  // 255 x 255 x 4 bytes x 20,000 taps = 5.2e9: past 2^32 in every lane.
  expectEveryPathMatchesTheReference(4, kTapBatch, 20000, 255, 99);
  expectEveryPathMatchesTheReference(8, 3, 20000, 255, 100);
}

}  // namespace
}  // namespace coralsim::lle::lle_conv_taps_test
