// The datapath options `coralsim run` and `coralsim serve` share: --mode, --rounding and --hle.
#pragma once

#include "models/chip_config.h"
#include "sim/cli/args.h"

namespace coralsim::cli {

// Applies the options present in `args` to `chip`; absent ones keep ChipConfig's defaults.
// --hle pairs are loaded here, before any device exists, so a bad pair is reported up front.
// Throws UsageError for a malformed value, and the loader's errors for files that do not pair.
void applyDatapathOptions(const Args& args, models::ChipConfig& chip);

}  // namespace coralsim::cli
