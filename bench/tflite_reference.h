// CPU TensorFlow Lite 2.9 timed in the same run as a simulator benchmark: the shared reference
// runner (`run_tflite_2_9 MODEL [--in IDX=FILE | --in-fill IDX=BYTE]... --runs K`, built by
// ../shared/tools/tflite-ref/setup.sh in a writable copy) is spawned twice per model, so the model
// load cancels out of the CPU time per Invoke(). Builtin kernels, one thread, no delegate.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace coralsim::bench {

// $CORALSIM_TFLITE_RUNNER, else <tools>/tflite-ref/bin/run_tflite_2_9; nullopt when absent.
std::optional<std::filesystem::path> tfliteRunner();

struct TfliteTiming {
  double invokeMs = 0;  // the runner's own wall-clock mean Invoke() time over the runs
  double cpuMs = 0;     // CPU time per Invoke(): (CPU of a K+1-run spawn - CPU of a 1-run spawn) / K
};

// Times `model` with the given input arguments (e.g. {"--in", "0=x.bin"} or {"--in-fill", "0=128"}).
// CPU time is the figure that stays comparable on a shared, loaded machine. nullopt when the runner
// fails or prints no timing.
std::optional<TfliteTiming> timeTflite(const std::filesystem::path& runner, const std::filesystem::path& model,
                                       const std::vector<std::string>& inputArgs, int runs);

// This process's CPU seconds so far (for the simulator's side of a CPU-time ratio).
double processCpuSeconds();

// The note a suite prints once when the runner is missing: the comparison is skipped, loudly.
void warnTfliteRunnerMissing(const char* suite);

}  // namespace coralsim::bench
