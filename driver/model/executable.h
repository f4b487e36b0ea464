// A DarwiNN Executable as plain C++ values: one program for the Edge TPU with everything the
// runner needs (instruction chunks and their link points, parameters, the compiler's DMA plan,
// input/output layers). Loaded from driver/model/schema/executable.fbs by driver/model/executable_reader.h;
// the structs own their bytes, nothing points into the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "usb/output_layout.h"

namespace coralsim::driver {

// Enumerations come from driver/darwinn_enums.def. Each is stored with its on-disk width, so a
// value the table does not know survives loading and prints as a number.
enum class ExecutableType : int16_t {
#define CORALSIM_EXECUTABLE_TYPE(id, value, name) id = value,
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_EXECUTABLE_TYPE
};

// FieldOffsetMeta.desc: which host buffer an address or DMA refers to.
enum class BufferKind : int16_t {
#define CORALSIM_BUFFER_KIND(id, value, shortName, longName) id = value,
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_BUFFER_KIND
};

// FieldOffsetMeta.position: which half of a 64-bit address a 32-bit immediate receives.
enum class AddressHalf : int16_t {
#define CORALSIM_ADDRESS_HALF(id, value, name) id = value,
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_ADDRESS_HALF
};

enum class LayerDataType : int16_t {
#define CORALSIM_LAYER_DATA_TYPE(id, value, name, bytes) id = value,
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_LAYER_DATA_TYPE
};

enum class InterruptType : int16_t {
#define CORALSIM_INTERRUPT_TYPE(id, value, name) id = value,
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_INTERRUPT_TYPE
};

enum class HintKind : uint8_t {
  Unknown = 0,  // a union type we do not know, or a known type whose table is missing
#define CORALSIM_HINT_KIND(id, value, name) id = value,
#include "driver/model/darwinn_enums.def"
#undef CORALSIM_HINT_KIND
};

// DmaHint.direction: 0 = host to device, anything else = device to host.
enum class DmaDirection : int16_t { Infeed = 0, Outfeed = 1 };

// Which buffer a link point or DMA hint names.
struct BufferRef {
  BufferKind kind = BufferKind::Output;
  int32_t batch = 0;
  std::string name;  // the layer name for input/output activations; empty for parameters/scratch
  AddressHalf half = AddressHalf::Lower32;  // only meaningful for field offsets
};

// One 32-bit immediate that linking overwrites with half of a buffer address.
struct FieldOffset {
  std::optional<BufferRef> target;  // absent when the file has no meta table (cannot be linked)
  int32_t offsetBit = 0;            // from the first bit of the bitstream, LSB-first per byte
};

// One instruction chunk, as sent to the device, with its link points.
struct InstructionBitstream {
  std::vector<uint8_t> bytes;  // a whole number of 16-byte words
  std::vector<FieldOffset> fieldOffsets;
};

struct DmaHint {
  HintKind kind = HintKind::Unknown;
  uint8_t unionType = 0;  // the raw union discriminator, for reporting unknown kinds
  DmaDirection direction = DmaDirection::Infeed;
  // kind == Dma: the block `size` bytes at `offset` of the buffer `buffer` names.
  std::optional<BufferRef> buffer;
  int32_t offset = 0;
  int32_t size = 0;
  int32_t chunk = 0;  // kind == Instruction: index into Executable::bitstreams
  InterruptType interrupt = InterruptType::ScalarCoreInt0;  // kind == Interrupt
};

struct DmaHints {
  bool fullyDeterministic = false;
  std::vector<DmaHint> hints;
};

struct Numerics {
  int32_t zeroPoint = 0;
  float dequantizationFactor = 0.0f;
};

// [start, end] of one dimension (both inclusive).
struct DimensionRange {
  int32_t start = 0;
  int32_t end = 0;
};

// Where element (y, x) of an output layer lives in the device's tile-major output stream
// (driver/model/schema/executable.fbs OutputLayout): the device's output wire format, declared once in
// usb/output_layout.h with the mapping both sides use.
using OutputLayout = usb::OutputLayout;

struct OutputShapeInfo {
  std::vector<std::vector<DimensionRange>> sliceLayouts;
  std::vector<int32_t> sliceOffsets;
};

enum class LayerKind : uint8_t { None = 0, Output = 1, Input = 2 };

struct Layer {
  std::string name;
  int32_t sizeBytes = 0;
  int32_t yDim = 0;
  int32_t xDim = 0;
  int32_t zDim = 0;
  std::optional<Numerics> numerics;
  LayerDataType dataType = LayerDataType::FixedPoint8;
  LayerKind kind = LayerKind::None;  // from the any_layer union
  int32_t executionCountPerInference = 1;
  bool cacheOnDram = false;
  std::optional<std::vector<DimensionRange>> shape;  // absent when the file has no TensorShape
  std::optional<OutputLayout> outputLayout;           // output layers only
  std::optional<OutputShapeInfo> outputShapeInfo;     // output layers only
};

struct Executable {
  int32_t version = 0;
  std::string name;
  std::string chip;
  ExecutableType type = ExecutableType::StandAlone;
  uint64_t parameterCachingToken = 0;
  int32_t estimatedCycles = 0;        // the older 32-bit field
  int64_t estimatedCycles64 = 0;      // estimated_cycles_64bit, written by newer compilers
  int32_t usedNarrowMemoryBytesPerTile = 0;
  int32_t scratchSizeBytes = 0;
  int32_t batchSize = 0;
  bool useTpuDramForParameters = false;
  std::vector<uint8_t> serializedModel;
  std::vector<InstructionBitstream> bitstreams;
  std::vector<uint8_t> parameters;
  std::optional<DmaHints> dmaHints;
  std::vector<Layer> inputLayers;
  std::vector<Layer> outputLayers;
  uint64_t serializedBytes = 0;  // size of the flatbuffer this was read from
};

// Printed names, identical to tools/darwinn_dump.py. nullopt for a value the tables do not know.
std::optional<std::string_view> executableTypeName(ExecutableType type);
std::optional<std::string_view> bufferKindShortName(BufferKind kind);  // "OUT", "IN", "PARAM", ...
std::optional<std::string_view> bufferKindLongName(BufferKind kind);   // "BASE_ADDRESS_..."
std::optional<std::string_view> addressHalfName(AddressHalf half);
std::optional<std::string_view> layerDataTypeName(LayerDataType type);
std::optional<int> layerDataTypeBytes(LayerDataType type);
std::optional<std::string_view> interruptTypeName(InterruptType type);
std::optional<std::string_view> hintKindName(HintKind kind);
std::string_view dmaDirectionName(DmaDirection direction);  // "IN" / "OUT"
std::string_view layerKindName(LayerKind kind);             // "input" / "output" / "none"

}  // namespace coralsim::driver
