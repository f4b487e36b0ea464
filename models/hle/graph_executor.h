// Runs a Graph (or the part of it between given input and output tensors) with the 8-bit
// reference kernels: the ops the requested outputs depend on are found backwards from them,
// stopping at fed tensors and constants, and run in dependence order.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "models/hle/graph.h"
#include "models/hle/kernel_context.h"

namespace coralsim::hle {

// The name of a builtin op the kernels implement (kernels.def), or nullopt.
std::optional<std::string_view> supportedKernelName(int32_t builtinCode);

using TensorBytes = std::pair<int32_t, std::vector<uint8_t>>;  // tensor index, its bytes

class GraphExecutor {
 public:
  explicit GraphExecutor(const Graph& graph) : graph_(graph) {}

  // Feeds `inputs`, runs what `outputs` need, returns the outputs' bytes in that order. Throws
  // HleError naming the op (unsupported op, bad shapes) or the tensor (not fed, wrong size).
  std::vector<std::vector<uint8_t>> run(const std::vector<TensorBytes>& inputs, const std::vector<int32_t>& outputs);

  // The same, returning every tensor's bytes by tensor index: the fed ones, the constants and
  // each intermediate tensor the run computed (the layer checker compares them with what the lle
  // rung wrote to tile memory, sim/layer_check/); tensors the run did not need stay empty.
  std::vector<std::vector<uint8_t>> runKeepingTensors(const std::vector<TensorBytes>& inputs,
                                                      const std::vector<int32_t>& outputs);

  // The whole graph: `inputs` in the order of graph.inputs, returns graph.outputs.
  std::vector<std::vector<uint8_t>> runGraph(const std::vector<std::vector<uint8_t>>& inputs);

  // The op indices the last run() executed, in execution order.
  const std::vector<size_t>& executedOps() const { return order_; }

 private:
  const Graph& graph_;
  std::vector<size_t> order_;
};

}  // namespace coralsim::hle
