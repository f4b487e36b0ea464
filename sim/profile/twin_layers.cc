#include "sim/profile/twin_layers.h"

#include <set>
#include <stdexcept>

namespace coralsim::sim {
namespace {

uint64_t product(const std::vector<int32_t>& shape) {
  uint64_t p = 1;
  for (int32_t d : shape) p *= d > 0 ? static_cast<uint64_t>(d) : 0;
  return shape.empty() ? 0 : p;
}

// Dimension `i` counted from the end (1 = last); 0 when the shape is shorter.
uint64_t fromEnd(const std::vector<int32_t>& shape, size_t i) {
  return shape.size() >= i && shape[shape.size() - i] > 0 ? static_cast<uint64_t>(shape[shape.size() - i]) : 0;
}

}  // namespace

uint64_t layerMacs(const std::string& op, const std::vector<int32_t>& input, const std::vector<int32_t>& filter,
                   const std::vector<int32_t>& output) {
  // Filters: CONV_2D [OC, KH, KW, IC]; DEPTHWISE_CONV_2D [1, KH, KW, OC]; FULLY_CONNECTED
  // [OC, IC]; TRANSPOSE_CONV [OC, KH, KW, IC] (TFLite layouts).
  if (filter.empty()) return 0;
  if (op == "CONV_2D") return product(output) * fromEnd(filter, 3) * fromEnd(filter, 2) * fromEnd(filter, 1);
  if (op == "DEPTHWISE_CONV_2D") return product(output) * fromEnd(filter, 3) * fromEnd(filter, 2);
  if (op == "FULLY_CONNECTED") return product(output) * fromEnd(filter, 1);
  if (op == "TRANSPOSE_CONV") return product(input) * fromEnd(filter, 3) * fromEnd(filter, 2) * fromEnd(filter, 4);
  return 0;
}

uint64_t layerArrayMacs(const std::string& op, uint64_t macs, const std::vector<int32_t>& output) {
  constexpr uint64_t kTileChannels = 64;
  const uint64_t oc = fromEnd(output, 1);
  if (oc == 0 || (op != "CONV_2D" && op != "FULLY_CONNECTED" && op != "TRANSPOSE_CONV")) return macs;
  return macs / oc * ((oc + kTileChannels - 1) / kTileChannels * kTileChannels);
}

std::vector<TwinLayer> twinLayers(const driver::TfliteModel& twin, const driver::ModelFile& compiled) {
  if (twin.subgraphs.empty()) throw std::runtime_error("the CPU twin has no subgraph");
  std::set<std::string> cpuOutputs;
  if (compiled.tflite) {
    for (const auto& sg : compiled.tflite->subgraphs) {
      for (const auto& op : sg.operators) {
        if (op.runsOnEdgeTpu) continue;
        for (int32_t t : op.outputs) {
          if (t >= 0 && static_cast<size_t>(t) < sg.tensors.size()) cpuOutputs.insert(sg.tensors[t].name);
        }
      }
    }
  }
  const driver::TfliteSubgraph& sg = twin.subgraphs.front();
  const auto tensor = [&](int32_t i) -> const driver::TfliteTensor* {
    return i >= 0 && static_cast<size_t>(i) < sg.tensors.size() ? &sg.tensors[i] : nullptr;
  };
  const auto constant = [&](const driver::TfliteTensor* t) {
    return t != nullptr && t->buffer != 0 && t->buffer < twin.buffers.size() && !twin.buffers[t->buffer].empty();
  };
  std::vector<TwinLayer> layers;
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const driver::TfliteOperator& op = sg.operators[i];
    TwinLayer l;
    l.index = i;
    l.op = op.name;
    if (const auto* in = op.inputs.empty() ? nullptr : tensor(op.inputs[0])) l.inputShape = in->shape;
    if (const auto* w = op.inputs.size() < 2 ? nullptr : tensor(op.inputs[1]); constant(w)) l.filterShape = w->shape;
    if (const auto* out = op.outputs.empty() ? nullptr : tensor(op.outputs[0])) {
      l.outputShape = out->shape;
      l.output = out->name;
    }
    for (int32_t t : op.inputs) {
      if (const auto* in = tensor(t); constant(in)) l.parameterBytes += twin.buffers[in->buffer].size();
    }
    l.macs = layerMacs(l.op, l.inputShape, l.filterShape, l.outputShape);
    l.arrayMacs = layerArrayMacs(l.op, l.macs, l.outputShape);
    for (int32_t t : op.outputs) {
      if (const auto* out = tensor(t); out != nullptr && cpuOutputs.count(out->name)) l.onCpu = true;
    }
    layers.push_back(std::move(l));
  }
  return layers;
}

}  // namespace coralsim::sim
