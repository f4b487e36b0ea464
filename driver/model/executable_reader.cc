#include "driver/model/executable_reader.h"

#include "driver/model/flatbuffer_access.h"
#include "driver/model/schema/executable_generated.h"

namespace coralsim::driver {
namespace fb = coralsim::fbs::darwinn;
using detail::copyBytes;
using detail::copyString;
using detail::copyVector;

namespace {

constexpr size_t kWordBytes = 16;  // one instruction word

std::optional<BufferRef> readBufferRef(const fb::FieldOffsetMeta* meta) {
  if (!meta) return std::nullopt;
  BufferRef ref;
  ref.kind = static_cast<BufferKind>(meta->desc());
  ref.batch = meta->batch();
  ref.name = copyString(meta->name());
  ref.half = static_cast<AddressHalf>(meta->position());
  return ref;
}

InstructionBitstream readBitstream(const fb::InstructionBitstream& in, const Where& where) {
  InstructionBitstream out;
  out.bytes = copyBytes(in.bitstream());
  if (out.bytes.size() % kWordBytes != 0) {
    where.fail(std::to_string(out.bytes.size()) + " bytes is not a whole number of 16-byte instruction words");
  }
  const int64_t bits = static_cast<int64_t>(out.bytes.size()) * 8;
  if (const auto* offsets = in.field_offsets()) {
    for (flatbuffers::uoffset_t i = 0; i < offsets->size(); ++i) {
      const auto* fo = offsets->Get(i);
      FieldOffset f;
      f.target = readBufferRef(fo->meta());
      f.offsetBit = fo->offset_bit();
      // Linking writes 32 bits at offsetBit; the whole field must lie inside the chunk.
      if (f.offsetBit < 0 || f.offsetBit + int64_t{32} > bits) {
        where.fail("field_offsets[" + std::to_string(i) + "]: offset_bit " + std::to_string(f.offsetBit) +
                   " does not leave room for a 32-bit field in " + std::to_string(out.bytes.size()) + " bytes");
      }
      out.fieldOffsets.push_back(std::move(f));
    }
  }
  return out;
}

DmaHint readHint(const fb::DmaHint& in) {
  DmaHint out;
  out.unionType = static_cast<uint8_t>(in.any_hint_type());
  out.direction = in.direction() == 0 ? DmaDirection::Infeed : DmaDirection::Outfeed;
  switch (in.any_hint_type()) {
    case fb::AnyHint_DmaDescriptorHint:
      if (const auto* h = in.any_hint_as_DmaDescriptorHint()) {
        out.kind = HintKind::Dma;
        out.buffer = readBufferRef(h->meta());
        out.offset = h->offset_in_bytes();
        out.size = h->size_in_bytes();
      }
      break;
    case fb::AnyHint_InstructionHint:
      if (const auto* h = in.any_hint_as_InstructionHint()) {
        out.kind = HintKind::Instruction;
        out.chunk = h->instruction_bitstream_index();
      }
      break;
    case fb::AnyHint_InterruptHint:
      if (const auto* h = in.any_hint_as_InterruptHint()) {
        out.kind = HintKind::Interrupt;
        out.interrupt = static_cast<InterruptType>(h->type());
      }
      break;
    case fb::AnyHint_FenceHint:
      out.kind = HintKind::Fence;  // carries no data; its table may be left out
      break;
    default:
      break;  // Unknown: reported with its union type
  }
  return out;
}

// The runner trusts these: a hint names an existing chunk, and parameter blocks lie inside the
// parameters. (Activation and scratch blocks are checked against buffers the runner allocates.)
void checkHint(const DmaHint& h, const Executable& exe, const Where& where) {
  if (h.kind == HintKind::Instruction &&
      (h.chunk < 0 || static_cast<size_t>(h.chunk) >= exe.bitstreams.size())) {
    where.fail("instruction_bitstream_index " + std::to_string(h.chunk) + " names no chunk (executable has " +
               std::to_string(exe.bitstreams.size()) + ")");
  }
  if (h.kind != HintKind::Dma) return;
  if (h.offset < 0 || h.size < 0) {
    where.fail("negative DMA block (offset " + std::to_string(h.offset) + ", size " + std::to_string(h.size) + ")");
  }
  if (h.buffer && h.buffer->kind == BufferKind::Parameter &&
      static_cast<uint64_t>(h.offset) + static_cast<uint64_t>(h.size) > exe.parameters.size()) {
    where.fail("parameter block [" + std::to_string(h.offset) + ", +" + std::to_string(h.size) +
               ") runs past the " + std::to_string(exe.parameters.size()) + " parameter bytes");
  }
}

std::vector<DimensionRange> readShape(const fb::TensorShape& shape) {
  std::vector<DimensionRange> out;
  if (const auto* dims = shape.dimensions()) {
    for (const auto* r : *dims) out.push_back({r->start(), r->end()});
  }
  return out;
}

Layer readLayer(const fb::Layer& in, const Where& where) {
  Layer out;
  out.name = copyString(in.name());
  out.sizeBytes = in.size_bytes();
  out.yDim = in.y_dim();
  out.xDim = in.x_dim();
  out.zDim = in.z_dim();
  if (out.sizeBytes < 0 || out.yDim < 0 || out.xDim < 0 || out.zDim < 0) {
    where.fail("negative size or dimension (size_bytes " + std::to_string(out.sizeBytes) + ", y/x/z " +
               std::to_string(out.yDim) + "/" + std::to_string(out.xDim) + "/" + std::to_string(out.zDim) + ")");
  }
  if (const auto* n = in.numerics()) out.numerics = Numerics{n->zero_point(), n->dequantization_factor()};
  out.dataType = static_cast<LayerDataType>(in.data_type());
  switch (in.any_layer_type()) {
    case fb::AnyLayer_OutputLayer:
      out.kind = LayerKind::Output;
      break;
    case fb::AnyLayer_InputLayer:
      out.kind = LayerKind::Input;
      break;
    default:
      out.kind = LayerKind::None;
      break;
  }
  out.executionCountPerInference = in.execution_count_per_inference();
  out.cacheOnDram = in.cache_on_dram();
  if (const auto* s = in.shape()) out.shape = readShape(*s);
  if (const auto* ol = in.any_layer_as_OutputLayer()) {
    if (const auto* lay = ol->layout()) {
      OutputLayout l;
      l.yCoordinateToLinearTileId = copyVector(lay->y_coordinate_to_linear_tile_id());
      l.xCoordinateToLinearTileId = copyVector(lay->x_coordinate_to_linear_tile_id());
      l.linearizedTileByteOffset = copyVector(lay->linearized_tile_byte_offset());
      l.xCoordinateToLocalByteOffset = copyVector(lay->x_coordinate_to_local_byte_offset());
      l.yCoordinateToLocalYOffset = copyVector(lay->y_coordinate_to_local_y_offset());
      l.xCoordinateToLocalYRowSize = copyVector(lay->x_coordinate_to_local_y_row_size());
      out.outputLayout = std::move(l);
    }
    if (const auto* si = ol->shape_info()) {
      OutputShapeInfo info;
      if (const auto* slices = si->slice_layouts()) {
        for (const auto* s : *slices) info.sliceLayouts.push_back(readShape(*s));
      }
      info.sliceOffsets = copyVector(si->slice_offsets());
      out.outputShapeInfo = std::move(info);
    }
  }
  return out;
}

std::vector<Layer> readLayers(const flatbuffers::Vector<flatbuffers::Offset<fb::Layer>>* layers,
                              const Where& where, const char* field) {
  std::vector<Layer> out;
  if (!layers) return out;
  for (flatbuffers::uoffset_t i = 0; i < layers->size(); ++i) {
    out.push_back(readLayer(*layers->Get(i), where / (std::string(field) + "[" + std::to_string(i) + "]")));
  }
  return out;
}

}  // namespace

Executable readExecutable(std::span<const uint8_t> bytes, const Where& where) {
  const detail::OwnedBuffer buffer(bytes);
  const auto* in = detail::verifiedRoot<fb::Executable>(buffer, nullptr, where, "Executable");
  Executable exe;
  exe.version = in->version();
  exe.name = copyString(in->name());
  exe.chip = copyString(in->chip());
  exe.type = static_cast<ExecutableType>(in->type());
  exe.parameterCachingToken = in->parameter_caching_token();
  exe.estimatedCycles = in->estimated_cycles();
  exe.estimatedCycles64 = in->estimated_cycles_64bit();
  exe.usedNarrowMemoryBytesPerTile = in->used_narrow_memory_bytes_per_tile();
  exe.scratchSizeBytes = in->scratch_size_bytes();
  exe.batchSize = in->batch_size();
  exe.useTpuDramForParameters = in->use_tpu_dram_for_parameters();
  exe.serializedModel = copyBytes(in->serialized_model());
  exe.parameters = copyBytes(in->parameters());
  exe.serializedBytes = bytes.size();
  if (const auto* chunks = in->instruction_bitstreams()) {
    for (flatbuffers::uoffset_t i = 0; i < chunks->size(); ++i) {
      exe.bitstreams.push_back(
          readBitstream(*chunks->Get(i), where / ("instruction_bitstreams[" + std::to_string(i) + "]")));
    }
  }
  if (const auto* dh = in->dma_hints()) {
    DmaHints hints;
    hints.fullyDeterministic = dh->fully_deterministic();
    if (const auto* list = dh->hints()) {
      for (flatbuffers::uoffset_t i = 0; i < list->size(); ++i) {
        hints.hints.push_back(readHint(*list->Get(i)));
        checkHint(hints.hints.back(), exe, where / ("dma_hints.hints[" + std::to_string(i) + "]"));
      }
    }
    exe.dmaHints = std::move(hints);
  }
  exe.inputLayers = readLayers(in->input_layers(), where, "input_layers");
  exe.outputLayers = readLayers(in->output_layers(), where, "output_layers");
  return exe;
}

bool isBareExecutable(std::span<const uint8_t> bytes) {
  const detail::OwnedBuffer buffer(bytes);
  if (buffer.size() < 12 || buffer.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) return false;
  flatbuffers::Verifier verifier(buffer.data(), buffer.size());
  if (!verifier.VerifyBuffer<fb::Executable>(nullptr)) return false;
  const auto* exe = flatbuffers::GetRoot<fb::Executable>(buffer.data());
  const auto* chunks = exe->instruction_bitstreams();
  if (!chunks || chunks->size() == 0) return false;
  for (const auto* c : *chunks) {
    if (!c->bitstream() || c->bitstream()->size() == 0) return false;
  }
  return true;
}

}  // namespace coralsim::driver
