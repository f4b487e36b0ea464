// One `edgetpu-custom-op` node of an interpreter's graph, claimed by the delegate: its DarwiNN
// executables (parsed from the node's custom_initial_data, the op's custom_options) planned into
// a driver::RunPlan exactly as `coralsim run` plans a compiled model, and the TFLite tensors the
// plan's inputs and outputs are bound to (by name, else by position, as driver/run/run_plan.cc binds
// executable layers).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/run/run_plan.h"
#include "libedgetpu/device_session.h"
#include "libedgetpu/tflite_abi.h"

namespace coralsim::libedgetpu {

class CustomOpKernel {
 public:
  // Reads the node's program and binds its tensors. Throws std::exception naming the node and
  // what is wrong (malformed custom options, a layer without a tensor).
  CustomOpKernel(tflite_abi::Context& context, int nodeIndex, const tflite_abi::Node& node,
                 std::shared_ptr<DeviceSession> session);

  // Runs the node on the device: inputs from the bound tensors, outputs written into them with
  // exactly each tensor's size. Returns an error message, or "" on success.
  [[nodiscard]] std::string invoke(tflite_abi::Context& context);

  [[nodiscard]] int nodeIndex() const { return nodeIndex_; }

 private:
  int nodeIndex_;
  std::string label_;
  std::shared_ptr<DeviceSession> session_;
  std::unique_ptr<driver::ModelFile> model_;  // the plan points into it: never moved
  driver::RunPlan plan_;
  std::vector<int> inputTensors_;   // per plan_.inputs: the TFLite tensor index
  std::vector<int> outputTensors_;  // the node's outputs
  bool warnedNotComputed_ = false;
};

}  // namespace coralsim::libedgetpu
