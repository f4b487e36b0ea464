#include "driver/model/model_text.h"

#include <cstdio>
#include <sstream>

#include "driver/model/hint_pattern.h"

namespace coralsim::driver {
namespace {

template <typename Enum>
std::string enumText(std::optional<std::string_view> name, Enum raw) {
  return name ? std::string(*name) : "?" + std::to_string(static_cast<int64_t>(raw));
}

std::string hex64(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// "[a, b, c, ... (n)]": long maps are shortened; `coralsim inspect --json` prints them whole.
template <typename T>
std::string list(const std::vector<T>& v, size_t limit = 16) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < v.size() && i < limit; ++i) os << (i ? ", " : "") << v[i];
  if (v.size() > limit) os << ", ... (" << v.size() << ")";
  os << ']';
  return os.str();
}

std::string bufferText(const std::optional<BufferRef>& ref) {
  if (!ref) return "(no meta)";
  std::string s = enumText(bufferKindShortName(ref->kind), ref->kind);
  if (!ref->name.empty()) s += " '" + ref->name + "'";
  if (ref->batch != 0) s += " batch " + std::to_string(ref->batch);
  return s;
}

void printTensor(std::ostream& os, const char* role, const TfliteTensor& t) {
  os << "    " << role << " '" << t.name << "' " << enumText(tfliteTensorTypeName(t.type), t.type) << ' '
     << list(t.shape);
  if (!t.scale.empty()) os << " scale " << list(t.scale, 4) << " zero point " << list(t.zeroPoint, 4);
  if (t.scale.size() > 1) os << " (per channel along dimension " << t.quantizedDimension << ")";
  os << '\n';
}

void printLayer(std::ostream& os, const char* role, const Layer& l) {
  os << "      " << role << " '" << l.name << "': y " << l.yDim << " x " << l.xDim << " z " << l.zDim << ", "
     << l.sizeBytes << " bytes, " << enumText(layerDataTypeName(l.dataType), l.dataType);
  if (l.numerics) os << ", zero point " << l.numerics->zeroPoint << " scale " << l.numerics->dequantizationFactor;
  if (l.executionCountPerInference != 1) os << ", runs " << l.executionCountPerInference << "x per inference";
  if (l.cacheOnDram) os << ", cached on DRAM";
  if (l.shape) {
    os << ", shape";
    for (const auto& r : *l.shape) os << " [" << r.start << ".." << r.end << "]";
  }
  os << '\n';
  if (l.outputLayout) {
    const auto& o = *l.outputLayout;
    os << "        output layout: y->tile " << list(o.yCoordinateToLinearTileId) << ", x->tile "
       << list(o.xCoordinateToLinearTileId) << "\n"
       << "          tile byte offsets " << list(o.linearizedTileByteOffset) << "\n"
       << "          x->local byte offset " << list(o.xCoordinateToLocalByteOffset) << ", y->local y offset "
       << list(o.yCoordinateToLocalYOffset) << ", x->row size " << list(o.xCoordinateToLocalYRowSize) << '\n';
  }
  if (l.outputShapeInfo) os << "        output in " << l.outputShapeInfo->sliceLayouts.size() << " slices\n";
}

void printExecutable(std::ostream& os, size_t index, const Executable& e) {
  os << "    executable " << index << ": " << enumText(executableTypeName(e.type), e.type) << " '" << e.name
     << "' chip '" << e.chip << "' version " << e.version << " batch " << e.batchSize << '\n';
  os << "      parameter caching token " << hex64(e.parameterCachingToken)
     << (e.useTpuDramForParameters ? ", parameters in TPU DRAM" : "") << '\n';
  os << "      estimated cycles " << e.estimatedCycles << " (64-bit field " << e.estimatedCycles64
     << "), narrow memory " << e.usedNarrowMemoryBytesPerTile << " bytes/tile, scratch " << e.scratchSizeBytes
     << " bytes, parameters " << e.parameters.size() << " bytes\n";
  for (size_t j = 0; j < e.bitstreams.size(); ++j) {
    const auto& b = e.bitstreams[j];
    os << "      instruction chunk " << j << ": " << b.bytes.size() << " bytes = " << b.bytes.size() / 16
       << " words, " << b.fieldOffsets.size() << " field offsets\n";
    for (const auto& fo : b.fieldOffsets) {
      os << "        bit " << fo.offsetBit << " (word " << fo.offsetBit / 128 << " bit " << fo.offsetBit % 128
         << ") <- " << bufferText(fo.target);
      if (fo.target) os << ' ' << enumText(addressHalfName(fo.target->half), fo.target->half);
      os << '\n';
    }
  }
  if (e.dmaHints) {
    const HintPattern p = describeHintPattern(e.dmaHints);
    os << "      DMA hints (" << e.dmaHints->hints.size() << ", "
       << (e.dmaHints->fullyDeterministic ? "fully deterministic" : "not deterministic") << ", " << p.kind
       << "): " << p.pattern << '\n';
    for (const auto& h : e.dmaHints->hints) {
      os << "        " << dmaDirectionName(h.direction) << ' ';
      switch (h.kind) {
        case HintKind::Dma:
          os << "DMA " << bufferText(h.buffer) << " bytes [" << h.offset << ", +" << h.size << ")";
          break;
        case HintKind::Instruction:
          os << "instruction chunk " << h.chunk;
          break;
        case HintKind::Interrupt:
          os << "interrupt " << enumText(interruptTypeName(h.interrupt), h.interrupt);
          break;
        case HintKind::Fence:
          os << "fence";
          break;
        case HintKind::Unknown:
          os << "unknown hint (union type " << static_cast<int>(h.unionType) << ")";
          break;
      }
      os << '\n';
    }
  } else {
    os << "      no DMA hints\n";
  }
  for (const auto& l : e.inputLayers) printLayer(os, "input ", l);
  for (const auto& l : e.outputLayers) printLayer(os, "output", l);
}

void printPackage(std::ostream& os, const Package& p) {
  if (p.legacyBareExecutable) {
    os << "  bare executable (legacy layout, key " << p.flexKey << ")\n";
  } else {
    os << "  package" << (p.flexKey.empty() ? "" : " (key " + p.flexKey + ")") << " " << p.fileIdentifier
       << ": compiler '" << p.compilerVersion << "', min runtime " << p.minRuntimeVersion << ", signature "
       << p.signature.size() << " bytes, keypair " << p.keypairVersion << ", virtual chip " << p.virtualChipId
       << ", model identifier '" << p.modelIdentifier << "'\n";
  }
  for (size_t i = 0; i < p.executables.size(); ++i) printExecutable(os, i, p.executables[i]);
}

std::string flexText(const FlexValue& v) {
  switch (v.type) {
    case FlexValue::Type::Null:
      return "null";
    case FlexValue::Type::Int:
      return std::to_string(v.intValue);
    case FlexValue::Type::UInt:
      return std::to_string(v.uintValue);
    case FlexValue::Type::Float: {
      std::ostringstream os;
      os << v.floatValue;
      return os.str();
    }
    case FlexValue::Type::Bool:
      return v.boolValue ? "true" : "false";
    case FlexValue::Type::Key:
      return "'" + v.text + "'";
    case FlexValue::Type::String:
      return v.byteSize <= 64 ? "'" + v.text + "'" : "string[" + std::to_string(v.byteSize) + "]";
    case FlexValue::Type::Blob:
      return "blob[" + std::to_string(v.byteSize) + "]";
    case FlexValue::Type::Vector: {
      std::string s = "[";
      for (size_t i = 0; i < v.elements.size(); ++i) s += (i ? ", " : "") + flexText(v.elements[i]);
      return s + "]";
    }
    case FlexValue::Type::Map: {
      std::string s = "{";
      for (size_t i = 0; i < v.keys.size(); ++i) s += (i ? ", " : "") + v.keys[i] + ": " + flexText(v.elements[i]);
      return s + "}";
    }
    case FlexValue::Type::Unsupported:
      break;
  }
  return "(FlexBuffer type " + std::to_string(v.rawType) + ")";
}

void printTflite(std::ostream& os, const ModelFile& m) {
  const TfliteModel& tfl = *m.tflite;
  os << "  TFLite schema version " << tfl.version << ", description '" << tfl.description << "', "
     << tfl.buffers.size() << " buffers\n";
  for (size_t s = 0; s < tfl.subgraphs.size(); ++s) {
    const auto& sg = tfl.subgraphs[s];
    os << "  subgraph " << s << " '" << sg.name << "': " << sg.tensors.size() << " tensors, " << sg.operators.size()
       << " operators\n    operators:";
    for (const auto& op : sg.operators) os << ' ' << op.name;
    os << '\n';
    for (int32_t t : sg.inputs) printTensor(os, "input ", sg.tensors[static_cast<size_t>(t)]);
    for (int32_t t : sg.outputs) printTensor(os, "output", sg.tensors[static_cast<size_t>(t)]);
  }
  os << "  ops left on the CPU:";
  if (tfl.cpuOps.empty()) os << " (none)";
  for (const auto& name : tfl.cpuOps) os << ' ' << name;
  os << '\n';
  for (size_t i = 0; i < m.edgeTpuOps.size(); ++i) {
    const auto& op = m.edgeTpuOps[i];
    os << "  edgetpu custom op " << i << " (subgraph " << op.subgraph << ", operator " << op.opIndex
       << "): custom_options " << op.customOptionsBytes << " bytes " << flexText(op.options) << '\n';
    for (const auto& p : op.packages) printPackage(os, p);
  }
}

}  // namespace

void writeModelText(const ModelFile& model, std::ostream& os) {
  os << model.path << ": " << modelKindName(model.kind) << ", " << model.sizeBytes << " bytes\n";
  switch (model.kind) {
    case ModelKind::Tflite:
      printTflite(os, model);
      break;
    case ModelKind::DarwinnPackage:
      for (const auto& p : model.packages) printPackage(os, p);
      break;
    case ModelKind::DarwinnExecutable:
      for (size_t i = 0; i < model.executables.size(); ++i) printExecutable(os, i, model.executables[i]);
      break;
    case ModelKind::RawBitstream:
      os << "  raw instruction stream: " << model.rawBitstream->bytes.size() / 16 << " words of 16 bytes\n";
      break;
  }
}

}  // namespace coralsim::driver
