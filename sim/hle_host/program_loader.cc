#include "sim/hle_host/program_loader.h"

#include <algorithm>

#include "driver/model/model_loader.h"
#include "driver/run/tensor_encoding.h"
#include "sim/hle_host/hle_graph.h"
#include "sim/hle_host/twin_tensor_match.h"

namespace coralsim::sim {
namespace {

using driver::BufferKind;
using driver::DmaDirection;
using driver::Executable;
using driver::ExecutableType;
using driver::Layer;
using driver::TfliteSubgraph;
using driver::TfliteTensor;

hle::ExecutableRole roleOf(ExecutableType type) {
  switch (type) {
    case ExecutableType::ParameterCaching: return hle::ExecutableRole::kParameterCaching;
    case ExecutableType::ExecutionOnly: return hle::ExecutableRole::kExecutionOnly;
    default: return hle::ExecutableRole::kStandAlone;
  }
}

uint64_t tensorBytesOf(const TfliteTensor& t) {
  uint64_t n = 1;
  for (int32_t d : t.shape) n *= d > 0 ? static_cast<uint64_t>(d) : 0;
  return n * driver::tfliteElementBytes(t.type).value_or(1);
}

// Everything one executable needs, with the files' names for messages.
class Binder {
 public:
  Binder(std::string pair, const TfliteSubgraph& compiledGraph, const TfliteSubgraph& twinGraph,
         const std::map<std::string, std::string>& overrides)
      : pair_(std::move(pair)), compiled_(compiledGraph), twin_(twinGraph), overrides_(overrides) {}

  hle::LayerBinding bind(const Layer& layer, const std::vector<int32_t>& opTensors, size_t position,
                         const std::string& role, const std::string& label) const {
    // The custom op tensor the layer stands for: the same name, else the same position (as the
    // driver's run plan pairs them).
    const TfliteTensor* tensor = nullptr;
    for (int32_t t : opTensors) {
      if (t >= 0 && static_cast<size_t>(t) < compiled_.tensors.size() && compiled_.tensors[t].name == layer.name) {
        tensor = &compiled_.tensors[t];
      }
    }
    if (!tensor && position < opTensors.size() && opTensors[position] >= 0 &&
        static_cast<size_t>(opTensors[position]) < compiled_.tensors.size()) {
      tensor = &compiled_.tensors[opTensors[position]];
    }
    if (!tensor) fail(label + ": " + role + " layer '" + layer.name + "' is not a tensor of the custom op");
    const TwinTensorMatch match = matchTwinTensor(*tensor, twin_.tensors, overrides_);
    if (match.index < 0) fail(role + " tensor of " + label + ": " + match.error);
    const int32_t twinIndex = match.index;
    const TfliteTensor& twinTensor = twin_.tensors[static_cast<size_t>(twinIndex)];
    const std::string& twinName = twinTensor.name;
    if (tensorBytesOf(twinTensor) != tensorBytesOf(*tensor)) {
      fail(role + " tensor '" + tensor->name + "': " + std::to_string(tensorBytesOf(*tensor)) +
           " bytes in the compiled model, twin tensor '" + twinName + "' has " + std::to_string(tensorBytesOf(twinTensor)));
    }
    hle::LayerBinding b;
    b.name = layer.name;
    b.layerBytes = static_cast<uint32_t>(std::max(layer.sizeBytes, 0));
    b.tensorBytes = static_cast<uint32_t>(tensorBytesOf(*tensor));
    b.twinTensor = twinIndex;
    b.twinName = twinName;
    b.bindingMethod = std::string(twinBindingMethodName(match.method));
    b.bindingNote = match.note;
    b.int8 = driver::flipsSignOnWire(tensor->type);
    b.yDim = layer.yDim;
    b.xDim = layer.xDim;
    b.zDim = layer.zDim;
    b.layout = layer.outputLayout;  // one type on both sides: usb::OutputLayout
    return b;
  }

