// Small, valid model files built from OUR schemas (driver/model/schema/*.fbs) with FlatBufferBuilder and
// flexbuffers::Builder, for loader unit tests and for the fuzz-input generator. Never corpus bytes.
// Each spec has knobs that make one specific thing wrong, so tests can check the error names it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coralsim::testing {

// One Executable. Defaults: EXECUTION_ONLY "model", one 4-word chunk with a PARAM lower/upper and
// an IN/OUT link point, 32 parameter bytes, hints "I0 P A O X0", one input and one output layer.
struct ExecutableSpec {
  int16_t type = 2;  // EXECUTION_ONLY
  std::string name = "model";
  std::string chip = "beagle";
  uint64_t parameterCachingToken = 0x0123456789abcdefULL;
  std::vector<size_t> chunkBytes = {64};
  size_t parameterBytes = 32;
  bool withFieldOffsets = true;
  bool withHints = true;
  bool withLayers = true;
  int32_t estimatedCycles = 1234;
  int64_t estimatedCycles64 = 5678;
  int32_t usedNarrowMemoryBytesPerTile = 832;
  // Faults, off by default.
  std::optional<int32_t> badFieldOffsetBit;    // replaces the first field offset's bit
  std::optional<int32_t> badInstructionChunk;  // replaces the instruction hint's chunk index
  std::optional<int32_t> badParameterDmaSize;  // replaces the parameter DMA's size
};

// Names used by the default spec (tests check them).
inline constexpr const char* kTestInputName = "input:0";
inline constexpr const char* kTestOutputName = "output:0";

std::vector<uint8_t> buildExecutable(const ExecutableSpec& spec);

// A Package ("DWN1") whose MultiExecutable holds `executables` (serialized executables).
std::vector<uint8_t> buildPackage(const std::vector<std::vector<uint8_t>>& executables);

// custom_options of an edgetpu-custom-op: {"1": 0, <key>: blob(program), "5": -1, "6": [18], "7": []}.
// key "7" puts the program as the only element of the "7" vector instead.
std::vector<uint8_t> buildCustomOptions(const std::vector<uint8_t>& program, const std::string& key = "4");

// A TFLite model: input (uint8 [1,8]) -> edgetpu-custom-op -> (uint8 [1,8]) -> DEQUANTIZE ->
// float [1,8]. Without custom options: a CPU-only twin (QUANTIZE -> DEQUANTIZE).
struct TfliteSpec {
  std::optional<std::vector<uint8_t>> customOptions;  // nullopt: no edgetpu op
  bool largeCustomOptions = false;  // store the options after the flatbuffer (offset/size fields)
  std::optional<uint32_t> badOpcodeIndex;  // replaces the CPU op's opcode index
  std::optional<int32_t> badTensorIndex;   // replaces the CPU op's first input
};

std::vector<uint8_t> buildTflite(const TfliteSpec& spec);

// A compiled TFLite model whose edgetpu-custom-op carries `customOptions`, no faults.
std::vector<uint8_t> buildTfliteWithOptions(const std::vector<uint8_t>& customOptions);

// The default compiled model: one package holding one default executable.
std::vector<uint8_t> buildDefaultTflite();

}  // namespace coralsim::testing
