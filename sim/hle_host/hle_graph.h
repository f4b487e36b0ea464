// Adapter from a loaded TFLite model (driver/model/model_file.h) to the high-level datapath's neutral
// graph description (models/hle/graph.h). It lives in sim/hle_host/, where host-side model loading
// and the device model meet, so neither driver/ nor models/ includes the other.
#pragma once

#include <cstdint>

#include "driver/model/model_file.h"
#include "models/hle/graph.h"

namespace coralsim::sim {

// Subgraph `subgraph` of `model` with constant tensor data copied from its buffers and the
// builtin options flattened into hle::OpOptions. Throws std::runtime_error for a subgraph index
// out of range. Tensors of element types the hle has no kernels for (string, complex, ...) are
// kept, typed UInt8, with the original type in their name, so only a kernel that reads one fails.
coralsim::hle::Graph hleGraphFromTflite(const driver::TfliteModel& model, size_t subgraph = 0);

}  // namespace coralsim::sim
