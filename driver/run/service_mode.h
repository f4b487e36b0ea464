// How the host serves the device's DMA requests during an executable run.
//   kHints  (descr_ep 0xF0, libedgetpu's default): walk the executable's DmaHints in order
//           (docs/usb-protocol.md §6.1); only interrupt events (tags 4..7) come back on EP 0x82.
//   kEvents (descr_ep 0xFF): the device announces every descriptor on EP 0x82 and the host answers
//           each one (tag 1 input, 2 parameters, 3 output, 4 completion).
#pragma once

#include <string_view>

namespace coralsim::driver {

enum class ServiceMode { kHints, kEvents };

std::string_view serviceModeName(ServiceMode mode);  // "hints" / "events"
bool parseServiceMode(std::string_view text, ServiceMode& out);

}  // namespace coralsim::driver
