// One run of a plan through the driver on a fresh device whose chip runs strictly on the lle rung (a
// refusal fails the run, it does not drop to another rung): the corpus floors' way to see how far a
// program gets.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/run/random_inputs.h"

#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "hosting/in_process_transport.h"
#include "sim/device.h"

namespace coralsim::testing {

// One run of the plan on a fresh in-process device strictly on `rung` (no fallback to another).
inline driver::RunResult runOnRung(const driver::RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs, models::ExecutionMode rung) {
  sim::DeviceOptions options;
  options.chip.mode = rung;
  sim::Device device(options);
  driver::InProcessTransport transport(device);
  driver::Runner runner(transport, driver::RunnerOptions{});
  runner.open();
  driver::RunResult result = runner.run(plan, inputs);
  runner.close();
  return result;
}

inline driver::RunResult runOnLle(const driver::RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs) {
  return runOnRung(plan, inputs, models::ExecutionMode::kLle);
}

// Where a program a floor expects to stop on lle stops: its refusal on random input (seed 1). A program that runs fully
// is a test failure naming it, since its output must be compared with its golden before a floor accepts it; then "".
inline std::string lleRefusalOfAStoppingProgram(const driver::ModelFile& file, const std::filesystem::path& path) {
  const driver::RunPlan plan = driver::planRun(file);
  const driver::RunResult r = runOnLle(plan, driver::randomInputs(plan, 1));
  if (r.ok()) {
    ADD_FAILURE() << path << " runs fully on lle: compare its output with its golden before accepting it";
    return "";
  }
  return *r.error;
}

}  // namespace coralsim::testing
