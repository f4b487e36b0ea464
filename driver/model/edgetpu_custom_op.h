// The custom_options of an `edgetpu-custom-op`: a FlexBuffer map whose keys are "1".."7"
// (tools/darwinn_dump.py). The programs live in blobs:
//   "4"    the DarwiNN Package (or, in old files, a bare EXECUTION_ONLY/STAND_ALONE Executable)
//   "3"    old files only: the bare PARAMETER_CACHING Executable
//   "7"    a vector of further Package blobs
// Other keys carry small scalars/vectors ("1" a version, "2" the chip name in old files, ...) and
// are kept verbatim in EdgeTpuCustomOp::options.
#pragma once

#include <cstdint>
#include <span>

#include "driver/model/load_error.h"
#include "driver/model/model_file.h"

namespace coralsim::driver {

// Decodes `customOptions` and reads every Package/Executable blob in it into `op` (options,
// packages, customOptionsBytes). Throws LoadError when the FlexBuffer is malformed, a blob is
// neither a Package nor an Executable, or no program is found at all.
void readEdgeTpuCustomOptions(std::span<const uint8_t> customOptions, EdgeTpuCustomOp& op, const Where& where);

}  // namespace coralsim::driver
