// Low-level datapath speed (models/lle):
//
//   BM_LleMac/<path>          the tile MAC array (macGroups) on one Dense-1024 tile: K = 1024 input
//                             bytes x 64 lanes = 65,536 int8 MACs per call; items/s = MAC/s
//                             (target >= 20 G MAC/s on one core). Counters: host_peak_MAC_per_s
//                             (theoretical, from /proc/cpuinfo) and fraction_of_peak.
//   BM_LleConvTaps/<path>     the convolution's batched tap kernel (dotConvTaps) on a 40x40 tap run
//                             of 4 lanes, 16 outputs a call: 1,600 taps x 16 bytes x 16 outputs =
//                             409,600 MACs per call, items/s = MAC/s. The portable path is the
//                             baseline in the same run (report avx2 / portable, avx512_vnni / portable).
//   BM_Baseline_PlainDot      a plain C++ int8 dot-product loop doing the same MACs on a row-major
//                             W[c][i]: what straightforward code gets (report lle / baseline)
//   BM_LleInference/<model> one whole inference through the device in lle mode (Runner +
//                             InProcessTransport + sim::Device; parameters cached by a warm-up run,
//                             so each iteration is the execution-only run), for the largest corpus
//                             models that run wholly on lle: conv_512x512_k40 (the most MACs:
//                             rubensrech's 40x40 convolution of a 512^2 image, 419.4 M),
//                             conv_256x256_k40 (the same at 256^2, 104.9 M), depthwise_500x500_k20
//                             (a 20x20 depthwise over 3 channels, 300 M), dense_1024 (a 1 M-MAC
//                             FULLY_CONNECTED) and padding_256x256x3 (a copy, no MACs). Counters: lle_ms
//                             and lle_cpu_ms per inference, MAC_per_s (the model's MACs over lle_ms,
//                             when it has any), and CPU TFLite 2.9 on its uncompiled twin in the same
//                             run (tflite_ms, tflite_cpu_ms; ratio = lle_ms / tflite_ms, cpu_ratio
//                             the same in CPU time, which stays comparable on a loaded machine).
//                             TFLite 2.9 gives Dense-1024's per-channel FULLY_CONNECTED a constant
//                             output (../shared/tools/tflite-ref/README.md), but it still runs the
//                             1024x1024 int8 product, so its time is a fair baseline. Skipped
//                             without the corpus; TFLite part skipped loudly without the runner.
//
// Host peak: vector bytes per instruction x 2 vector MAC pipes x clock, where an int8 MAC
// instruction does one MAC per vector byte (vpdpbusd with AVX-512 VNNI or AVX-VNNI; pmaddubsw-class
// otherwise). An upper bound, not a promise: it ignores loads and port limits.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_corpus.h"
#include "bench/tflite_reference.h"
#include "tests/support/corpus.h"
#include "hosting/in_process_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "models/lle/conv_taps.h"
#include "models/lle/mac_array.h"
#include "sim/device.h"

namespace {

using namespace coralsim;

constexpr uint32_t kK = 1024;
constexpr double kMacsPerCall = 64.0 * kK;

struct HostPeak {
  double clockHz = 0;
  unsigned vectorBytes = 16;
  std::string isa = "sse2";
  [[nodiscard]] double macPerSecond() const { return clockHz * vectorBytes * 2.0; }
};

HostPeak hostPeak() {
  HostPeak p;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (p.clockHz == 0 && line.starts_with("cpu MHz")) p.clockHz = std::stod(line.substr(line.find(':') + 1)) * 1e6;
    if (line.starts_with("flags")) {
      std::istringstream flags(line.substr(line.find(':') + 1));
      std::string f;
      bool avx2 = false, avx512bw = false;
      while (flags >> f) {
        avx2 |= f == "avx2";
        avx512bw |= f == "avx512bw";
      }
      if (avx512bw) {
        p.vectorBytes = 64;
        p.isa = "avx512";
      } else if (avx2) {
        p.vectorBytes = 32;
        p.isa = "avx2";
      }
      break;
    }
  }
  return p;
}

struct Tile {
  std::vector<uint8_t> x = std::vector<uint8_t>(kK);
  std::vector<uint8_t> wide = std::vector<uint8_t>(64 * kK);  // group-major, as in wide memory
  std::vector<int8_t> rowMajor = std::vector<int8_t>(64 * kK);
  Tile() {
    std::mt19937 rng(1);
    for (auto& b : x) b = static_cast<uint8_t>(rng());
    for (uint32_t c = 0; c < 64; ++c) {
      for (uint32_t i = 0; i < kK; ++i) {
        const auto w = static_cast<int8_t>(rng());
        rowMajor[c * kK + i] = w;
        wide[(i / 4) * 256 + c * 4 + i % 4] = static_cast<uint8_t>(w) ^ 0x80;
      }
    }
  }
};

