// Placeholder factory until the HLE registry lands (issue #6): no hle rung yet, so `auto` never
// selects it and `--mode hle` is refused with a clear message (models/chip/datapath.cc).
#include "models/chip/datapath_rung.h"

namespace coralsim::models {

std::unique_ptr<DatapathRung> makeHleRung(const ChipConfig& /*config*/) { return nullptr; }

}  // namespace coralsim::models
