// Scalar core speed: bundles per second of ScalarEngine::run (target >= 50 M/s on one core).
//
//   BM_Baseline_PlainAdds     a plain C++ loop doing one 32-bit add per item: the ceiling any
//                             interpreter is measured against (report engine / baseline as a ratio)
//   BM_ScalarEngine_AluLoop   a synthetic ALU-heavy program (assembled with our assembler): a
//                             hardware loop over 16 ALU bundles inside a branch loop
//   BM_ScalarEngine_MemLoop   the same shape with loads, stores, post-increments and predication
//   BM_ScalarEngine_Corpus    the corpus EXECUTION_ONLY executable that executes the most bundles,
//                             all its chunks in order, with a no-op host (skipped without corpus)
// items_per_second is bundles/s (adds/s for the baseline).
#include <benchmark/benchmark.h>

#include "bench/bench_programs.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/model/linker.h"
#include "driver/model/model_loader.h"
#include "models/chip_config.h"
#include "models/isa/assembler.h"
#include "models/scalar/decoded_program.h"
#include "models/scalar/scalar_engine.h"

namespace {

using coralsim::models::DecodedPacket;
using coralsim::models::DecodedProgram;
using coralsim::models::Descriptor;
using coralsim::models::ScalarCoreHost;
using coralsim::models::ScalarEngine;
using coralsim::models::StopReason;

class NoOpHost : public ScalarCoreHost {
 public:
  void pushDescriptor(const Descriptor&, uint64_t) override { ++calls; }
  void streamWord(uint32_t, uint64_t) override { ++calls; }
  void issuePacket(const DecodedPacket&, uint64_t) override { ++calls; }
  uint64_t calls = 0;
};

constexpr uint64_t kNoBudgetLimit = ~uint64_t{0};
const uint32_t kMemoryWords = coralsim::models::ChipConfig{}.scalarMemoryWords;

// ---- baseline -------------------------------------------------------------------------------------

void BM_Baseline_PlainAdds(benchmark::State& state) {
  constexpr uint64_t kAdds = 1 << 20;
  uint32_t acc = 1;
  for (auto _ : state) {
    for (uint64_t i = 0; i < kAdds; ++i) {
      acc += static_cast<uint32_t>(i);
      benchmark::DoNotOptimize(acc);  // one real add per iteration, no vectorising or closed form
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kAdds));
}
BENCHMARK(BM_Baseline_PlainAdds);

// ---- synthetic programs ---------------------------------------------------------------------------

// kAluLoop: bench/bench_programs.h (shared with bench_trace).
using coralsim::bench::kAluLoop;

// The same shape with the load and store slots busy.
constexpr const char* kMemLoop = R"(
program {
        s1 = mov 0x0
outer:  s6 = mov 0x100
        s7 = mov 0x800
        loop n=1000 body=8
        s2 = add s2, 0x3 ; s3 = ld [s6], s6 += 1 ; mem[s7] = s2, s7 += 1
        s4 = xor s3, s2 ; mem[0xfff] = s4
        p1 = lt s4, s2 ; s5 = ld [0xfff]
        (p1) s2 = add s2, s5 ; desc[0] = s2
        s8 = shl s5, 0x1 ; s9 = ld [s7]
        s10 = or s8, s9 ; mem[s6] = s10
        (!p1) s11 = sub s10, 0x1
        s12 = add s11, s4 ; desc[1] = s12
        s1 = add s1, 0x1
        p0 = lt s1, 0x40
        (p0) br outer
}
)";

