// Whole control-plane runs per second, in process: the host driver (Runner over InProcessTransport)
// running corpus models on the emulated device (sim::Device) — link, records, descriptors, events,
// outputs. Steady state is what an application sees (parameters cached, EXECUTION_ONLY only); the
// "cold" variants re-send the PARAMETER_CACHING executable every time. Counters: simulated cycles
// per run and simulated MHz (simulated cycles per wall-clock second). Wall-clock time throughout:
// the simulation runs on the kernel thread, not on the benchmark's.
//
// Models are looked up by file name under $CORALSIM_CORPUS (default ../shared/corpus); a missing
// one skips its benchmark.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "bench/bench_corpus.h"
#include "hosting/in_process_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "sim/device.h"

#ifndef CORALSIM_DEFAULT_CORPUS
#define CORALSIM_DEFAULT_CORPUS "../shared/corpus"
#endif

namespace {

using namespace coralsim;

void BM_ControlPlaneRun(benchmark::State& state, const char* fileName, driver::ServiceMode mode, bool cold) {
  const auto path = bench::findCorpusModel(fileName);
  if (!path) {
    state.SkipWithError((std::string(fileName) + " not found in the corpus").c_str());
    return;
  }
  const driver::ModelFile model = driver::loadModelFile(*path);
  const driver::RunPlan plan = driver::planRun(model);
  const auto inputs = driver::randomInputs(plan, 1);
  sim::Device device;
  driver::InProcessTransport transport(device);
  driver::RunnerOptions options;
  options.service = mode;
  driver::Runner runner(transport, options);
  runner.open();
  // Warm-up run: caches the parameters for the steady-state variant.
  if (!runner.run(plan, inputs).ok()) {
    state.SkipWithError("the warm-up run failed");
    return;
  }
  uint64_t cycles = 0;
  for (auto _ : state) {
    if (cold) runner.forgetParameterCache();
    const driver::RunResult r = runner.run(plan, inputs);
    if (!r.ok()) {
      state.SkipWithError(r.error->c_str());
      break;
    }
    cycles += r.cycles.value_or(0);
  }
  runner.close();
  state.SetItemsProcessed(state.iterations());
  state.counters["sim_cycles_per_run"] =
      benchmark::Counter(static_cast<double>(cycles) / std::max<double>(1, static_cast<double>(state.iterations())));
  state.counters["sim_MHz"] = benchmark::Counter(static_cast<double>(cycles) / 1e6, benchmark::Counter::kIsRate);
}

void BM_OpenClose(benchmark::State& state) {
  sim::Device device;
  driver::InProcessTransport transport(device);
  driver::Runner runner(transport);
  for (auto _ : state) {
    runner.open();
    runner.close();
  }
  state.SetItemsProcessed(state.iterations());
}

using driver::ServiceMode;
BENCHMARK_CAPTURE(BM_ControlPlaneRun, dense256_hints, "dense_256_edgetpu.tflite", ServiceMode::kHints, false)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ControlPlaneRun, dense256_events, "dense_256_edgetpu.tflite", ServiceMode::kEvents, false)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ControlPlaneRun, dense256_cold_hints, "dense_256_edgetpu.tflite", ServiceMode::kHints, true)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ControlPlaneRun, mobilenet_v1_025_hints, "mobilenet_v1_0.25_128_quant_edgetpu.tflite",
                  ServiceMode::kHints, false)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ControlPlaneRun, mobilenet_v1_025_events, "mobilenet_v1_0.25_128_quant_edgetpu.tflite",
                  ServiceMode::kEvents, false)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ControlPlaneRun, mobilenet_v1_025_cold_hints, "mobilenet_v1_0.25_128_quant_edgetpu.tflite",
                  ServiceMode::kHints, true)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_OpenClose)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
