// ExportedDevice: what the USB/IP server exports — one USB device behind the calls of the seam
// (usb::UsbDevice, usb/usb_device.h, which sim::Device implements too): EP0 control transfers
// answered at once, bulk and interrupt URBs completed later through a callback on any thread,
// unlink by id, bus reset. The server only ever talks to this interface; hosting/sim_exported_device.h adapts a sim::Device to it, and tests
// use small fakes.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "usb/usb_device.h"
#include "usb/usb_types.h"

namespace coralsim::usbip {

// What OP_REP_DEVLIST / OP_REP_IMPORT say about a device: the personality it shows right now.
struct ExportedDeviceInfo {
  struct Interface {
    uint8_t bInterfaceClass = 0;
    uint8_t bInterfaceSubClass = 0;
    uint8_t bInterfaceProtocol = 0;
    friend bool operator==(const Interface&, const Interface&) = default;
  };
  usb::UsbSpeed speed = usb::UsbSpeed::kSuper;
  uint16_t idVendor = 0;
  uint16_t idProduct = 0;
  uint16_t bcdDevice = 0;
  uint8_t bDeviceClass = 0;
  uint8_t bDeviceSubClass = 0;
  uint8_t bDeviceProtocol = 0;
  uint8_t bConfigurationValue = 0;
  uint8_t bNumConfigurations = 1;
  std::vector<Interface> interfaces;
  friend bool operator==(const ExportedDeviceInfo&, const ExportedDeviceInfo&) = default;
};

// The transfer calls (control, submitOut, submitIn, cancel, busReset) are the seam's
// (usb::UsbDevice); the server adds what it needs besides.
class ExportedDevice : public usb::UsbDevice {
 public:
  [[nodiscard]] virtual ExportedDeviceInfo info() = 0;

  // Power removed and restored (a new USB/IP import: hardware comes back in its power-on
  // personality, docs/usb-protocol.md §10.5 item 12). Defaults to a bus reset.
  virtual void powerCycle() { busReset(); }
};

}  // namespace coralsim::usbip
