// Reads a TensorFlow Lite flatbuffer (identifier "TFL3"): operator codes, subgraphs with tensors
// and operators, constant buffers, the ops left on the CPU, and every edgetpu custom op with the
// DarwiNN programs in its custom_options. Index fields are checked, so consumers can index freely.
#pragma once

#include <cstdint>
#include <span>

#include "driver/model/load_error.h"
#include "driver/model/model_file.h"

namespace coralsim::driver {

// Fills model.tflite and model.edgeTpuOps from the whole file `file`.
void readTflite(std::span<const uint8_t> file, ModelFile& model, const Where& where);

// True when `bytes` carry the TFLite file identifier "TFL3" at byte 4.
bool hasTfliteIdentifier(std::span<const uint8_t> bytes);

}  // namespace coralsim::driver
