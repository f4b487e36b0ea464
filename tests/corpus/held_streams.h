// The run's streams as the corpus floors that drive the lle rung packet by packet hold them: the input
// transfer's bytes and the parameter bytes, in vectors the test fills.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "driver/model/executable.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "hosting/in_process_transport.h"
#include "models/chip/datapath_rung.h"
#include "sim/device.h"

namespace coralsim::testing {

class HeldStreams : public models::RunStreams {
 public:
  std::vector<uint8_t> input, params;
  // A drive that delivers the parameter stream as the program's descriptors do on the device -- one block for each
  // parameter 0x25 it issues, the lengths of the parameter descriptors its scalar core issues, in order -- sets
  // `paramBlocks` (executionParameterDescriptorBlocks) and calls deliverParameterBlock() as it issues each such 0x25: the rung checks a 0x25 as the
  // segment of the bytes delivered since the last fence (docs/decoding-log.md "trk128"). Empty: all of `params` is there.
  std::vector<size_t> paramBlocks;
  size_t blocksDelivered = 0;
  void deliverParameterBlock() {
    if (blocksDelivered < paramBlocks.size()) ++blocksDelivered;
  }
  [[nodiscard]] std::span<const uint8_t> inputBytes() const override { return input; }
  [[nodiscard]] std::span<const uint8_t> parameterBytes() const override {
    if (paramBlocks.empty()) return params;
    size_t delivered = 0;
    for (size_t i = 0; i < blocksDelivered; ++i) delivered += paramBlocks[i];
    return std::span<const uint8_t>(params).first(std::min(delivered, params.size()));
  }
};

// The lengths of the parameter descriptors (tag 2) the scalar core issues in the model's execution-only run, in order:
// what the device's parameter infeed drains one 0x25 at a time. The scalar core computes them at run time, so they are
// read from a run of the whole model on the control plane alone (the protocol rung: no datapath, the same descriptors).
inline std::vector<size_t> executionParameterDescriptorBlocks(const driver::RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs) {
  sim::DeviceOptions options;
  options.chip.mode = models::ExecutionMode::kProtocol;
  sim::Device device(options);
  driver::InProcessTransport transport(device);
  driver::Runner runner(transport, driver::RunnerOptions{});
  runner.open();
  const driver::RunResult r = runner.run(plan, inputs);
  runner.close();
  std::vector<size_t> blocks;
  for (const driver::ExecutableRunRecord& run : r.runs) {
    if (run.type != driver::ExecutableType::ExecutionOnly) continue;
    for (const driver::ObservedDescriptor& d : run.descriptors) {
      if (d.descriptor.tag == 2 && d.descriptor.length != 0) blocks.push_back(d.descriptor.length);
    }
    break;  // the first execution-only run
  }
  return blocks;
}

}  // namespace coralsim::testing
