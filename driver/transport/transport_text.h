// The words every transport uses for what it was doing when a transfer failed (the "operation" of
// a TransportError), so a message reads the same whichever transport raised it: "bulk OUT EP 0x01
// (8 bytes)", "read32 scu_ctrl_0 (0x1a30c)", "control request bmRequestType 0x80 ... wLength 18".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "driver/transport/transport.h"
#include "usb/usb_types.h"

namespace coralsim::driver {

// The cause of a DeviceFaultError: the fatal-error bit on EP 0x83 (docs/usb-protocol.md §4.3).
inline constexpr std::string_view kFatalInterruptCause = "the device signalled a fatal error on EP 0x83";

// "EP 0x82"
[[nodiscard]] std::string endpointText(uint8_t endpoint);
// "bulk OUT EP 0x01 (8 bytes)"
[[nodiscard]] std::string bulkOutText(uint8_t endpoint, size_t bytes);
// "bulk IN EP 0x82 (16 bytes)"
[[nodiscard]] std::string bulkInText(uint8_t endpoint, uint32_t maxLength);
// "read32 <register>" / "write64 <register>", the register named by driver/beagle_csrs.
[[nodiscard]] std::string csrAccessText(bool read, CsrWidth width, uint32_t address);
// A CSR access (the SETUP packet csrSetup() builds) in csrAccessText's words; any other request
// as its five SETUP fields.
[[nodiscard]] std::string controlText(const usb::ControlSetup& setup);

}  // namespace coralsim::driver
