// ISA layer speed. The scalar core will execute decoded bundles at >= 50M bundles/s, so
// decodeBundle must cost a few nanoseconds at most; the text paths are reported for scale.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "models/isa/bundle_syntax.h"
#include "models/isa/scalar_bundle.h"
#include "models/isa/segmenter.h"

namespace {

using coralsim::isa::Word128;

std::vector<Word128> randomBundles(size_t n) {
  std::mt19937_64 rng(1);
  std::vector<Word128> words(n);
  for (Word128& w : words) {
    w = Word128{rng(), rng() & ((uint64_t{1} << 38) - 1)};  // bits 127:102 clear, as in compiled code
    w.setBits(6, 6, coralsim::isa::kScalarBundleOpcode);
  }
  return words;
}

void BM_DecodeBundle(benchmark::State& state) {
  const auto words = randomBundles(4096);
  for (auto _ : state) {
    for (const Word128& w : words) {
      const coralsim::isa::ScalarBundle b = coralsim::isa::decodeBundle(w);
      benchmark::DoNotOptimize(b);
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * words.size()));
}
BENCHMARK(BM_DecodeBundle);

void BM_SegmentBundles(benchmark::State& state) {
  auto words = randomBundles(4096);
  for (auto _ : state) {
    const auto s = coralsim::isa::segmentLenient(words);
    benchmark::DoNotOptimize(s.program.packets.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * words.size()));
}
BENCHMARK(BM_SegmentBundles);

void BM_FormatBundle(benchmark::State& state) {
  const auto words = randomBundles(256);
  for (auto _ : state) {
    for (const Word128& w : words) benchmark::DoNotOptimize(coralsim::isa::formatBundle(w));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * words.size()));
}
BENCHMARK(BM_FormatBundle);

}  // namespace
