// `coralsim inspect` without --json: a human-readable description of a loaded model (TFLite graph
// and CPU ops, custom ops, packages, every executable with chunks, link points, DMA plan and
// layers).
#pragma once

#include <ostream>

#include "driver/model/model_file.h"

namespace coralsim::driver {

void writeModelText(const ModelFile& model, std::ostream& out);

}  // namespace coralsim::driver
