#include "driver/model/model_json.h"

#include <algorithm>

#include "driver/model/hint_pattern.h"
#include "traces/json_writer.h"

namespace coralsim::driver {
namespace {

using traces::JsonWriter;

// darwinn_dump prints an enumeration by name and falls back to the raw number.
template <typename Enum>
void writeEnum(JsonWriter& w, std::optional<std::string_view> name, Enum raw) {
  if (name) {
    w.value(*name);
  } else {
    w.value(static_cast<int64_t>(raw));
  }
}

template <typename T>
void writeArray(JsonWriter& w, const std::vector<T>& v, size_t limit = SIZE_MAX) {
  w.beginArray();
  for (size_t i = 0; i < v.size() && i < limit; ++i) w.value(v[i]);
  w.endArray();
}

// The first four entries and a "..." marker, as darwinn_dump abbreviates per-channel quantisation.
template <typename T>
void writeAbbreviated(JsonWriter& w, const std::vector<T>& v) {
  w.beginArray();
  for (size_t i = 0; i < v.size() && i < 4; ++i) w.value(v[i]);
  if (v.size() > 4) w.value("...");
  w.endArray();
}

void writeTensor(JsonWriter& w, const TfliteTensor& t) {
  w.beginObject();
  w.field("name", t.name);
  w.key("shape");
  writeArray(w, t.shape);
  w.key("type");
  writeEnum(w, tfliteTensorTypeName(t.type), t.type);
  w.key("scale");
  writeAbbreviated(w, t.scale);
  w.key("zero_point");
  writeAbbreviated(w, t.zeroPoint);
  w.field("n_quant_channels", t.scale.size());
  w.field("quantized_dimension", t.quantizedDimension);
  w.field("buffer", t.buffer);
  w.endObject();
}

void writeTensors(JsonWriter& w, const TfliteSubgraph& sg, const std::vector<int32_t>& indices) {
  w.beginArray();
  for (int32_t i : indices) {
    if (i >= 0) writeTensor(w, sg.tensors[static_cast<size_t>(i)]);
  }
  w.endArray();
}

// A custom_options value the way darwinn_dump shows it: blobs and strings as "blob[size]".
void writeFlex(JsonWriter& w, const FlexValue& v) {
  switch (v.type) {
    case FlexValue::Type::Null:
      w.null();
      break;
    case FlexValue::Type::Int:
      w.value(v.intValue);
      break;
    case FlexValue::Type::UInt:
      w.value(v.uintValue);
      break;
    case FlexValue::Type::Float:
      w.value(v.floatValue);
      break;
    case FlexValue::Type::Bool:
      w.value(v.boolValue);
      break;
    case FlexValue::Type::Key:
      w.value(v.text);
      break;
    case FlexValue::Type::String:
    case FlexValue::Type::Blob:
      w.value("blob[" + std::to_string(v.byteSize) + "]");
      break;
    case FlexValue::Type::Vector:
      w.beginArray();
      for (const auto& e : v.elements) writeFlex(w, e);
      w.endArray();
      break;
    case FlexValue::Type::Map:
      w.beginObject();
      for (size_t i = 0; i < v.keys.size(); ++i) {
        w.key(v.keys[i]);
        writeFlex(w, v.elements[i]);
      }
      w.endObject();
      break;
    case FlexValue::Type::Unsupported:
      w.value("unknown_type_" + std::to_string(v.rawType));
      break;
  }
}

void writeBufferRef(JsonWriter& w, const std::optional<BufferRef>& ref, bool withPosition) {
  w.key("desc");
  if (ref) {
    writeEnum(w, bufferKindShortName(ref->kind), ref->kind);
  } else {
    w.null();
  }
  w.key("name");
  ref ? w.value(ref->name) : w.null();
  if (!withPosition) return;
  w.key("batch");
  ref ? w.value(ref->batch) : w.null();
  w.key("position");
  if (ref) {
    writeEnum(w, addressHalfName(ref->half), ref->half);
  } else {
    w.null();
  }
}

void writeBitstream(JsonWriter& w, const InstructionBitstream& b) {
  w.beginObject();
  w.field("bytes", b.bytes.size());
  w.field("instructions_16B", b.bytes.size() / 16);
  w.key("field_offsets").beginArray();
  for (const auto& fo : b.fieldOffsets) {
    w.beginObject();
    writeBufferRef(w, fo.target, true);
    w.field("offset_bit", fo.offsetBit);
    w.endObject();
  }
  w.endArray();
  w.endObject();
}

void writeHint(JsonWriter& w, const DmaHint& h) {
  w.beginObject();
  const auto kind = hintKindName(h.kind);
  w.field("kind", kind ? std::string(*kind) : "unknown" + std::to_string(h.unionType));
  w.field("dir", dmaDirectionName(h.direction));
  switch (h.kind) {
    case HintKind::Dma:
      writeBufferRef(w, h.buffer, false);
      w.field("offset", h.offset);
      w.field("size", h.size);
      break;
    case HintKind::Instruction:
      w.field("chunk", h.chunk);
      break;
    case HintKind::Interrupt:
      w.key("type");
      writeEnum(w, interruptTypeName(h.interrupt), h.interrupt);
      break;
    case HintKind::Fence:
    case HintKind::Unknown:
      break;
  }
  w.endObject();
}

void writeShape(JsonWriter& w, const std::vector<DimensionRange>& shape) {
  w.beginArray();
  for (const auto& r : shape) w.beginArray().value(r.start).value(r.end).endArray();
  w.endArray();
}

void writeOutputLayout(JsonWriter& w, const OutputLayout& l) {
  // darwinn_dump's summary: map lengths and the first 16 tile offsets.
  w.key("output_layout").beginObject();
  w.field("y_to_tile", l.yCoordinateToLinearTileId.size());
  w.field("x_to_tile", l.xCoordinateToLinearTileId.size());
  w.field("n_tiles_with_output", l.linearizedTileByteOffset.size());
  w.key("linearized_tile_byte_offset");
  writeArray(w, l.linearizedTileByteOffset, 16);
  w.endObject();
  // Everything, under the schema's names.
  w.key("output_layout_full").beginObject();
  w.key("y_coordinate_to_linear_tile_id");
  writeArray(w, l.yCoordinateToLinearTileId);
  w.key("x_coordinate_to_linear_tile_id");
  writeArray(w, l.xCoordinateToLinearTileId);
  w.key("linearized_tile_byte_offset");
  writeArray(w, l.linearizedTileByteOffset);
  w.key("x_coordinate_to_local_byte_offset");
  writeArray(w, l.xCoordinateToLocalByteOffset);
  w.key("y_coordinate_to_local_y_offset");
  writeArray(w, l.yCoordinateToLocalYOffset);
  w.key("x_coordinate_to_local_y_row_size");
  writeArray(w, l.xCoordinateToLocalYRowSize);
  w.endObject();
}

void writeLayer(JsonWriter& w, const Layer& l) {
  w.beginObject();
  w.field("name", l.name);
  w.field("size_bytes", l.sizeBytes);
  w.field("y_dim", l.yDim);
  w.field("x_dim", l.xDim);
  w.field("z_dim", l.zDim);
  w.key("zero_point");
  l.numerics ? w.value(l.numerics->zeroPoint) : w.null();
  w.key("dequantization_factor");
  l.numerics ? w.value(l.numerics->dequantizationFactor) : w.null();
  w.key("data_type");
  writeEnum(w, layerDataTypeName(l.dataType), l.dataType);
  w.field("kind", layerKindName(l.kind));
  w.field("execution_count_per_inference", l.executionCountPerInference);
  w.field("cache_on_dram", l.cacheOnDram);
  w.key("shape");
  l.shape ? writeShape(w, *l.shape) : static_cast<void>(w.null());
  if (l.kind == LayerKind::Output) {
    if (l.outputLayout) writeOutputLayout(w, *l.outputLayout);
    if (l.outputShapeInfo) {
      w.field("shape_info_slices", l.outputShapeInfo->sliceLayouts.size());
      w.key("shape_info").beginObject();
      w.key("slice_layouts").beginArray();
      for (const auto& s : l.outputShapeInfo->sliceLayouts) writeShape(w, s);
      w.endArray();
      w.key("slice_offsets");
      writeArray(w, l.outputShapeInfo->sliceOffsets);
      w.endObject();
    }
  }
  w.endObject();
}

void writeExecutable(JsonWriter& w, const Executable& e) {
  w.beginObject();
  w.field("version", e.version);
  w.field("name", e.name);
  w.field("serialized_model_bytes", e.serializedModel.size());
  w.field("batch_size", e.batchSize);
  w.field("scratch_size_bytes", e.scratchSizeBytes);
  w.field("chip", e.chip);
  w.field("estimated_cycles", e.estimatedCycles);
  w.field("used_narrow_memory_bytes_per_tile", e.usedNarrowMemoryBytesPerTile);
  w.key("type");
  writeEnum(w, executableTypeName(e.type), e.type);
  w.field("parameter_caching_token", e.parameterCachingToken);
  w.field("use_tpu_dram_for_parameters", e.useTpuDramForParameters);
  w.field("estimated_cycles_64bit", e.estimatedCycles64);
  w.key("instruction_bitstreams").beginArray();
  for (const auto& b : e.bitstreams) writeBitstream(w, b);
  w.endArray();
  w.field("parameters_bytes", e.parameters.size());
  w.key("dma_hints");
  if (e.dmaHints) {
    w.beginObject();
    w.field("fully_deterministic", e.dmaHints->fullyDeterministic);
    w.key("hints").beginArray();
    for (const auto& h : e.dmaHints->hints) writeHint(w, h);
    w.endArray();
    w.endObject();
  } else {
    w.null();
  }
  const HintPattern pattern = describeHintPattern(e.dmaHints);
  w.field("dma_pattern", pattern.pattern);
  w.field("dma_kind", pattern.kind);
  w.key("input_layers").beginArray();
  for (const auto& l : e.inputLayers) writeLayer(w, l);
  w.endArray();
  w.key("output_layers").beginArray();
  for (const auto& l : e.outputLayers) writeLayer(w, l);
  w.endArray();
  w.field("serialized_bytes", e.serializedBytes);
  w.endObject();
}

void writePackage(JsonWriter& w, const Package& p, bool withFlexKey) {
  w.beginObject();
  w.field("file_identifier", p.fileIdentifier);
  w.field("min_runtime_version", p.minRuntimeVersion);
  w.field("signature_bytes", p.signature.size());
  w.field("keypair_version", p.keypairVersion);
  // A legacy bare executable has no package fields at all.
  w.key("compiler_version");
  p.legacyBareExecutable ? w.null() : w.value(p.compilerVersion);
  w.field("virtual_chip_id", p.virtualChipId);
  w.field("multi_chip_packages", p.multiChipPackage.size());
  w.key("model_identifier");
  p.legacyBareExecutable ? w.null() : w.value(p.modelIdentifier);
  w.key("executables").beginArray();
  for (const auto& e : p.executables) writeExecutable(w, e);
  w.endArray();
  if (withFlexKey) w.field("flex_key", p.flexKey);
  w.endObject();
}

void writeEdgeTpuOp(JsonWriter& w, const EdgeTpuCustomOp& op, const TfliteModel& tfl) {
  w.beginObject();
  w.field("custom_options_bytes", op.customOptionsBytes);
  // Keys sorted like Python's sorted(): byte-wise.
  std::vector<size_t> order(op.options.keys.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return op.options.keys[a] < op.options.keys[b]; });
  w.key("flex_keys").beginArray();
  for (size_t i : order) w.value(op.options.keys[i]);
  w.endArray();
  for (size_t i : order) {
    const auto& key = op.options.keys[i];
    const auto& value = op.options.elements[i];
    w.key("key_" + key);
    // Key "2" is the chip name of old files: shown as text.
    if (key == "2" && value.type == FlexValue::Type::String) {
      w.value(value.text);
    } else {
      writeFlex(w, value);
    }
  }
  w.key("packages").beginArray();
  for (const auto& p : op.packages) writePackage(w, p, true);
  w.endArray();
  w.field("subgraph", op.subgraph);
  w.field("op_index", op.opIndex);
  const auto& sg = tfl.subgraphs[static_cast<size_t>(op.subgraph)];
  w.key("op_inputs");
  writeTensors(w, sg, op.inputs);
  w.key("op_outputs");
  writeTensors(w, sg, op.outputs);
  w.endObject();
}

void writeTflite(JsonWriter& w, const ModelFile& m) {
  const TfliteModel& tfl = *m.tflite;
  w.field("tflite_version", tfl.version);
  w.field("description", tfl.description);
  w.key("subgraphs").beginArray();
  for (const auto& sg : tfl.subgraphs) {
    w.beginObject();
    w.field("name", sg.name);
    w.field("n_tensors", sg.tensors.size());
    w.key("inputs");
    writeTensors(w, sg, sg.inputs);
    w.key("outputs");
    writeTensors(w, sg, sg.outputs);
    w.key("ops").beginArray();
    for (const auto& op : sg.operators) w.value(op.name);
    w.endArray();
    w.endObject();
  }
  w.endArray();
  w.key("edgetpu_ops").beginArray();
  for (const auto& op : m.edgeTpuOps) writeEdgeTpuOp(w, op, tfl);
  w.endArray();
  w.key("cpu_ops");
  writeArray(w, tfl.cpuOps);
  w.field("n_edgetpu_ops", m.edgeTpuOps.size());
}

}  // namespace

void writeModelJson(const ModelFile& model, std::ostream& out, int indent) {
  JsonWriter w(out, indent);
  w.beginObject();
  w.field("file", model.path);
  w.field("size", model.sizeBytes);
  w.field("kind", modelKindName(model.kind));
  switch (model.kind) {
    case ModelKind::Tflite:
      writeTflite(w, model);
      break;
    case ModelKind::DarwinnPackage:
      w.key("packages").beginArray();
      for (const auto& p : model.packages) writePackage(w, p, false);
      w.endArray();
      break;
    case ModelKind::DarwinnExecutable:
      w.key("executables").beginArray();
      for (const auto& e : model.executables) writeExecutable(w, e);
      w.endArray();
      break;
    case ModelKind::RawBitstream:
      w.field("instructions_16B", model.rawBitstream->bytes.size() / 16);
      w.key("instruction_bitstreams").beginArray();
      writeBitstream(w, *model.rawBitstream);
      w.endArray();
      break;
  }
  w.endObject();
}

}  // namespace coralsim::driver