void BM_LleMac(benchmark::State& state, lle::MacPath path) {
  if (path == lle::MacPath::kAvx512Vnni && lle::macPath() != path) {
    state.SkipWithError("this host has no AVX-512 VNNI");
    return;
  }
  const Tile tile;
  int32_t acc[64];
  for (auto _ : state) {
    lle::macGroups(tile.x.data(), 127, tile.wide.data(), kK / 4, acc, path);
    benchmark::DoNotOptimize(acc);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(kMacsPerCall) * state.iterations());
  const HostPeak peak = hostPeak();
  state.counters["host_peak_MAC_per_s"] = benchmark::Counter(peak.macPerSecond());
  // MAC/s achieved / peak: a rate divided by the peak (kIsRate divides by time).
  state.counters["fraction_of_peak"] = benchmark::Counter(kMacsPerCall * static_cast<double>(state.iterations()) /
                                                              peak.macPerSecond(),
                                                          benchmark::Counter::kIsRate);
  state.SetLabel(peak.isa + " @ " + std::to_string(static_cast<int>(peak.clockHz / 1e6)) + " MHz");
}

void BM_Baseline_PlainDot(benchmark::State& state) {
  const Tile tile;
  int32_t acc[64];
  for (auto _ : state) {
    for (uint32_t c = 0; c < 64; ++c) {
      int32_t sum = 0;
      const int8_t* w = tile.rowMajor.data() + c * kK;
      for (uint32_t i = 0; i < kK; ++i) sum += (static_cast<int32_t>(tile.x[i]) - 127) * w[i];
      acc[c] = sum;
    }
    benchmark::DoNotOptimize(acc);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(kMacsPerCall) * state.iterations());
}

// One model run wholly on the lle rung: the compiled program, its uncompiled twin for TFLite, and
// the multiply-accumulates one inference does (from the layer shapes; 0 for a pure data move).
struct LleModel {
  const char* compiled;
  const char* twin;
  double macsPerInference;
  int tfliteRuns;  // enough Invoke()s that their CPU time stands out of the runner's load time
};

// Dense-1024: a 1024 x 1024 FULLY_CONNECTED, one MAC per weight.
constexpr LleModel kDense1024{"dense_1024_edgetpu.tflite", "dense_1024.tflite", 1024.0 * 1024.0, 200};
// The iwatake padding sweep's largest member: PAD of a 256x256x3 image, the most bytes any model
// moves wholly on lle (no MACs: the tiles copy the image into a zero-padded grid).
constexpr LleModel kPadding256{"model_padding_256x256x3_edgetpu.tflite", "model_padding_256x256x3.tflite", 0.0, 5000};
// rubensrech's 40 x 40 convolution of a 256 x 256 image, one channel in and out, SAME padding: 256^2
// outputs x 1,600 taps (its twin is the golden's derived one).
constexpr LleModel kConv256k40{"conv_2d_1_256_256_1_40_40_1_1_quant_edgetpu.tflite", "conv_2d_1_256_256_1_40_40_1_1_quant.tflite",
                               256.0 * 256.0 * 40.0 * 40.0, 20};
// The same convolution of a 512 x 512 image: 512^2 outputs x 1,600 taps, the most MACs of any model
// that runs wholly on lle.
constexpr LleModel kConv512k40{"conv_2d_1_512_512_1_40_40_1_1_quant_edgetpu.tflite", "conv_2d_1_512_512_1_40_40_1_1_quant.tflite",
                               512.0 * 512.0 * 40.0 * 40.0, 5};
// rubensrech's 20 x 20 depthwise convolution of a 500 x 500 x 3 image (multiplier 1, SAME): 500^2
// positions x 3 channels x 400 taps — the depthwise kernel's figure beside the convolution's.
constexpr LleModel kDepthwise500k20{"depthwise_conv_2d_1_500_500_3_20_20_3_1_quant_edgetpu.tflite",
                                    "depthwise_conv_2d_1_500_500_3_20_20_3_1_quant.tflite", 500.0 * 500.0 * 3.0 * 20.0 * 20.0, 5};

// The uncompiled twin: beside the compiled model in the corpus, else among the golden's derived twins.
std::optional<std::filesystem::path> findTwin(const std::string& fileName) {
  if (auto inCorpus = bench::findCorpusModel(fileName)) return inCorpus;
  const auto golden = coralsim::testing::goldenDir();
  return golden ? bench::findModelBelow(*golden / "_twins", fileName) : std::nullopt;
}

