// The entry point of the model-format layer: load any file coralsim understands into a
// driver::ModelFile (driver/model/model_file.h). The format is detected from the content, the same way
// tools/darwinn_dump.py does it:
//   1. "TFL3" at byte 4                     → a TFLite model (compiled for the Edge TPU or not);
//   2. "DWN1" at byte 4                     → a bare DarwiNN Package;
//   3. verifies as an Executable with at least one non-empty instruction chunk
//                                           → a bare serialized Executable;
//   4. otherwise, a name ending in ".coral" → a raw instruction stream (whole 16-byte words).
// Everything is verified before use; any problem throws driver::LoadError whose message starts
// with the display name and says where and what is wrong. No input crashes the loader.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "driver/model/load_error.h"
#include "driver/model/model_file.h"

namespace coralsim::driver {

// Reads and loads a file; errors name it by `path` as given.
ModelFile loadModelFile(const std::filesystem::path& path);

// Loads bytes already in memory; `displayName` stands in for the file name in errors and reports
// (and its extension decides rule 4).
ModelFile loadModelFromMemory(std::span<const uint8_t> bytes, const std::string& displayName);

}  // namespace coralsim::driver
