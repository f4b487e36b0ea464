// Placeholder factory until the low-level datapath lands (issue #5): no lle rung yet, so `auto`
// never selects it and `--mode lle` is refused with a clear message (models/chip/datapath.cc).
#include "models/chip/datapath_rung.h"

namespace coralsim::models {

std::unique_ptr<DatapathRung> makeLleRung(const ChipConfig& /*config*/) { return nullptr; }

}  // namespace coralsim::models
