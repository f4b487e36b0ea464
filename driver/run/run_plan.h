// What running a model means, decided once from the loaded file: which executables run in which
// order (per edgetpu custom op and package: PARAMETER_CACHING first, then EXECUTION_ONLY or
// STAND_ALONE), which tensors the caller supplies and which come back, and how each is encoded on
// the wire (int8 tensors flip their sign bit, driver/run/tensor_encoding.h).
//
// A raw .coral program becomes one STAND_ALONE executable with one chunk and no hints: it is served
// event-driven, takes an optional input stream and parameter stream, and returns whatever the
// device announces.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/model/executable.h"
#include "driver/model/model_file.h"

namespace coralsim::driver {

struct TensorSpec {
  std::string name;
  std::string typeName;                // TFLite type ("UINT8", "INT8"), the layer's data type, or "bytes"
  TfliteTensorType type = 3;           // UINT8 unless the TFLite graph says otherwise
  bool flipsSign = false;              // int8: XOR 0x80 between caller and device
  uint64_t sizeBytes = 0;              // what the caller supplies / gets (0 = any, raw streams)
  uint64_t deviceBytes = 0;            // the executable layer's size_bytes (0 when not known)
  std::vector<int32_t> shape;          // TFLite shape when known
  bool optional = false;               // raw program streams may be left out
};

struct PlannedExecutable {
  const Executable* executable = nullptr;
  std::string label;  // "op 0 package 0 executable 1 (PARAMETER_CACHING 'Unknown')"
};

// One DarwiNN package: the executables that run together.
struct PlanUnit {
  std::string label;
  std::optional<PlannedExecutable> parameterCaching;
  std::vector<PlannedExecutable> programs;  // EXECUTION_ONLY / STAND_ALONE, in file order
};

struct RunPlan {
  std::string model;  // display name
  bool rawProgram = false;
  std::vector<PlanUnit> units;
  std::vector<TensorSpec> inputs;   // what the caller supplies, in this order
  std::vector<TensorSpec> outputs;  // what comes back (raw programs: discovered at run time)
  // A raw program wrapped as an executable (units point into it).
  std::shared_ptr<const Executable> synthesized;

  [[nodiscard]] const TensorSpec* findInput(const std::string& name) const;
  [[nodiscard]] const TensorSpec* findOutput(const std::string& name) const;
};

// Names used for the two streams of a raw program.
inline constexpr const char* kRawInputStream = "input stream";
inline constexpr const char* kRawParameterStream = "parameter stream";

// Throws RunError naming the model when it holds nothing the Edge TPU runs.
RunPlan planRun(const ModelFile& model);

}  // namespace coralsim::driver
