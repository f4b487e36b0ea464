// Adapter from a loaded TFLite model to the high-level datapath's neutral graph description
// (models/hle/graph.h, header-only plain structs: the driver fills them without linking models/).
#pragma once

#include <cstdint>

#include "driver/model_file.h"
#include "models/hle/graph.h"

namespace coralsim::driver {

// Subgraph `subgraph` of `model` with constant tensor data copied from its buffers and the
// builtin options flattened into hle::OpOptions. Throws std::runtime_error for a subgraph index
// out of range. Tensors of element types the hle has no kernels for (string, complex, ...) are
// kept, typed UInt8, with the original type in their name, so only a kernel that reads one fails.
coralsim::hle::Graph hleGraphFromTflite(const TfliteModel& model, size_t subgraph = 0);

}  // namespace coralsim::driver
