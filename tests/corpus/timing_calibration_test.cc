// The timing calibration data is reachable and the compiled-in timing model meets what the README
// claims for it: over every published latency in scripts/timing-references.json (corpus models,
// USB 3 and USB 2), the device time of one steady-state inference — read from the simulated
// device's clock exactly as `coralsim run --iterations 2 --random 1 --timing` does — has a mean absolute error of at most
// 15 % and at least 85 % of the references fall within +-30 %. The measured figures are third-party
// hardware measurements, not outputs of this code. scripts/calibrate-timing.py writes the full table.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "hosting/in_process_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "sim/device.h"
#include "tests/support/corpus.h"
#include "tests/support/timing_references.h"

namespace coralsim::timing_calibration_test {
namespace {

double predictMs(const std::filesystem::path& modelPath, const std::string& usb) {
  const driver::ModelFile model = driver::loadModelFile(modelPath.string());
  const driver::RunPlan plan = driver::planRun(model);
  sim::DeviceOptions options;
  options.speed = usb == "high" ? usb::UsbSpeed::kHigh : usb::UsbSpeed::kSuper;
  sim::Device device(options);
  driver::InProcessTransport transport(device);
  driver::Runner runner(transport, driver::RunnerOptions{.deviceTime = true});
  runner.open();
  driver::RunResult result = runner.run(plan, driver::randomInputs(plan, 1), 2);
  runner.close();
  if (!result.ok()) throw std::runtime_error(modelPath.string() + ": " + *result.error);
  if (!result.timing) throw std::runtime_error(modelPath.string() + ": the device reported no time");
  return result.timing->totalTime.value() * 1e3;
}

TEST(TimingCalibration, PublishedLatenciesArePredictedWithinTheStatedBounds) {
  const auto corpus = testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const std::vector<testing::TimingReference> refs = testing::loadTimingReferences();
  ASSERT_GE(refs.size(), 20u) << "the calibration set shrank";
  double sumAbs = 0;
  size_t within = 0;
  for (const testing::TimingReference& r : refs) {
    const std::filesystem::path path = *corpus / r.model;
    ASSERT_TRUE(std::filesystem::is_regular_file(path)) << "calibration model missing from the corpus: " << path;
    ASSERT_TRUE(r.usb == "super" || r.usb == "high") << r.model << ": usb '" << r.usb << "'";
    ASSERT_GT(r.ms, 0) << r.model;
    const double predicted = predictMs(path, r.usb);
    const double error = (predicted - r.ms) / r.ms;
    sumAbs += std::abs(error);
    if (std::abs(error) <= 0.30) ++within;
    std::printf("  %-70s %-5s measured %8.3f ms predicted %8.3f ms  %+6.1f %%\n",
                path.filename().string().c_str(), r.usb.c_str(), r.ms, predicted, error * 100);
  }
  const double mae = sumAbs / static_cast<double>(refs.size());
  std::printf("  mean absolute error %.1f %%, %zu of %zu within +-30 %%\n", mae * 100, within, refs.size());
  EXPECT_LE(mae, 0.15);
  EXPECT_GE(static_cast<double>(within), 0.85 * static_cast<double>(refs.size()));
}

}  // namespace
}  // namespace coralsim::timing_calibration_test
