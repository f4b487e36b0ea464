// Building the USB/IP device record (docs/usb-protocol.md §10.1) of an exported device from its
// ExportedDeviceInfo and the bus position the server gives it (bus 1, device N, bus id "1-N").
#pragma once

#include <cstdint>
#include <string>

#include "usbip/exported_device.h"
#include "usbip/pdus.h"

namespace coralsim::usbip {

struct BusPosition {
  uint32_t busnum = 1;
  uint32_t devnum = 1;
  [[nodiscard]] std::string busId() const { return std::to_string(busnum) + "-" + std::to_string(devnum); }
};

// The enum usb_device_speed code of a link speed (5 SuperSpeed, 3 high speed).
[[nodiscard]] uint32_t speedCode(usb::UsbSpeed speed);

[[nodiscard]] UsbDeviceRecord deviceRecord(const ExportedDeviceInfo& info, const BusPosition& position);
// The record plus its interface list, as OP_REP_DEVLIST carries it.
[[nodiscard]] ExportedDeviceEntry devlistEntry(const ExportedDeviceInfo& info, const BusPosition& position);

}  // namespace coralsim::usbip