void BM_LleInference(benchmark::State& state, LleModel model) {
  const auto path = bench::findCorpusModel(model.compiled);
  if (!path) {
    state.SkipWithError((std::string(model.compiled) + " not found in the corpus").c_str());
    return;
  }
  const driver::ModelFile file = driver::loadModelFile(*path);
  const driver::RunPlan plan = driver::planRun(file);
  const auto inputs = driver::randomInputs(plan, 1);
  sim::DeviceOptions options;
  options.chip.mode = models::ExecutionMode::kLle;
  sim::Device device(options);
  driver::InProcessTransport transport(device);
  driver::Runner runner(transport);
  runner.open();
  if (const auto warm = runner.run(plan, inputs); !warm.ok()) {  // the parameter-caching run
    state.SkipWithError(warm.error->c_str());
    return;
  }
  // TFLite first, in the same process lifetime, so both see the same machine state.
  std::optional<bench::TfliteTiming> tflite;
  const auto tfliteBinary = bench::tfliteRunner();
  const auto twin = findTwin(model.twin);
  if (tfliteBinary && twin) tflite = bench::timeTflite(*tfliteBinary, *twin, {"--in-fill", "0=128"}, model.tfliteRuns);
  const auto start = std::chrono::steady_clock::now();
  const double cpuStart = bench::processCpuSeconds();
  for (auto _ : state) {
    const driver::RunResult r = runner.run(plan, inputs);
    if (!r.ok() || r.runs.empty() || r.runs.back().rung != std::optional<std::string>("lle")) {
      state.SkipWithError(r.ok() ? "the run did not use the lle rung" : r.error->c_str());
      break;
    }
  }
  const double iterations = static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  const double lleMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / iterations;
  const double lleCpuMs = (bench::processCpuSeconds() - cpuStart) * 1e3 / iterations;
  runner.close();
  state.SetItemsProcessed(state.iterations());
  state.counters["lle_ms"] = lleMs;
  state.counters["lle_cpu_ms"] = lleCpuMs;
  if (model.macsPerInference > 0) {
    state.counters["MAC_per_inference"] = benchmark::Counter(model.macsPerInference);
    state.counters["MAC_per_s"] = benchmark::Counter(model.macsPerInference / (lleMs * 1e-3));
  }
  if (tflite && tflite->invokeMs > 0 && tflite->cpuMs > 0) {
    state.counters["tflite_ms"] = tflite->invokeMs;
    state.counters["tflite_cpu_ms"] = tflite->cpuMs;
    state.counters["ratio"] = lleMs / tflite->invokeMs;
    state.counters["cpu_ratio"] = lleCpuMs / tflite->cpuMs;
    state.SetLabel("vs TFLite 2.9 on the twin, 1 thread, same run");
  } else {
    state.SetLabel(!tfliteBinary ? "TFLite runner not found: comparison skipped"
                           : !twin ? std::string(model.twin) + " (twin) not found: comparison skipped"
                           : !tflite ? "TFLite runner FAILED: comparison skipped"
                                     : "TFLite time per Invoke() too small to measure: comparison skipped");
  }
}

// The 40 x 40 convolutions' inner loop as the rung calls it: 16 outputs a call, consecutive run
// starts 4 bytes apart, taps 40 rows of 40 units of a 2,048-byte-wide image.
void BM_LleConvTaps(benchmark::State& state, lle::MacPath path) {
  if (!lle::hostSupports(path)) {
    state.SkipWithError("this host lacks the path's instructions");
    return;
  }
  constexpr unsigned kLanesHere = 4, kSide = 40, kRowBytes = 2048;
  std::mt19937 rng(7);
  std::vector<uint8_t> input(kRowBytes * (kSide + 1) + 4096), weights(kSide * kSide * 4 * kLanesHere);
  for (auto& b : input) b = static_cast<uint8_t>(rng());
  for (auto& b : weights) b = static_cast<uint8_t>(rng());
  std::vector<uint32_t> inputAt, weightAt;
  for (unsigned r = 0; r < kSide; ++r) {
    for (unsigned c = 0; c < kSide; ++c) {
      inputAt.push_back(r * kRowBytes + c * 4);
      weightAt.push_back((r * kSide + c) * 4 * kLanesHere);
    }
  }
  const lle::ConvTaps taps{inputAt, weightAt, kLanesHere};
  std::array<uint32_t, lle::kTapBatch> starts{};
  for (unsigned o = 0; o < lle::kTapBatch; ++o) starts[o] = 4 * o;
  std::vector<uint32_t> dot(lle::kTapBatch * kLanesHere), sumX(lle::kTapBatch);
  for (auto _ : state) {
    lle::dotConvTaps(input.data(), starts.data(), lle::kTapBatch, weights.data(), taps, dot.data(), sumX.data(), path);
    benchmark::DoNotOptimize(dot.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(inputAt.size()) * 16 * lle::kTapBatch * state.iterations());
}

BENCHMARK_CAPTURE(BM_LleMac, portable, lle::MacPath::kPortable);
BENCHMARK_CAPTURE(BM_LleMac, avx512_vnni, lle::MacPath::kAvx512Vnni);
BENCHMARK_CAPTURE(BM_LleConvTaps, portable, lle::MacPath::kPortable);
BENCHMARK_CAPTURE(BM_LleConvTaps, avx2, lle::MacPath::kAvx2);
BENCHMARK_CAPTURE(BM_LleConvTaps, avx512_vnni, lle::MacPath::kAvx512Vnni);
BENCHMARK(BM_Baseline_PlainDot);
BENCHMARK_CAPTURE(BM_LleInference, dense_1024, kDense1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_LleInference, padding_256x256x3, kPadding256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_LleInference, conv_256x256_k40, kConv256k40)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_LleInference, conv_512x512_k40, kConv512k40)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_LleInference, depthwise_500x500_k20, kDepthwise500k20)->Unit(benchmark::kMillisecond)->UseRealTime();


}  // namespace
