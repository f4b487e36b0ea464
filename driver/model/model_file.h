// What one model file holds, as plain C++ values: a TFLite graph (with the ops that stay on the
// CPU) whose edgetpu-custom-ops carry DarwiNN Packages of Executables, or a bare Package, a bare
// Executable, or a raw instruction bitstream. Produced by driver/model/model_loader.h; everything is
// owned, nothing points into the loaded bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/model/executable.h"
#include "driver/model/flex_value.h"

namespace coralsim::driver {

// ---- TFLite level ---------------------------------------------------------------------------

// TFLite element type (Tensor.type), kept as the raw on-disk value.
using TfliteTensorType = int8_t;
std::optional<std::string_view> tfliteTensorTypeName(TfliteTensorType type);
// BuiltinOperator name ("CONV_2D"), nullopt for codes the table does not know.
std::optional<std::string_view> tfliteBuiltinName(int32_t code);

inline constexpr int32_t kTfliteCustomOpCode = 32;  // BuiltinOperator CUSTOM
inline constexpr std::string_view kEdgeTpuCustomOpPrefix = "edgetpu";

struct TfliteTensor {
  std::string name;
  std::vector<int32_t> shape;
  TfliteTensorType type = 0;
  uint32_t buffer = 0;  // index into TfliteModel::buffers; 0 = no constant data
  // Quantisation (empty when the tensor is not quantised): one entry per channel.
  std::vector<float> scale;
  std::vector<int64_t> zeroPoint;
  int32_t quantizedDimension = 0;
};

struct TfliteOperatorCode {
  int32_t builtinCode = 0;  // max(deprecated_builtin_code, builtin_code)
  std::string customCode;
  int32_t version = 1;
  std::string name;  // builtin name, the custom code for CUSTOM, or "BUILTIN_<n>"
};

// TFLite's BuiltinOptions union, flattened: the fields of the option tables the high-level
// datapath reads (driver/model/schema/tflite.fbs lists them). Absent tables leave the defaults below,
// which are TFLite's own field defaults.
struct TfliteBuiltinOptions {
  uint8_t unionType = 0;     // BuiltinOptions member number on disk (0 = none)
  int8_t padding = 0;        // 0 SAME, 1 VALID
  int32_t strideW = 1;       // a table that is present but has no stride field says 0
  int32_t strideH = 1;
  int32_t dilationW = 1;
  int32_t dilationH = 1;
  int32_t filterW = 0;       // pooling
  int32_t filterH = 0;
  int32_t depthMultiplier = 0;
  int8_t activation = 0;     // ActivationFunctionType: 0 NONE, 1 RELU, 2 RELU_N1_TO_1, 3 RELU6, 4 TANH
  int32_t axis = 0;          // CONCATENATION
  float beta = 1.0F;         // SOFTMAX
  bool keepDims = false;     // reducers (MEAN)
  bool keepNumDims = false;  // FULLY_CONNECTED
  int8_t weightsFormat = 0;  // FULLY_CONNECTED: 0 = default layout
  bool alignCorners = false; // RESIZE_*
  bool halfPixelCenters = false;
  std::vector<int32_t> newShape;  // RESHAPE (empty: the shape input tensor or the output shape)
};

struct TfliteOperator {
  uint32_t opcodeIndex = 0;
  TfliteBuiltinOptions builtinOptions;
  std::string name;  // resolved through the operator code
  std::vector<int32_t> inputs;   // tensor indices; -1 = optional input left out
  std::vector<int32_t> outputs;
  bool runsOnEdgeTpu = false;  // an "edgetpu*" custom op; everything else runs on the CPU
};

struct TfliteSubgraph {
  std::string name;
  std::vector<TfliteTensor> tensors;
  std::vector<int32_t> inputs;   // tensor indices
  std::vector<int32_t> outputs;
  std::vector<TfliteOperator> operators;
};

struct TfliteModel {
  uint32_t version = 0;
  std::string description;
  std::vector<TfliteOperatorCode> operatorCodes;
  std::vector<TfliteSubgraph> subgraphs;
  std::vector<std::vector<uint8_t>> buffers;  // constant tensor data (CPU twins hold weights here)
  std::vector<std::string> cpuOps;            // sorted, unique names of ops that stay on the CPU
};

// ---- DarwiNN containers ----------------------------------------------------------------------

// A DarwiNN Package (or, in old files, a bare Executable stored where a Package would be).
struct Package {
  std::string flexKey;              // custom_options key it came from ("4", "7[0]", ...); "" if bare
  std::string fileIdentifier;       // "DWN1", or "(bare executable, legacy)"
  bool legacyBareExecutable = false;
  int32_t minRuntimeVersion = 0;
  std::vector<uint8_t> signature;
  int32_t keypairVersion = 0;
  std::string compilerVersion;
  int32_t virtualChipId = 0;
  std::vector<uint8_t> multiChipPackage;
  std::string modelIdentifier;
  std::vector<Executable> executables;
};

// One edgetpu-custom-op of the TFLite graph and what its custom_options hold.
struct EdgeTpuCustomOp {
  int32_t subgraph = 0;
  int32_t opIndex = 0;
  uint64_t customOptionsBytes = 0;
  FlexValue options;  // the custom_options FlexBuffer (a map; blobs are summarised, see flex_value.h)
  std::vector<Package> packages;
  std::vector<int32_t> inputs;   // tensor indices in `subgraph` (negative ones dropped)
  std::vector<int32_t> outputs;
};

// ---- The file -------------------------------------------------------------------------------

enum class ModelKind {
  Tflite,             // *.tflite (TFL3), compiled or not
  DarwinnPackage,     // a bare Package (DWN1)
  DarwinnExecutable,  // a bare serialized Executable
  RawBitstream,       // a raw *.coral instruction stream
};
std::string_view modelKindName(ModelKind kind);  // "tflite", "darwinn_package", ...

struct ModelFile {
  ModelKind kind = ModelKind::Tflite;
  std::string path;  // the display name errors and reports use
  uint64_t sizeBytes = 0;
  std::optional<TfliteModel> tflite;        // kind == Tflite
  std::vector<EdgeTpuCustomOp> edgeTpuOps;  // kind == Tflite (empty for CPU-only models)
  std::vector<Package> packages;            // kind == DarwinnPackage (exactly one)
  std::vector<Executable> executables;      // kind == DarwinnExecutable (exactly one)
  std::optional<InstructionBitstream> rawBitstream;  // kind == RawBitstream
};

// Every executable of the file in file order (custom ops, their packages, then bare ones).
std::vector<const Executable*> allExecutables(const ModelFile& model);

}  // namespace coralsim::driver
