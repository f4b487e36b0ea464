// Where the CPU twin of a compiled model is, by the Edge TPU compiler's naming convention: it writes
// `X_edgetpu.tflite` beside the `X.tflite` it compiled (`--hle auto`).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "driver/model/model_file.h"

namespace coralsim::sim {

struct TwinSearch {
  std::filesystem::path candidate;  // X.tflite beside X_edgetpu.tflite; empty when the name does not say
  bool found = false;               // candidate is a regular file
  std::string description;          // "found X.tflite beside the compiled model", or why none
};

[[nodiscard]] TwinSearch findTwinBeside(const std::filesystem::path& compiled);

// The CPU twin a tool works with (`profile`, `check-layers`): `given` (their --hle TWIN), else the
// one the naming rule finds beside `compiled`; loaded, with a note of where it came from. Throws
// std::runtime_error naming the file when there is none or it is not a TFLite model.
struct LoadedTwin {
  std::filesystem::path path;
  std::string note;  // "given with --hle", or findTwinBeside's description
  driver::ModelFile model;
};
[[nodiscard]] LoadedTwin loadTwin(const std::filesystem::path& compiled, const std::optional<std::filesystem::path>& given);

}  // namespace coralsim::sim
