#include "libedgetpu/custom_op_kernel.h"

#include <cstring>
#include <span>

#include "driver/model/edgetpu_custom_op.h"
#include "driver/run/run_report.h"
#include "libedgetpu/verbose_log.h"

namespace coralsim::libedgetpu {
namespace {

using tflite_abi::IntArray;
using tflite_abi::Tensor;
using tflite_abi::Type;

// TfLiteType -> the .tflite schema's TensorType, which the driver's tensor specs use.
driver::TfliteTensorType schemaType(Type type) {
  switch (type) {
    case Type::kFloat32: return 0;
    case Type::kFloat16: return 1;
    case Type::kInt32: return 2;
    case Type::kUInt8: return 3;
    case Type::kInt64: return 4;
    case Type::kString: return 5;
    case Type::kBool: return 6;
    case Type::kInt16: return 7;
    case Type::kComplex64: return 8;
    case Type::kInt8: return 9;
    case Type::kFloat64: return 10;
    case Type::kComplex128: return 11;
    case Type::kUInt64: return 12;
    case Type::kResource: return 13;
    case Type::kVariant: return 14;
    case Type::kUInt32: return 15;
    case Type::kNoType: break;
  }
  return -1;
}

std::vector<int> indices(const IntArray* array) {
  std::vector<int> out;
  if (!array) return out;
  for (int i = 0; i < array->size; ++i) out.push_back(array->data()[i]);
  return out;
}

const Tensor& tensorAt(tflite_abi::Context& context, int index, const std::string& label) {
  if (index < 0 || static_cast<size_t>(index) >= context.tensorsSize) {
    throw std::runtime_error(label + ": tensor index " + std::to_string(index) + " is out of range");
  }
  return context.tensors[index];
}

driver::TfliteTensor describe(const Tensor& t) {
  driver::TfliteTensor out;
  out.name = t.name ? t.name : "";
  out.type = schemaType(t.type);
  if (t.dims) out.shape = indices(t.dims);
  return out;
}

}  // namespace

CustomOpKernel::CustomOpKernel(tflite_abi::Context& context, int nodeIndex, const tflite_abi::Node& node,
                               std::shared_ptr<DeviceSession> session)
    : nodeIndex_(nodeIndex), label_("edgetpu-custom-op node " + std::to_string(nodeIndex)), session_(std::move(session)) {
  if (!node.customInitialData || node.customInitialDataSize <= 0) {
    throw std::runtime_error(label_ + ": the node carries no custom options (no DarwiNN executable)");
  }
  const std::vector<int> nodeInputs = indices(node.inputs);
  outputTensors_ = indices(node.outputs);

  // A one-op TFLite model around the node: its tensors (inputs, then outputs) and the custom op,
  // so driver::planRun binds layers to tensors exactly as it does for a file.
  model_ = std::make_unique<driver::ModelFile>();
  model_->kind = driver::ModelKind::Tflite;
  model_->path = label_;
  driver::TfliteModel tflite;
  tflite.subgraphs.emplace_back();
  driver::EdgeTpuCustomOp op;
  op.opIndex = nodeIndex;
  for (int index : nodeInputs) {
    if (index < 0) continue;  // an optional input left out
    op.inputs.push_back(static_cast<int32_t>(tflite.subgraphs[0].tensors.size()));
    tflite.subgraphs[0].tensors.push_back(describe(tensorAt(context, index, label_)));
  }
  for (int index : outputTensors_) {
    op.outputs.push_back(static_cast<int32_t>(tflite.subgraphs[0].tensors.size()));
    tflite.subgraphs[0].tensors.push_back(describe(tensorAt(context, index, label_)));
  }
  const auto* bytes = static_cast<const uint8_t*>(node.customInitialData);
  driver::readEdgeTpuCustomOptions(std::span<const uint8_t>(bytes, static_cast<size_t>(node.customInitialDataSize)),
                                   op, driver::Where(label_));
  model_->tflite = std::move(tflite);
  model_->edgeTpuOps.push_back(std::move(op));
  plan_ = driver::planRun(*model_);

  // Each plan input from the node input of the same name, else the one at the same position.
  std::vector<int> present;
  for (int index : nodeInputs) {
    if (index >= 0) present.push_back(index);
  }
  for (size_t i = 0; i < plan_.inputs.size(); ++i) {
    int bound = -1;
    for (int index : present) {
      const char* name = context.tensors[index].name;
      if (name && plan_.inputs[i].name == name) bound = index;
    }
    if (bound < 0 && i < present.size()) bound = present[i];
    if (bound < 0) {
      throw std::runtime_error(label_ + ": the executable's input layer '" + plan_.inputs[i].name +
                               "' has no TFLite input tensor");
    }
    inputTensors_.push_back(bound);
  }
  log(1, label_ + ": " + std::to_string(plan_.units.size()) + " package(s), " + std::to_string(plan_.inputs.size()) +
             " input(s), " + std::to_string(plan_.outputs.size()) + " output(s)");
}

std::string CustomOpKernel::invoke(tflite_abi::Context& context) {
  std::vector<std::vector<uint8_t>> inputs;
  for (size_t i = 0; i < inputTensors_.size(); ++i) {
    const Tensor& t = context.tensors[inputTensors_[i]];
    if (!t.data && t.bytes > 0) return label_ + ": input tensor '" + plan_.inputs[i].name + "' has no data";
    const auto* p = static_cast<const uint8_t*>(t.data);
    inputs.emplace_back(p, p + t.bytes);
  }
  driver::RunResult result;
  try {
    result = session_->run(plan_, inputs);
  } catch (const std::exception& e) {
    return label_ + ": " + e.what();
  }
  if (!result.ok()) return label_ + ": " + *result.error;
  if (result.timing) log(0, label_ + ": predicted device time per inference: " + driver::describeTiming(*result.timing));

  for (size_t j = 0; j < outputTensors_.size(); ++j) {
    Tensor& t = context.tensors[outputTensors_[j]];
    const driver::OutputTensor* out = nullptr;
    for (const driver::OutputTensor& o : result.outputs) {
      if (t.name && o.name == t.name) out = &o;
    }
    if (!out && j < result.outputs.size()) out = &result.outputs[j];
    const std::string name = t.name ? t.name : std::to_string(outputTensors_[j]);
    if (!out) return label_ + ": the device returned no output for tensor '" + name + "'";
    // The Runner returns exactly the TFLite tensor's bytes (padding dropped), so any other size is a
    // mismatch between the executable's layer and the graph's tensor, not something to truncate.
    if (out->bytes.size() != t.bytes) {
      return label_ + ": the device returned " + std::to_string(out->bytes.size()) + " bytes for tensor '" + name +
             "', which holds " + std::to_string(t.bytes);
    }
    if (!t.data && t.bytes > 0) return label_ + ": output tensor '" + name + "' has no buffer";
    if (t.bytes > 0) std::memcpy(t.data, out->bytes.data(), t.bytes);
    if (out->computed == false && !warnedNotComputed_) {
      // The protocol rung moves the right number of bytes but does not compute them: say so
      // loudly once per node rather than hand the application numbers that look real.
      warnedNotComputed_ = true;
      log(0, label_ + ": output '" + name + "' was NOT COMPUTED (" + result.executionMode.value_or("protocol") +
                 " rung): register the model's CPU twin with the 'hle' option or CORALSIM_HLE=COMPILED=CPU");
    }
  }
  return "";
}

}  // namespace coralsim::libedgetpu
