#include "models/hle/graph_executor.h"

#include <string>

namespace coralsim::hle {
namespace {

using KernelFn = void (*)(KernelContext&);
struct KernelEntry {
  int32_t code;
  std::string_view name;
  KernelFn run;
};

constexpr KernelEntry kKernels[] = {
#define CORALSIM_HLE_KERNEL(code, name, fn) {code, #name, &fn},
#include "models/hle/kernels.def"
#undef CORALSIM_HLE_KERNEL
};

const KernelEntry* findKernel(int32_t code) {
  for (const auto& k : kKernels) {
    if (k.code == code) return &k;
  }
  return nullptr;
}

std::string tensorLabel(const Graph& g, int32_t t) {
  return "tensor " + std::to_string(t) + " ('" + g.tensors[static_cast<size_t>(t)].name + "')";
}

}  // namespace

std::optional<std::string_view> supportedKernelName(int32_t builtinCode) {
  if (const auto* k = findKernel(builtinCode)) return k->name;
  return std::nullopt;
}

std::vector<std::vector<uint8_t>> GraphExecutor::run(const std::vector<TensorBytes>& inputs,
                                                     const std::vector<int32_t>& outputs) {
  std::vector<std::vector<uint8_t>> values = runKeepingTensors(inputs, outputs);
  std::vector<std::vector<uint8_t>> result;
  for (int32_t t : outputs) result.push_back(values[static_cast<size_t>(t)]);  // copies: an output may be listed twice
  return result;
}

std::vector<std::vector<uint8_t>> GraphExecutor::runKeepingTensors(const std::vector<TensorBytes>& inputs,
                                                                   const std::vector<int32_t>& outputs) {
  const size_t tensorCount = graph_.tensors.size();
  auto checkIndex = [&](int32_t t, const std::string& role) {
    if (t < 0 || static_cast<size_t>(t) >= tensorCount) {
      throw HleError(role + " tensor " + std::to_string(t) + " is not one of the graph's " + std::to_string(tensorCount) + " tensors");
    }
  };
  std::vector<std::vector<uint8_t>> values(tensorCount);
  std::vector<bool> available(tensorCount, false);
  for (size_t t = 0; t < tensorCount; ++t) {
    if (graph_.tensors[t].constant) {
      values[t] = graph_.tensors[t].data;
      available[t] = true;
    }
  }
  for (const auto& [t, bytes] : inputs) {
    checkIndex(t, "input");
    const Tensor& desc = graph_.tensors[static_cast<size_t>(t)];
    const size_t need = elementCount(desc.shape) * elementSize(desc.type);
    if (bytes.size() != need) {
      throw HleError("input " + tensorLabel(graph_, t) + " got " + std::to_string(bytes.size()) + " bytes, its shape needs " +
                     std::to_string(need));
    }
    values[static_cast<size_t>(t)] = bytes;
    available[static_cast<size_t>(t)] = true;
  }
  std::vector<int32_t> producer(tensorCount, -1);
  for (size_t o = 0; o < graph_.ops.size(); ++o) {
    for (int32_t t : graph_.ops[o].outputs) {
      if (t >= 0 && static_cast<size_t>(t) < tensorCount) producer[static_cast<size_t>(t)] = static_cast<int32_t>(o);
    }
  }

  // Depth-first from the outputs: post-order is a dependence order. 0 = unvisited, 1 = on the
  // stack (seeing it again means a cycle), 2 = scheduled.
  order_.clear();
  std::vector<uint8_t> state(graph_.ops.size(), 0);
  auto visitTensor = [&](auto& self, int32_t t) -> void {
    checkIndex(t, "needed");
    if (available[static_cast<size_t>(t)]) return;
    const int32_t p = producer[static_cast<size_t>(t)];
    if (p < 0) throw HleError(tensorLabel(graph_, t) + " is needed but neither fed nor produced by an op");
    const auto op = static_cast<size_t>(p);
    if (state[op] == 2) return;
    if (state[op] == 1) throw HleError("op " + std::to_string(op) + " (" + graph_.ops[op].name + ") is part of a cycle");
    state[op] = 1;
    for (int32_t in : graph_.ops[op].inputs) {
      if (in >= 0) self(self, in);
    }
    state[op] = 2;
    order_.push_back(op);
  };
  for (int32_t t : outputs) visitTensor(visitTensor, t);

  for (size_t op : order_) {  // refuse before running anything
    if (!findKernel(graph_.ops[op].builtinCode)) {
      throw HleError("op " + std::to_string(op) + " (" + graph_.ops[op].name + ", builtin code " +
                     std::to_string(graph_.ops[op].builtinCode) + ") is not supported by the high-level datapath");
    }
  }
  for (size_t op : order_) {
    KernelContext ctx(graph_, graph_.ops[op], op, values);
    findKernel(graph_.ops[op].builtinCode)->run(ctx);
  }
  return values;
}

std::vector<std::vector<uint8_t>> GraphExecutor::runGraph(const std::vector<std::vector<uint8_t>>& inputs) {
  if (inputs.size() != graph_.inputs.size()) {
    throw HleError("the graph has " + std::to_string(graph_.inputs.size()) + " inputs, got " + std::to_string(inputs.size()));
  }
  std::vector<TensorBytes> fed;
  for (size_t i = 0; i < inputs.size(); ++i) fed.emplace_back(graph_.inputs[i], inputs[i]);
  return run(fed, graph_.outputs);
}

}  // namespace coralsim::hle
