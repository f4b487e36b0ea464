// The layers of a model's CPU twin (the X.tflite the Edge TPU compiler compiled into
// X_edgetpu.tflite), in the twin's operator order, with what the profile prints for each: op,
// shapes, multiply-accumulates and parameter bytes, and whether the compiled model kept the op on
// the CPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "driver/model/model_file.h"

namespace coralsim::sim {

struct TwinLayer {
  size_t index = 0;              // operator index in the twin's subgraph 0
  std::string op;                // "CONV_2D", "DEPTHWISE_CONV_2D", ...
  std::string output;            // name of its first output tensor
  std::vector<int32_t> inputShape;   // first input
  std::vector<int32_t> filterShape;  // second input when constant (weights), else empty
  std::vector<int32_t> outputShape;  // first output
  uint64_t macs = 0;             // 0 for ops without a multiply-accumulate loop
  // The MAC-array work the layer occupies: each tile computes a 64-channel output slice
  // (docs/isa.md §1), so a CONV_2D / FULLY_CONNECTED / TRANSPOSE_CONV with OC output channels
  // costs MACs x ceil(OC / 64) x 64 / OC; other ops = macs.
  uint64_t arrayMacs = 0;
  uint64_t parameterBytes = 0;   // bytes of its constant inputs (weights, bias)
  bool onCpu = false;            // the compiled model still runs this op on the CPU
};

// MACs of one op: CONV_2D N*OH*OW*OC * KH*KW*IC; DEPTHWISE_CONV_2D N*OH*OW*OC * KH*KW;
// FULLY_CONNECTED (output elements) * IC; TRANSPOSE_CONV (input elements) * KH*KW*OC; other ops 0.
[[nodiscard]] uint64_t layerMacs(const std::string& op, const std::vector<int32_t>& input,
                                 const std::vector<int32_t>& filter, const std::vector<int32_t>& output);

// The twin's layers. An op is on the CPU when an op of the compiled model other than the Edge TPU
// custom op writes a tensor of the same name (the compiler keeps the names of the ops it leaves).
// Throws std::runtime_error when `twin` has no subgraph.
[[nodiscard]] uint64_t layerArrayMacs(const std::string& op, uint64_t macs, const std::vector<int32_t>& output);

[[nodiscard]] std::vector<TwinLayer> twinLayers(const driver::TfliteModel& twin, const driver::ModelFile& compiled);

}  // namespace coralsim::sim
