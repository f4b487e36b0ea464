// Whole-model inference time of the high-level datapath (GraphExecutor::runGraph on the CPU twin,
// in process, no device) for every MobileNet v1 twin in the golden set, against CPU TensorFlow
// Lite 2.9 (the golden data's primary backend) on the same machine in the same run. Target: HLE
// within 3x of TFLite (counters `cpu_ratio` and `ratio` = HLE time / TFLite time).
//
// TFLite is timed by spawning the shared reference runner per model
// (`run_tflite_2_9 MODEL --in 0=FILE --runs K`, which prints `invoke_ms`, the mean Invoke() time
// with one thread, builtin kernels), and once more with one run so the child's CPU time per Invoke()
// can be isolated: `cpu_ratio` (HLE CPU time / TFLite CPU time) is the figure that stays stable
// when other jobs share the machine; `ratio` compares wall-clock times. The runner is built by ../shared/tools/tflite-ref/setup.sh;
// $CORALSIM_TFLITE_RUNNER names the binary (default <tools>/tflite-ref/bin/run_tflite_2_9). When it
// is missing the HLE times are still reported and the comparison is skipped loudly.
//
// Models and inputs come from the golden set ($CORALSIM_GOLDEN, default ../shared/golden): each
// model folder whose twin is a mobilenet_v1 file, fed with its first case's model input.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench/tflite_reference.h"
#include "driver/model/model_loader.h"
#include "models/hle/graph_executor.h"
#include "sim/hle_host/hle_graph.h"
#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"

namespace fs = std::filesystem;

namespace {

struct TwinModel {
  std::string name;  // twin file stem
  fs::path twin;
  std::vector<std::vector<uint8_t>> inputs;  // in graph-input order
  std::vector<fs::path> inputFiles;
};

std::string text(const coralsim::testing::JsonValue* v) { return v ? v->text : std::string(); }

// The golden folders' MobilenetV1 twins, one entry per distinct twin file.
std::vector<TwinModel> findTwins() {
  std::vector<TwinModel> found;
  const auto golden = coralsim::testing::goldenDir();
  const auto corpus = coralsim::testing::corpusDir();
  if (!golden) return found;
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(*golden)) {
    if (e.is_directory() && fs::exists(e.path() / "manifest.json")) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  std::set<std::string> seen;
  for (const fs::path& dir : dirs) {
    std::ifstream f(dir / "manifest.json");
    std::stringstream ss;
    ss << f.rdbuf();
    const auto manifest = coralsim::testing::parseJson(ss.str());
    const auto* twin = manifest.find("twin");
    if (!twin) continue;
    std::string path = text(twin->find("path"));
    const fs::path file = fs::path(path).filename();
    if (!file.string().starts_with("mobilenet_v1") || seen.count(file.string())) continue;
    fs::path twinPath;
    if (text(twin->find("where")) == "corpus") {
      if (!corpus) continue;
      twinPath = *corpus / path;
    } else {
      if (path.starts_with("public/")) path = path.substr(7);
      twinPath = *golden / path;
    }
    if (!fs::exists(twinPath)) continue;
    const auto* cases = manifest.find("cases");
    if (!cases || cases->items.empty()) continue;
    TwinModel m;
    m.name = file.stem().string();
    m.twin = twinPath;
    bool ok = true;
    for (const auto& in : cases->items.front().find("model_inputs")->items) {
      const fs::path p = dir / text(in.find("file"));
      if (!fs::exists(p)) ok = false;
      m.inputFiles.push_back(p);
      if (ok) m.inputs.push_back(coralsim::testing::readFile(p));
    }
    if (!ok) continue;
    seen.insert(file.string());
    found.push_back(std::move(m));
  }
  return found;
}

// TFLite's Invoke() time for `m` on its golden input files.
std::optional<coralsim::bench::TfliteTiming> tfliteTiming(const fs::path& runner, const TwinModel& m, int runs) {
  std::vector<std::string> inputArgs;
  for (size_t i = 0; i < m.inputFiles.size(); ++i) {
    inputArgs.push_back("--in");
    inputArgs.push_back(std::to_string(i) + "=" + m.inputFiles[i].string());
  }
  return coralsim::bench::timeTflite(runner, m.twin, inputArgs, runs);
}

void BM_HleWholeModel(benchmark::State& state, const TwinModel* m, std::optional<fs::path> runner) {
  const auto model = coralsim::driver::loadModelFile(m->twin);
  const coralsim::hle::Graph graph = coralsim::sim::hleGraphFromTflite(*model.tflite);
  coralsim::hle::GraphExecutor executor(graph);
  // TFLite first, in the same process lifetime, so both see the same machine state.
  std::optional<coralsim::bench::TfliteTiming> tflite;
  if (runner) tflite = tfliteTiming(*runner, *m, 20);
  const auto start = std::chrono::steady_clock::now();
  const double cpuStart = coralsim::bench::processCpuSeconds();
  for (auto _ : state) {
    auto outputs = executor.runGraph(m->inputs);
    benchmark::DoNotOptimize(outputs);
  }
  const double iterations = static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  const double hleMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / iterations;
  const double hleCpuMs = (coralsim::bench::processCpuSeconds() - cpuStart) * 1e3 / iterations;
  state.counters["hle_ms"] = hleMs;
  state.counters["hle_cpu_ms"] = hleCpuMs;
  if (tflite && tflite->invokeMs > 0 && tflite->cpuMs > 0) {
    state.counters["tflite_ms"] = tflite->invokeMs;
    state.counters["tflite_cpu_ms"] = tflite->cpuMs;
    state.counters["ratio"] = hleMs / tflite->invokeMs;
    state.counters["cpu_ratio"] = hleCpuMs / tflite->cpuMs;
    state.SetLabel("TFLite 2.9, 1 thread, same run");
  } else {
    state.SetLabel(runner ? "TFLite runner FAILED: comparison skipped" : "TFLite runner not found: comparison skipped");
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  static const std::vector<TwinModel> twins = findTwins();
  const auto runner = coralsim::bench::tfliteRunner();
  if (twins.empty()) {
    std::fprintf(stderr, "\n*** bench_hle: no MobileNet v1 twins found (set CORALSIM_GOLDEN / CORALSIM_CORPUS) ***\n\n");
  }
  if (!runner) coralsim::bench::warnTfliteRunnerMissing("bench_hle");
  for (const TwinModel& m : twins) {
    benchmark::RegisterBenchmark(("BM_HleWholeModel/" + m.name).c_str(), BM_HleWholeModel, &m, runner)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinTime(2.0);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
