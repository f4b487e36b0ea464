// UsbDevice: one USB device as its host sees it — the calls of the seam (docs/ARCHITECTURE.md §1).
// EP0 control transfers are answered at once; bulk and interrupt URBs complete later through a
// callback; a pending URB can be unlinked by id; a bus reset gives pending URBs back. The emulated
// Coral (`sim::Device`) is one, and the USB/IP server's `usbip::ExportedDevice` is one with what
// the server needs besides (its descriptor summary, power cycles): the device side and the server
// speak exactly these calls, declared once here.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "usb/usb_types.h"

namespace coralsim::usb {

class UsbDevice {
 public:
  using Completion = std::function<void(UrbResult)>;

  virtual ~UsbDevice() = default;

  // EP0. `outData` is the data stage of host-to-device requests (size == setup.wLength).
  virtual UrbResult control(const ControlSetup& setup, std::span<const uint8_t> outData) = 0;
  // Bulk/interrupt URBs by endpoint ADDRESS (0x01 OUT; 0x81, 0x82, 0x83 IN). `done` runs exactly
  // once, on any thread but the caller's, unless cancel() returned true for the URB.
  virtual uint64_t submitOut(uint8_t endpoint, std::vector<uint8_t> data, Completion done) = 0;
  virtual uint64_t submitIn(uint8_t endpoint, uint32_t length, Completion done) = 0;
  // True: the URB was still pending and its completion will never run. False: it completed (its
  // completion has run or is about to) or never existed.
  virtual bool cancel(uint64_t urbId) = 0;
  // A USB bus reset: pending URBs are given back, bridge state flushed.
  virtual void busReset() = 0;
};

}  // namespace coralsim::usb
