// The cost of the trace hooks (issue 7: < 5 % when off).
//
//   BM_TraceHook_Off        ScalarEngine on an ALU-heavy program, no trace hook (the default:
//                           hooks compiled in, disabled). Compare with bench_scalar_core's
//                           BM_ScalarEngine_AluLoop built from the code before the hooks.
//   BM_TraceHook_OnNoOp     the same with a hook that does nothing: the engine's own cost of
//                           tracing (register snapshots), without any formatting or I/O
//   BM_Run_TracesOff        a whole control-plane run of a corpus model (Runner + in-process
//                           transport + emulated device), traces off
//   BM_Run_TracesOn         the same with the USB log, timeline and instruction trace recorded
//                           (written to memory)
// Counter `ratio_to_off` on the *_On cases: process CPU time per item relative to the Off case
// of the same pair (CPU time, so a busy machine does not skew it).
#include <benchmark/benchmark.h>

#include "bench/bench_programs.h"

#include <ctime>
#include <filesystem>
#include <sstream>

#include "hosting/in_process_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/transport/recording_transport.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "models/chip_config.h"
#include "models/isa/assembler.h"
#include "models/scalar/decoded_program.h"
#include "models/scalar/scalar_engine.h"
#include "sim/device.h"
#include "traces/timeline_writer.h"

namespace {

using namespace coralsim;

class NoOpHost : public models::ScalarCoreHost {
 public:
  void pushDescriptor(const models::Descriptor&, uint64_t) override {}
  void streamWord(uint32_t, uint64_t) override {}
  void issuePacket(const models::DecodedPacket&, uint64_t) override {}
};

class NoOpHook : public models::ScalarTraceHook {
 public:
  void packetExecuted(const models::DecodedPacket&, uint64_t, const std::array<uint32_t, 32>&,
                      const std::array<bool, 8>&) override {
    ++packets;
  }
  uint64_t packets = 0;
};

// The same program as bench_scalar_core's ALU loop (~1 M bundles per run).
using coralsim::bench::kAluLoop;

// Process CPU time: the machine may be shared, so wall-clock ratios would measure the neighbours.
double cpuNanos() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

double g_engineOffNsPerItem = 0;
double g_runOffNsPerItem = 0;

void runEngine(benchmark::State& state, models::ScalarTraceHook* hook) {
  const auto program = models::DecodedProgram::fromWords(isa::assemble(kAluLoop, "bench.s").words);
  models::ScalarEngine engine(models::ChipConfig{}.scalarMemoryWords);
  engine.setTraceHook(hook);
  NoOpHost host;
  const uint64_t before = engine.bundlesExecuted();
  const double start = cpuNanos();
  for (auto _ : state) {
    engine.load(program);
    benchmark::DoNotOptimize(engine.run(~uint64_t{0}, host));
  }
  const double ns = cpuNanos() - start;
  const uint64_t bundles = engine.bundlesExecuted() - before;
  state.SetItemsProcessed(static_cast<int64_t>(bundles));
  const double perItem = ns / static_cast<double>(bundles);
  if (hook == nullptr) g_engineOffNsPerItem = perItem;
  else if (g_engineOffNsPerItem > 0) state.counters["ratio_to_off"] = perItem / g_engineOffNsPerItem;
}

void BM_TraceHook_Off(benchmark::State& state) { runEngine(state, nullptr); }
void BM_TraceHook_OnNoOp(benchmark::State& state) {
  NoOpHook hook;
  runEngine(state, &hook);
}
BENCHMARK(BM_TraceHook_Off)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TraceHook_OnNoOp)->Unit(benchmark::kMillisecond);

std::optional<std::filesystem::path> benchModel() {
  const char* env = std::getenv("CORALSIM_CORPUS");
  const std::filesystem::path corpus = env != nullptr ? env : CORALSIM_DEFAULT_CORPUS;
  const auto path = corpus / "iwatake2222+EdgeTPU_Analysis/InOut/model_padding/model_padding_256x256x3_edgetpu.tflite";
  if (!std::filesystem::exists(path)) return std::nullopt;
  return path;
}

void runModel(benchmark::State& state, bool traced) {
  const auto path = benchModel();
  if (!path) {
    state.SkipWithError("corpus model not found (set CORALSIM_CORPUS)");
    return;
  }
  const driver::ModelFile model = driver::loadModelFile(path->string());
  const driver::RunPlan plan = driver::planRun(model);
  const auto inputs = driver::randomInputs(plan, 1);
  const double start = cpuNanos();
  for (auto _ : state) {
    std::ostringstream instructions, timelineText;
    auto tracer = std::make_shared<traces::Tracer>();
    traces::TimelineWriter timeline(500'000'000);
    traces::InstructionTraceWriter instructionWriter(instructions);
    sim::DeviceOptions options;
    if (traced) {
      tracer->addEventSink(&timeline);
      tracer->setInstructionSink(&instructionWriter);
      options.chip.tracer = tracer;
    }
    traces::UsbLog log;
    sim::Device device(options);
    driver::InProcessTransport inner(device);
    driver::RecordingTransport recorder(inner, log);
    driver::Runner runner(traced ? static_cast<driver::Transport&>(recorder) : inner, {});
    runner.open();
    benchmark::DoNotOptimize(runner.run(plan, inputs, 1));
    runner.close();
    if (traced) timeline.write(timelineText);
  }
  const double ns = cpuNanos() - start;
  const double perItem = ns / static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  if (!traced) g_runOffNsPerItem = perItem;
  else if (g_runOffNsPerItem > 0) state.counters["ratio_to_off"] = perItem / g_runOffNsPerItem;
}

void BM_Run_TracesOff(benchmark::State& state) { runModel(state, false); }
void BM_Run_TracesOn(benchmark::State& state) { runModel(state, true); }
BENCHMARK(BM_Run_TracesOff)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Run_TracesOn)->Unit(benchmark::kMillisecond);

}  // namespace
