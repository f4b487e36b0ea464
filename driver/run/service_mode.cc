#include "driver/run/service_mode.h"

namespace coralsim::driver {

std::string_view serviceModeName(ServiceMode mode) { return mode == ServiceMode::kHints ? "hints" : "events"; }

bool parseServiceMode(std::string_view text, ServiceMode& out) {
  if (text == "hints") {
    out = ServiceMode::kHints;
    return true;
  }
  if (text == "events") {
    out = ServiceMode::kEvents;
    return true;
  }
  return false;
}

}  // namespace coralsim::driver
