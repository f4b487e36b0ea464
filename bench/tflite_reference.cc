#include "bench/tflite_reference.h"

#include <cstdio>
#include <cstdlib>

#include <sys/resource.h>
#include <time.h>

#include "tests/support/corpus.h"
#include "tests/support/run_command.h"

namespace coralsim::bench {

namespace fs = std::filesystem;

std::optional<fs::path> tfliteRunner() {
  if (const char* env = std::getenv("CORALSIM_TFLITE_RUNNER"); env && *env) {
    return fs::exists(env) ? std::optional<fs::path>(env) : std::nullopt;
  }
  const auto tools = coralsim::testing::toolsDir();
  if (!tools) return std::nullopt;
  const fs::path p = *tools / "tflite-ref" / "bin" / "run_tflite_2_9";
  return fs::exists(p) ? std::optional<fs::path>(p) : std::nullopt;
}

namespace {

// Runs the runner once and returns its JSON stdout (empty on failure); `cpuSeconds` = the child's
// CPU seconds (user + system, from the kernel's accounting of waited-for children).
std::string spawn(const std::vector<std::string>& argv, double& cpuSeconds) {
  rusage before{}, after{};
  getrusage(RUSAGE_CHILDREN, &before);
  const auto out = coralsim::testing::runCommand(argv);
  getrusage(RUSAGE_CHILDREN, &after);
  const auto seconds = [](const rusage& r) {
    return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
           static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6;
  };
  cpuSeconds = seconds(after) - seconds(before);
  return out.value_or(std::string());
}

}  // namespace

std::optional<TfliteTiming> timeTflite(const fs::path& runner, const fs::path& model,
                                       const std::vector<std::string>& inputArgs, int runs) {
  std::vector<std::string> argv{runner.string(), model.string()};
  argv.insert(argv.end(), inputArgs.begin(), inputArgs.end());
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

void warnTfliteRunnerMissing(const char* suite) {
  std::fprintf(stderr,
               "\n*** %s: TFLite reference runner not found; simulator times only. Build it with "
               "../shared/tools/tflite-ref/setup.sh (in a writable copy) and set CORALSIM_TFLITE_RUNNER "
               "to its bin/run_tflite_2_9. ***\n\n",
               suite);
}

}  // namespace coralsim::bench
