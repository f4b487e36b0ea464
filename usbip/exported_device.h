// ExportedDevice: what the USB/IP server exports — one USB device behind the calls of the
// sim::Device seam (sim/device.h): EP0 control transfers answered at once, bulk and interrupt
// URBs completed later through a callback on any thread, unlink by id, bus reset. The server only
// ever talks to this interface; hosting/sim_exported_device.h adapts a sim::Device to it, and tests
// use small fakes.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

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

class ExportedDevice {
 public:
  using Completion = std::function<void(usb::UrbResult)>;

  virtual ~ExportedDevice() = default;

  [[nodiscard]] virtual ExportedDeviceInfo info() = 0;

  // EP0, answered synchronously. `outData` is the data stage of host-to-device requests.
  virtual usb::UrbResult control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) = 0;
  // Bulk/interrupt URBs by endpoint ADDRESS (0x01 OUT, 0x81 IN). `done` runs exactly once, on any
  // thread, unless cancel() returned true for the URB.
  virtual uint64_t submitOut(uint8_t endpointAddress, std::vector<uint8_t> data, Completion done) = 0;
  virtual uint64_t submitIn(uint8_t endpointAddress, uint32_t length, Completion done) = 0;
  // True: the URB was still pending and its completion will never run. False: it completed (its
  // completion has run or is about to) or never existed.
  virtual bool cancel(uint64_t urbId) = 0;

  // A bus reset: pending URBs are given back, bridge state flushed.
  virtual void busReset() = 0;
  // Power removed and restored (a new USB/IP import: hardware comes back in its power-on
  // personality, docs/usb-protocol.md §10.5 item 12). Defaults to a bus reset.
  virtual void powerCycle() { busReset(); }
};

}  // namespace coralsim::usbip
