#include "driver/run/run_result.h"

namespace coralsim::driver {

std::string_view descriptorSourceName(DescriptorSource source) {
  switch (source) {
    case DescriptorSource::kEvents: return "events";
    case DescriptorSource::kDeviceLog: return "device_log";
    case DescriptorSource::kInterruptEventsOnly: return "interrupt_events";
  }
  return "?";
}

}  // namespace coralsim::driver
