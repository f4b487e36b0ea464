// Where the CPU twin of a compiled model is, by the Edge TPU compiler's naming convention: it writes
// `X_edgetpu.tflite` beside the `X.tflite` it compiled (`--hle auto`).
#pragma once

#include <filesystem>
#include <string>

namespace coralsim::sim {

struct TwinSearch {
  std::filesystem::path candidate;  // X.tflite beside X_edgetpu.tflite; empty when the name does not say
  bool found = false;               // candidate is a regular file
  std::string description;          // "found X.tflite beside the compiled model", or why none
};

[[nodiscard]] TwinSearch findTwinBeside(const std::filesystem::path& compiled);

}  // namespace coralsim::sim
