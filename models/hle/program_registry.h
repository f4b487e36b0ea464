// ProgramRegistry: the programs the high-level datapath recognises, each a compiled Edge TPU model
// paired with its CPU twin (docs/ARCHITECTURE.md §3, `hle`). Immutable once built; shared by every
// device that serves the same set.
//
// Identification. The device never sees the executable file, only the instruction chunks the host
// sends, and the host has linked them first: the linker overwrites 32-bit immediates at the
// executable's field offsets with the base addresses of the input, output, parameter and scratch
// buffers, which differ per host process and per run. So a chunk is identified by its hash with
// every linked field zeroed: each registered chunk carries the bit offsets of its own link points,
// and an incoming chunk is hashed once per distinct mask set among the candidates of its size.
// The hash is FNV-1a 64 over the masked bytes (a lookup key, not a security measure).
//
// Each registered executable also says how to read its inputs from the run's input stream and how
// its outputs leave in the output stream: the device-side byte order (uint8 on the wire, int8 values
// XOR 0x80, docs/isa.md §5.4; multi-dimensional outputs tile-major per the executable's
// OutputLayout) and which stream ranges carry which layer (the executable's DMA hints).
// Plain structs: models/ never reads model files; sim/hle_host/ fills these from them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/hle/graph.h"
#include "usb/output_layout.h"

namespace coralsim::hle {

// FNV-1a 64 of `bytes` with the 32-bit fields starting at each of `maskedBits` (LSB-first bit
// numbering: bit k is bit k%8 of byte k/8) read as zero. Fields reaching past the end are masked
// as far as they go.
[[nodiscard]] uint64_t maskedChunkHash(std::span<const uint8_t> bytes, std::span<const int64_t> maskedBits);
// FNV-1a 64 of the bytes as they are (for messages about chunks nobody registered).
[[nodiscard]] uint64_t rawChunkHash(std::span<const uint8_t> bytes);

struct ChunkSignature {
  uint32_t sizeBytes = 0;
  std::vector<int64_t> linkedBits;  // first bit of every linked 32-bit field, sorted
  uint64_t hash = 0;                // maskedChunkHash(bytes, linkedBits)
};

// Where element (y, x) of an output layer starts in the device's output buffer (executable.fbs
// OutputLayout): the device's output wire format, declared once with its mapping in
// usb/output_layout.h.
using TileLayout = usb::OutputLayout;

// One input or output layer of an executable bound to a tensor of the CPU twin.
struct LayerBinding {
  std::string name;          // the layer's (= the custom op tensor's) name
  uint32_t layerBytes = 0;   // the layer's size in the device stream (may include padding)
  uint32_t tensorBytes = 0;  // the TFLite tensor's size
  int32_t twinTensor = -1;   // index in Program::graph
  std::string twinName;
  bool int8 = false;         // TFLite int8: device byte = TFLite byte XOR 0x80
  // Output layers: dimensions and the tile-major map (absent: TFLite order).
  int32_t yDim = 0, xDim = 0, zDim = 0;
  std::optional<TileLayout> layout;
  // How the twin tensor was chosen ("name", "shape-type-quant", "override") and what differs when
  // the paired tensors' encodings do; only for reports, the device ignores them.
  std::string bindingMethod;
  std::string bindingNote;
};

// A piece of the run's input or output stream: `size` bytes at `offset` of layer `layer` (index in
// the executable's inputs or outputs), in stream order. kScratch: a round trip through the host's
// scratch buffer (the program spills intermediates and reads them back on the same streams), bytes
// the twin does not need: skipped on input, zeros on output.
struct StreamSegment {
  static constexpr size_t kScratch = static_cast<size_t>(-1);
  size_t layer = 0;
  uint32_t offset = 0;
  uint32_t size = 0;
};

enum class ExecutableRole : uint8_t { kStandAlone, kParameterCaching, kExecutionOnly };
[[nodiscard]] std::string_view executableRoleName(ExecutableRole role);

struct ProgramExecutable {
  std::string label;  // "op 0 package 0 executable 1 (EXECUTION_ONLY)", for messages
  ExecutableRole role = ExecutableRole::kStandAlone;
  std::vector<ChunkSignature> chunks;  // in the order the host sends them
  std::vector<LayerBinding> inputs;
  std::vector<LayerBinding> outputs;
  // From the DMA hints (or the layers in order when there are none): which bytes of which layer
  // each stretch of the input stream / output stream carries.
  std::vector<StreamSegment> inputStream;
  std::vector<StreamSegment> outputStream;
};

struct Program {
  std::string name;  // "COMPILED=CPU", for messages
  std::shared_ptr<const Graph> graph;  // the CPU twin's graph
  std::vector<ProgramExecutable> executables;
};

// A (program, executable) pair of a registry.
struct ExecutableRef {
  size_t program = 0;
  size_t executable = 0;
  friend bool operator==(const ExecutableRef&, const ExecutableRef&) = default;
};

class ProgramRegistry {
 public:
  explicit ProgramRegistry(std::vector<Program> programs);

  [[nodiscard]] const std::vector<Program>& programs() const { return programs_; }
  [[nodiscard]] bool empty() const { return programs_.empty(); }
  [[nodiscard]] size_t executableCount() const;
  [[nodiscard]] const Program& program(const ExecutableRef& ref) const { return programs_.at(ref.program); }
  [[nodiscard]] const ProgramExecutable& executable(const ExecutableRef& ref) const {
    return programs_.at(ref.program).executables.at(ref.executable);
  }

  // The executables among `candidates` whose chunk number `position` is `chunk` (linked fields
  // masked). Pass every executable (allExecutables()) for the first chunk of a run.
  [[nodiscard]] std::vector<ExecutableRef> matchChunk(std::span<const uint8_t> chunk, size_t position,
                                                      const std::vector<ExecutableRef>& candidates) const;
  [[nodiscard]] std::vector<ExecutableRef> allExecutables() const;

 private:
  std::vector<Program> programs_;
};

}  // namespace coralsim::hle