  [[noreturn]] void fail(const std::string& what) const { throw HleProgramError(pair_ + ": " + what); }

 private:
  std::string pair_;
  const TfliteSubgraph& compiled_;
  const TfliteSubgraph& twin_;
  const std::map<std::string, std::string>& overrides_;
};

// Whether `segments` of layer `layer` cover all of its `size` bytes (overlaps allowed).
bool covers(const std::vector<hle::StreamSegment>& segments, size_t layer, uint64_t size) {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (const hle::StreamSegment& s : segments) {
    if (s.layer == layer) ranges.emplace_back(s.offset, static_cast<uint64_t>(s.offset) + s.size);
  }
  std::sort(ranges.begin(), ranges.end());
  uint64_t reached = 0;
  for (const auto& [begin, end] : ranges) {
    if (begin > reached) return false;
    reached = std::max(reached, end);
  }
  return reached >= size;
}

// The stream order of one direction: the DMA hints' segments when they cover every byte of every
// layer (large programs work in bands and re-read the rows a band shares with the previous one, so
// segments may overlap), else the layers one after the other (what a hint-less program must do).
std::vector<hle::StreamSegment> streamOrder(const Executable& exe, const std::vector<hle::LayerBinding>& layers,
                                            BufferKind kind, DmaDirection direction) {
  std::vector<hle::StreamSegment> fromHints;
  bool usable = exe.dmaHints.has_value();
  if (usable) {
    for (const driver::DmaHint& h : exe.dmaHints->hints) {
      if (h.kind != driver::HintKind::Dma || h.direction != direction || !h.buffer) continue;
      if (h.offset < 0 || h.size < 0) {
        usable = false;
        break;
      }
      if (h.buffer->kind == BufferKind::Scratch) {  // spills and read-backs share the streams
        fromHints.push_back({hle::StreamSegment::kScratch, static_cast<uint32_t>(h.offset), static_cast<uint32_t>(h.size)});
        continue;
      }
      if (h.buffer->kind != kind) continue;
      if (h.buffer->batch != 0) {
        usable = false;
        break;
      }
      auto it = std::find_if(layers.begin(), layers.end(), [&](const hle::LayerBinding& l) { return l.name == h.buffer->name; });
      if (it == layers.end()) {
        usable = false;
        break;
      }
      const size_t index = static_cast<size_t>(it - layers.begin());
      if (static_cast<uint64_t>(h.offset) + static_cast<uint64_t>(h.size) > it->layerBytes) {
        usable = false;
        break;
      }
      fromHints.push_back({index, static_cast<uint32_t>(h.offset), static_cast<uint32_t>(h.size)});
    }
  }
  for (size_t i = 0; usable && i < layers.size(); ++i) usable = covers(fromHints, i, layers[i].layerBytes);
  if (usable) return fromHints;
  std::vector<hle::StreamSegment> inOrder;
  for (size_t i = 0; i < layers.size(); ++i) inOrder.push_back({i, 0, layers[i].layerBytes});
  return inOrder;
}

}  // namespace

HleProgramSpec parseHleProgramSpec(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size() || text.find('=', eq + 1) != std::string_view::npos) {
    throw HleProgramError("--hle expects COMPILED.tflite=CPU.tflite (or auto with run), got '" + std::string(text) + "'");
  }
  HleProgramSpec spec;
  spec.compiled = std::string(text.substr(0, eq));
  spec.cpu = std::string(text.substr(eq + 1));
  return spec;
}

