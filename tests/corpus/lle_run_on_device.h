// One run of a plan through the driver on a fresh device whose chip runs strictly on the lle rung (a
// refusal fails the run, it does not drop to another rung): the corpus floors' way to see how far a
// program gets.
#pragma once

#include <cstdint>
#include <vector>

#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "hosting/in_process_transport.h"
#include "sim/device.h"

namespace coralsim::testing {

inline driver::RunResult runOnLle(const driver::RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs) {
  sim::DeviceOptions options;
  options.chip.mode = models::ExecutionMode::kLle;
  sim::Device device(options);
  driver::InProcessTransport transport(device);
  driver::Runner runner(transport, driver::RunnerOptions{});
  runner.open();
  driver::RunResult result = runner.run(plan, inputs);
  runner.close();
  return result;
}

}  // namespace coralsim::testing
