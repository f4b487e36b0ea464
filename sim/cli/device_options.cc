#include "sim/cli/device_options.h"

#include <string>

namespace coralsim::cli {

usb::UsbSpeed parseUsbSpeed(const Args& args, std::string_view option) {
  const std::string speed = args.value(option).value_or("super");
  if (speed == "super") return usb::UsbSpeed::kSuper;
  if (speed == "high") return usb::UsbSpeed::kHigh;
  throw UsageError(std::string(option) + " expects high or super, got '" + speed + "'");
}

void applyCycleLimit(const Args& args, models::ChipConfig& chip) {
  if (auto limit = args.number("--cycle-limit")) {
    if (*limit == 0) throw UsageError("--cycle-limit expects a positive number");
    chip.cycleLimit = *limit;
  }
}

}  // namespace coralsim::cli