hle::Program registerHleProgram(const std::filesystem::path& compiledPath, const std::filesystem::path& cpuPath,
                                const std::map<std::string, std::string>& overrides,
                                const std::map<std::string, QuantPatch>& quantPatches) {
  const std::string pair = compiledPath.string() + " = " + cpuPath.string();
  const driver::ModelFile compiled = driver::loadModelFile(compiledPath);
  const driver::ModelFile cpu = driver::loadModelFile(cpuPath);
  if (!compiled.tflite || compiled.edgeTpuOps.empty()) {
    throw HleProgramError(pair + ": " + compiledPath.string() + " holds no edgetpu custom op (not a compiled model)");
  }
  if (!cpu.tflite || cpu.tflite->subgraphs.empty()) {
    throw HleProgramError(pair + ": " + cpuPath.string() + " is not a TFLite model with a graph");
  }
  if (!cpu.edgeTpuOps.empty()) {
    throw HleProgramError(pair + ": " + cpuPath.string() + " is itself compiled for the Edge TPU; give its CPU twin");
  }

  hle::Program program;
  program.name = pair;
  hle::Graph graph = hleGraphFromTflite(*cpu.tflite, 0);
  for (const auto& [name, patch] : quantPatches) {
    auto it = std::find_if(graph.tensors.begin(), graph.tensors.end(), [&](const hle::Tensor& t) { return t.name == name; });
    if (it == graph.tensors.end()) throw HleProgramError(pair + ": quantisation patch names tensor '" + name + "', which the twin does not have");
    if (it->scale.size() > 1) throw HleProgramError(pair + ": quantisation patch of per-channel tensor '" + name + "'");
    it->scale = {patch.scale};
    it->zeroPoint = {patch.zeroPoint};
  }
  program.graph = std::make_shared<const hle::Graph>(std::move(graph));
  const TfliteSubgraph& twinGraph = cpu.tflite->subgraphs[0];

  for (const driver::EdgeTpuCustomOp& op : compiled.edgeTpuOps) {
    const TfliteSubgraph& compiledGraph = compiled.tflite->subgraphs.at(static_cast<size_t>(op.subgraph));
    const Binder binder(pair, compiledGraph, twinGraph, overrides);
    for (size_t p = 0; p < op.packages.size(); ++p) {
      const auto& executables = op.packages[p].executables;
      for (size_t e = 0; e < executables.size(); ++e) {
        const Executable& exe = executables[e];
        hle::ProgramExecutable entry;
        entry.role = roleOf(exe.type);
        entry.label = "op " + std::to_string(op.opIndex) + " package " + std::to_string(p) + " executable " +
                      std::to_string(e) + " (" + std::string(hle::executableRoleName(entry.role)) + ")";
        for (const driver::InstructionBitstream& chunk : exe.bitstreams) {
          hle::ChunkSignature sig;
          sig.sizeBytes = static_cast<uint32_t>(chunk.bytes.size());
          for (const driver::FieldOffset& f : chunk.fieldOffsets) sig.linkedBits.push_back(f.offsetBit);
          std::sort(sig.linkedBits.begin(), sig.linkedBits.end());
          sig.hash = hle::maskedChunkHash(chunk.bytes, sig.linkedBits);
          entry.chunks.push_back(std::move(sig));
        }
        for (size_t i = 0; i < exe.inputLayers.size(); ++i) {
          entry.inputs.push_back(binder.bind(exe.inputLayers[i], op.inputs, i, "input", entry.label));
        }
        for (size_t i = 0; i < exe.outputLayers.size(); ++i) {
          entry.outputs.push_back(binder.bind(exe.outputLayers[i], op.outputs, i, "output", entry.label));
        }
        entry.inputStream = streamOrder(exe, entry.inputs, BufferKind::Input, DmaDirection::Infeed);
        entry.outputStream = streamOrder(exe, entry.outputs, BufferKind::Output, DmaDirection::Outfeed);
        program.executables.push_back(std::move(entry));
      }
    }
  }
  return program;
}

std::shared_ptr<const hle::ProgramRegistry> buildHleRegistry(const std::vector<HleProgramSpec>& specs) {
  std::vector<hle::Program> programs;
  for (const HleProgramSpec& s : specs) programs.push_back(registerHleProgram(s.compiled, s.cpu, s.overrides, s.quantPatches));
  return std::make_shared<const hle::ProgramRegistry>(std::move(programs));
}

}  // namespace coralsim::sim
