// `coralsim inspect --json`: one JSON object describing a loaded model. Key names and value
// conventions follow tools/darwinn_dump.py --json wherever the concept exists there, so the two can
// be compared field by field (tests/corpus does); extra keys add what that tool leaves out (full
// output layouts, ...). The format is documented in driver/README.md.
#pragma once

#include <ostream>

#include "driver/model/model_file.h"

namespace coralsim::driver {

// indent = 0 writes a single line; > 0 pretty-prints. No trailing newline.
void writeModelJson(const ModelFile& model, std::ostream& out, int indent = 0);

}  // namespace coralsim::driver