void runSynthetic(benchmark::State& state, const char* text) {
  const auto program = DecodedProgram::fromWords(coralsim::isa::assemble(text, "bench.s").words);
  ScalarEngine engine(kMemoryWords);
  NoOpHost host;
  const uint64_t before = engine.bundlesExecuted();
  for (auto _ : state) {
    engine.load(program);
    if (engine.run(kNoBudgetLimit, host) != StopReason::kFinalHalt) {
      state.SkipWithError("the program did not reach its final HALT");
      break;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(engine.bundlesExecuted() - before));
  state.counters["bundles_per_run"] =
      static_cast<double>(engine.bundlesExecuted() - before) / static_cast<double>(std::max<int64_t>(1, state.iterations()));
}

void BM_ScalarEngine_AluLoop(benchmark::State& state) { runSynthetic(state, kAluLoop); }
BENCHMARK(BM_ScalarEngine_AluLoop);

void BM_ScalarEngine_MemLoop(benchmark::State& state) { runSynthetic(state, kMemLoop); }
BENCHMARK(BM_ScalarEngine_MemLoop);

// ---- a real executable ----------------------------------------------------------------------------

std::optional<std::filesystem::path> corpusDir() {
  if (const char* env = std::getenv("CORALSIM_CORPUS"); env && *env) return std::filesystem::path(env);
#ifdef CORALSIM_DEFAULT_CORPUS
  if (std::filesystem::is_directory(CORALSIM_DEFAULT_CORPUS)) return std::filesystem::path(CORALSIM_DEFAULT_CORPUS);
#endif
  return std::nullopt;
}

struct CorpusWorkload {
  std::string label;
  std::vector<std::shared_ptr<const DecodedProgram>> chunks;
  uint64_t bundlesPerRun = 0;
};

// Runs every chunk of `programs` in order on a fresh engine; returns the bundles executed, or
// nullopt when the run does not end cleanly.
std::optional<uint64_t> runChunks(ScalarEngine& engine, ScalarCoreHost& host,
                                  const std::vector<std::shared_ptr<const DecodedProgram>>& programs) {
  const uint64_t before = engine.bundlesExecuted();
  for (size_t c = 0; c < programs.size(); ++c) {
    engine.load(programs[c]);
    const StopReason expected = c + 1 == programs.size() ? StopReason::kFinalHalt : StopReason::kChunkEnd;
    if (engine.run(kNoBudgetLimit, host) != expected) return std::nullopt;
  }
  return engine.bundlesExecuted() - before;
}

// The EXECUTION_ONLY executable of the corpus that executes the most bundles.
const std::optional<CorpusWorkload>& corpusWorkload() {
  static const std::optional<CorpusWorkload> workload = []() -> std::optional<CorpusWorkload> {
    const auto root = corpusDir();
    if (!root) return std::nullopt;
    std::optional<CorpusWorkload> best;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(*root)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || !name.ends_with("_edgetpu.tflite")) continue;
      try {
        const auto model = coralsim::driver::loadModelFile(entry.path());
        for (const auto* exe : coralsim::driver::allExecutables(model)) {
          if (exe->type != coralsim::driver::ExecutableType::ExecutionOnly) continue;
          // Any distinct 4 KiB-aligned bases will do: the no-op host ignores the descriptors.
          coralsim::driver::BaseAddresses bases;
          uint64_t next = 0x7f10'0000'0000ull;
          for (const auto& chunk : exe->bitstreams) {
            for (const auto& fo : chunk.fieldOffsets) {
              if (fo.target && !bases.find(*fo.target)) {
                bases.set(fo.target->kind, fo.target->name, next, fo.target->batch);
                next += 0x1'0000'0000ull;
              }
            }
          }
          CorpusWorkload w;
          w.label = std::filesystem::relative(entry.path(), *root).string();
          for (const auto& chunk : exe->bitstreams) {
            w.chunks.push_back(DecodedProgram::fromBytes(coralsim::driver::linkedCopy(chunk, bases)));
          }
          ScalarEngine engine(kMemoryWords);
          NoOpHost host;
          const auto bundles = runChunks(engine, host, w.chunks);
          if (!bundles) continue;
          w.bundlesPerRun = *bundles;
          if (!best || w.bundlesPerRun > best->bundlesPerRun) best = std::move(w);
        }
      } catch (const std::exception&) {
        continue;  // the corpus tests report unloadable files; the benchmark only needs one that works
      }
    }
    return best;
  }();
  return workload;
}

void BM_ScalarEngine_Corpus(benchmark::State& state) {
  const auto& workload = corpusWorkload();
  if (!workload) {
    state.SkipWithError("no corpus (set CORALSIM_CORPUS)");
    return;
  }
  state.SetLabel(workload->label);
  ScalarEngine engine(kMemoryWords);
  NoOpHost host;
  uint64_t bundles = 0;
  for (auto _ : state) {
    engine.reset();
    const auto n = runChunks(engine, host, workload->chunks);
    if (!n) {
      state.SkipWithError("the executable did not run cleanly");
      break;
    }
    bundles += *n;
  }
  state.SetItemsProcessed(static_cast<int64_t>(bundles));
  state.counters["bundles_per_run"] = static_cast<double>(workload->bundlesPerRun);
  state.counters["host_calls_per_run"] =
      static_cast<double>(host.calls) / static_cast<double>(std::max<int64_t>(1, state.iterations()));
}
BENCHMARK(BM_ScalarEngine_Corpus);

}  // namespace
