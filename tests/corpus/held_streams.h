// The run's streams as the corpus floors that drive the lle rung packet by packet hold them: the input
// transfer's bytes and the parameter bytes, in vectors the test fills.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "driver/model/executable.h"
#include "driver/model/model_file.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "models/chip/datapath_rung.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/lle_run_on_device.h"

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
  const driver::RunResult r = runOnRung(plan, inputs, models::ExecutionMode::kProtocol);
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

// What a packet drive of a compiled model needs beside its execution-only program: the parameter-caching program (one
// chunk; null without one) and its stream, which the drive runs first, and the execution-only stream's descriptor blocks.
struct DriveParameters {
  std::shared_ptr<const models::DecodedProgram> caching;
  std::vector<uint8_t> cachingParams;
  std::vector<size_t> executionBlocks;
};

inline DriveParameters driveParameters(const driver::ModelFile& model) {
  DriveParameters d;
  const driver::RunPlan plan = driver::planRun(model);
  d.executionBlocks = executionParameterDescriptorBlocks(plan, driver::randomInputs(plan, 1));
  for (const driver::Executable* e : driver::allExecutables(model)) {
    if (e->type != driver::ExecutableType::ParameterCaching) continue;
    d.cachingParams = e->parameters;
    d.caching = e->bitstreams.size() == 1 ? models::DecodedProgram::fromBytes(e->bitstreams[0].bytes) : nullptr;
  }
  return d;
}

}  // namespace coralsim::testing
