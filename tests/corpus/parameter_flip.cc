#include "tests/corpus/parameter_flip.h"

#include <algorithm>

#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "hosting/in_process_transport.h"
#include "sim/device.h"

namespace coralsim::testing {

std::optional<std::vector<uint8_t>> lleOutput(const driver::ModelFile& model, const std::vector<std::vector<uint8_t>>& inputs) {
  sim::DeviceOptions options;
  options.chip.mode = models::ExecutionMode::kLle;
  options.chip.requantRounding = models::RequantRounding::kTfliteFixedPoint;
  sim::Device device(options);
  driver::InProcessTransport transport(device);
  driver::Runner runner(transport, driver::RunnerOptions{});
  runner.open();
  const driver::RunResult result = runner.run(driver::planRun(model), inputs);
  runner.close();
  if (!result.ok() || result.outputs.empty()) return std::nullopt;
  return result.outputs.front().bytes;
}

std::optional<ParameterFlip> flipFirstOutputChangingParameter(driver::ModelFile& model, const std::vector<std::vector<uint8_t>>& inputs,
                                                              size_t from, size_t maxTries) {
  std::vector<uint8_t>* parameters = nullptr;
  for (auto& op : model.edgeTpuOps) {
    for (auto& package : op.packages) {
      for (auto& e : package.executables) {
        if (!e.parameters.empty() && !parameters) parameters = &e.parameters;
      }
    }
  }
  if (!parameters) return std::nullopt;
  const std::optional<std::vector<uint8_t>> clean = lleOutput(model, inputs);
  if (!clean) return std::nullopt;
  const size_t left = parameters->size() > from ? parameters->size() - from : 0;
  const size_t end = from + std::min(left, maxTries);
  for (size_t at = from; at < end; ++at) {
    (*parameters)[at] ^= 0x80;
    std::optional<std::vector<uint8_t>> changed = lleOutput(model, inputs);
    if (changed && *changed != *clean) return ParameterFlip{at, *clean, std::move(*changed)};
    (*parameters)[at] ^= 0x80;
  }
  return std::nullopt;
}

}  // namespace coralsim::testing
