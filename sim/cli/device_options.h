// The options of the emulated device that `coralsim run` and `coralsim serve` both parse, parsed
// once here: the link speed (`run --usb`, `serve --speed`, the same values) and `--cycle-limit`.
// The datapath options they share (--mode, --hle, ...) are in datapath_options.h.
#pragma once

#include <string_view>

#include "models/chip_config.h"
#include "sim/cli/args.h"
#include "usb/usb_types.h"

namespace coralsim::cli {

// `option` super (the default when absent) or high; UsageError names the option otherwise.
[[nodiscard]] usb::UsbSpeed parseUsbSpeed(const Args& args, std::string_view option);

// --cycle-limit N (N > 0) into `chip.cycleLimit`; absent keeps ChipConfig's default.
void applyCycleLimit(const Args& args, models::ChipConfig& chip);

}  // namespace coralsim::cli
