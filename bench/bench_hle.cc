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

#include <sys/resource.h>
#include <time.h>

#include "driver/model/model_loader.h"
#include "models/hle/graph_executor.h"
#include "sim/hle_host/hle_graph.h"
#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"
#include "tests/support/run_command.h"

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

std::optional<fs::path> tfliteRunner() {
  if (const char* env = std::getenv("CORALSIM_TFLITE_RUNNER"); env && *env) {
    return fs::exists(env) ? std::optional<fs::path>(env) : std::nullopt;
  }
  const auto tools = coralsim::testing::toolsDir();
  if (!tools) return std::nullopt;
  const fs::path p = *tools / "tflite-ref" / "bin" / "run_tflite_2_9";
  return fs::exists(p) ? std::optional<fs::path>(p) : std::nullopt;
}

struct TfliteTiming {
  double invokeMs = 0;  // the runner's own wall-clock mean over the runs
  double cpuMs = 0;     // CPU time per Invoke(): (CPU of a K+1-run spawn - CPU of a 1-run spawn) / K
};

// Runs the runner once and returns its JSON stdout (empty on failure); `cpuSeconds` = the child's
// CPU seconds (user + system, from the kernel's accounting of waited-for children).
std::string spawn(const std::vector<std::string>& argv, double& cpuSeconds) {
  rusage before{}, after{};
  getrusage(RUSAGE_CHILDREN, &before);
  const auto out = coralsim::testing::runCommand(argv);
  getrusage(RUSAGE_CHILDREN, &after);
  const auto seconds = [](const rusage& r) {
    return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6;
  };
  cpuSeconds = seconds(after) - seconds(before);
  return out.value_or(std::string());
}

// TFLite's Invoke() time for `m`: the runner's wall-clock mean over `runs`, and the CPU time per
// run with the model loading cancelled out by a second, single-run spawn. CPU time is what stays
// comparable on a shared, loaded machine.
std::optional<TfliteTiming> tfliteTiming(const fs::path& runner, const TwinModel& m, int runs) {
  std::vector<std::string> argv{runner.string(), m.twin.string()};
  for (size_t i = 0; i < m.inputFiles.size(); ++i) {
    argv.push_back("--in");
    argv.push_back(std::to_string(i) + "=" + m.inputFiles[i].string());
  }
  argv.push_back("--runs");
  double cpuOne = 0, cpuMany = 0;
  argv.push_back("1");
  if (spawn(argv, cpuOne).empty()) return std::nullopt;
  argv.back() = std::to_string(runs + 1);
  const std::string out = spawn(argv, cpuMany);
  const auto key = out.find("\"invoke_ms\":");
  if (key == std::string::npos) return std::nullopt;
  TfliteTiming t;
  t.invokeMs = std::strtod(out.c_str() + key + 12, nullptr);
  t.cpuMs = (cpuMany - cpuOne) * 1e3 / runs;
  return t;
}

double processCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void BM_HleWholeModel(benchmark::State& state, const TwinModel* m, std::optional<fs::path> runner) {
  const auto model = coralsim::driver::loadModelFile(m->twin);
  const coralsim::hle::Graph graph = coralsim::sim::hleGraphFromTflite(*model.tflite);
  coralsim::hle::GraphExecutor executor(graph);
  // TFLite first, in the same process lifetime, so both see the same machine state.
  std::optional<TfliteTiming> tflite;
  if (runner) tflite = tfliteTiming(*runner, *m, 20);
  const auto start = std::chrono::steady_clock::now();
  const double cpuStart = processCpuSeconds();
  for (auto _ : state) {
    auto outputs = executor.runGraph(m->inputs);
    benchmark::DoNotOptimize(outputs);
  }
  const double iterations = static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  const double hleMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / iterations;
  const double hleCpuMs = (processCpuSeconds() - cpuStart) * 1e3 / iterations;
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
  const auto runner = tfliteRunner();
  if (twins.empty()) {
    std::fprintf(stderr, "\n*** bench_hle: no MobileNet v1 twins found (set CORALSIM_GOLDEN / CORALSIM_CORPUS) ***\n\n");
  }
  if (!runner) {
    std::fprintf(stderr,
                 "\n*** bench_hle: TFLite reference runner not found; HLE times only. Build it with "
                 "../shared/tools/tflite-ref/setup.sh (in a writable copy) and set CORALSIM_TFLITE_RUNNER "
                 "to its bin/run_tflite_2_9. ***\n\n");
  }
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
