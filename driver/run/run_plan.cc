#include "driver/run/run_plan.h"

#include <filesystem>

#include "driver/run/run_error.h"
#include "driver/run/tensor_encoding.h"

namespace coralsim::driver {
namespace {

std::string executableLabel(const std::string& prefix, size_t index, const Executable& e) {
  std::string s = prefix + "executable " + std::to_string(index) + " (" +
                  std::string(executableTypeName(e.type).value_or("type " + std::to_string(static_cast<int>(e.type))));
  if (!e.name.empty()) s += " '" + e.name + "'";
  return s + ")";
}

PlanUnit planPackage(const std::string& prefix, const std::vector<Executable>& executables) {
  PlanUnit unit;
  unit.label = prefix.empty() ? "package" : prefix.substr(0, prefix.size() - 1);
  for (size_t i = 0; i < executables.size(); ++i) {
    const Executable& e = executables[i];
    PlannedExecutable p{&e, executableLabel(prefix, i, e)};
    if (e.type == ExecutableType::ParameterCaching && !unit.parameterCaching) {
      unit.parameterCaching = p;
    } else {
      unit.programs.push_back(p);
    }
  }
  return unit;
}

// The TFLite tensor an executable layer stands for: same name among the op's tensors, else the
// same position.
const TfliteTensor* matchTensor(const TfliteSubgraph* sg, const std::vector<int32_t>& opTensors, const Layer& layer,
                                size_t position) {
  if (!sg) return nullptr;
  for (int32_t t : opTensors) {
    if (t >= 0 && static_cast<size_t>(t) < sg->tensors.size() && sg->tensors[t].name == layer.name) return &sg->tensors[t];
  }
  if (position < opTensors.size()) {
    const int32_t t = opTensors[position];
    if (t >= 0 && static_cast<size_t>(t) < sg->tensors.size()) return &sg->tensors[t];
  }
  return nullptr;
}

TensorSpec specFor(const Layer& layer, const TfliteTensor* tensor) {
  TensorSpec s;
  s.name = layer.name;
  s.deviceBytes = layer.sizeBytes > 0 ? static_cast<uint64_t>(layer.sizeBytes) : 0;
  s.sizeBytes = s.deviceBytes;
  if (tensor) {
    s.type = tensor->type;
    s.typeName = std::string(tfliteTensorTypeName(tensor->type).value_or("type " + std::to_string(tensor->type)));
    s.flipsSign = flipsSignOnWire(tensor->type);
    s.shape = tensor->shape;
    const auto elem = tfliteElementBytes(tensor->type);
    uint64_t elements = tensor->shape.empty() ? 0 : 1;
    for (int32_t d : tensor->shape) elements *= d > 0 ? static_cast<uint64_t>(d) : 0;
    if (elem && elements > 0) s.sizeBytes = elements * *elem;
  } else {
    s.typeName = std::string(layerDataTypeName(layer.dataType).value_or("bytes"));
  }
  return s;
}

void addUnique(std::vector<TensorSpec>& list, TensorSpec spec) {
  for (const auto& s : list) {
    if (s.name == spec.name) return;
  }
  list.push_back(std::move(spec));
}

void addTensors(RunPlan& plan, const PlanUnit& unit, const TfliteSubgraph* sg, const std::vector<int32_t>& opInputs,
                const std::vector<int32_t>& opOutputs) {
  for (const PlannedExecutable& p : unit.programs) {
    const auto& in = p.executable->inputLayers;
    for (size_t i = 0; i < in.size(); ++i) {
      // An input an earlier package produced is fed from its output, not by the caller.
      if (plan.findOutput(in[i].name)) continue;
      addUnique(plan.inputs, specFor(in[i], matchTensor(sg, opInputs, in[i], i)));
    }
  }
  for (const PlannedExecutable& p : unit.programs) {
    const auto& out = p.executable->outputLayers;
    for (size_t i = 0; i < out.size(); ++i) addUnique(plan.outputs, specFor(out[i], matchTensor(sg, opOutputs, out[i], i)));
  }
}

}  // namespace

const TensorSpec* RunPlan::findInput(const std::string& name) const {
  for (const auto& s : inputs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const TensorSpec* RunPlan::findOutput(const std::string& name) const {
  for (const auto& s : outputs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

RunPlan planRun(const ModelFile& model) {
  RunPlan plan;
  plan.model = model.path;
  switch (model.kind) {
    case ModelKind::Tflite:
      for (size_t o = 0; o < model.edgeTpuOps.size(); ++o) {
        const EdgeTpuCustomOp& op = model.edgeTpuOps[o];
        const TfliteSubgraph* sg = nullptr;
        if (model.tflite && op.subgraph >= 0 && static_cast<size_t>(op.subgraph) < model.tflite->subgraphs.size()) {
          sg = &model.tflite->subgraphs[op.subgraph];
        }
        for (size_t p = 0; p < op.packages.size(); ++p) {
          PlanUnit unit = planPackage("op " + std::to_string(o) + " package " + std::to_string(p) + " ",
                                      op.packages[p].executables);
          addTensors(plan, unit, sg, op.inputs, op.outputs);
          plan.units.push_back(std::move(unit));
        }
      }
      break;
    case ModelKind::DarwinnPackage:
      for (const Package& pkg : model.packages) {
        PlanUnit unit = planPackage("", pkg.executables);
        addTensors(plan, unit, nullptr, {}, {});
        plan.units.push_back(std::move(unit));
      }
      break;
    case ModelKind::DarwinnExecutable: {
      PlanUnit unit = planPackage("", model.executables);
      addTensors(plan, unit, nullptr, {}, {});
      plan.units.push_back(std::move(unit));
      break;
    }
    case ModelKind::RawBitstream: {
      if (!model.rawBitstream) break;
      auto exe = std::make_shared<Executable>();
      exe->name = std::filesystem::path(model.path).filename().string();
      exe->type = ExecutableType::StandAlone;
      exe->bitstreams.push_back(*model.rawBitstream);
      plan.rawProgram = true;
      plan.synthesized = exe;
      PlanUnit unit;
      unit.label = "raw program";
      unit.programs.push_back({exe.get(), "raw program '" + exe->name + "'"});
      plan.units.push_back(std::move(unit));
      for (const char* stream : {kRawInputStream, kRawParameterStream}) {
        TensorSpec s;
        s.name = stream;
        s.typeName = "bytes";
        s.optional = true;
        plan.inputs.push_back(std::move(s));
      }
      break;
    }
  }
  bool any = false;
  for (const auto& u : plan.units) any = any || u.parameterCaching || !u.programs.empty();
  if (!any) {
    throw RunError(model.path + ": nothing runs on the Edge TPU (no edgetpu custom op with an executable)");
  }
  return plan;
}

}  // namespace coralsim::driver
