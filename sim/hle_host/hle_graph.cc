#include "sim/hle_host/hle_graph.h"

#include <stdexcept>
#include <string>

namespace coralsim::sim {

using driver::TfliteModel;
using driver::TfliteSubgraph;
using driver::TfliteTensor;
using driver::TfliteOperator;
using driver::TfliteOperatorCode;
using driver::TfliteBuiltinOptions;
using driver::TfliteTensorType;
namespace {

namespace hle = coralsim::hle;

bool knownType(TfliteTensorType t) { return t == 0 || t == 2 || t == 3 || t == 4 || t == 7 || t == 9; }

}  // namespace

hle::Graph hleGraphFromTflite(const TfliteModel& model, size_t subgraph) {
  if (subgraph >= model.subgraphs.size()) {
    throw std::runtime_error("TFLite model has " + std::to_string(model.subgraphs.size()) + " subgraphs, asked for " +
                             std::to_string(subgraph));
  }
  const TfliteSubgraph& sg = model.subgraphs[subgraph];
  hle::Graph g;
  for (const TfliteTensor& t : sg.tensors) {
    hle::Tensor h;
    h.name = t.name;
    h.shape = t.shape;
    // Unknown element types stay representable (ops that read them fail when run, naming them).
    h.type = knownType(t.type) ? static_cast<hle::ElementType>(t.type) : hle::ElementType::UInt8;
    if (!knownType(t.type)) h.name += " [unsupported element type " + std::to_string(t.type) + "]";
    h.scale = t.scale;
    h.zeroPoint = t.zeroPoint;
    h.quantizedDimension = t.quantizedDimension;
    if (t.buffer != 0 && t.buffer < model.buffers.size() && !model.buffers[t.buffer].empty()) {
      h.constant = true;
      h.data = model.buffers[t.buffer];
    }
    g.tensors.push_back(std::move(h));
  }
  for (const TfliteOperator& op : sg.operators) {
    hle::Op h;
    const TfliteOperatorCode& code = model.operatorCodes.at(op.opcodeIndex);  // checked by the reader
    h.builtinCode = code.builtinCode;
    h.name = op.name;
    const TfliteBuiltinOptions& o = op.builtinOptions;
    h.options.padding = o.padding == 1 ? hle::Padding::Valid : hle::Padding::Same;
    h.options.strideW = o.strideW;
    h.options.strideH = o.strideH;
    h.options.dilationW = o.dilationW;
    h.options.dilationH = o.dilationH;
    h.options.filterW = o.filterW;
    h.options.filterH = o.filterH;
    h.options.depthMultiplier = o.depthMultiplier;
    h.options.activation = static_cast<hle::Activation>(o.activation);
    h.options.axis = o.axis;
    h.options.beta = o.beta;
    h.options.keepDims = o.keepDims;
    h.options.alignCorners = o.alignCorners;
    h.options.halfPixelCenters = o.halfPixelCenters;
    h.inputs = op.inputs;
    h.outputs = op.outputs;
    g.ops.push_back(std::move(h));
  }
  g.inputs = sg.inputs;
  g.outputs = sg.outputs;
  return g;
}

}  // namespace coralsim::sim
