// SimExportedDevice: a sim::Device (the emulated Coral, sim/device.h) exported by the USB/IP
// server. Calls pass straight through; info() asks the device itself — GET_DESCRIPTOR(DEVICE,
// wLength 18) and GET_DESCRIPTOR(CONFIGURATION) over EP0, as user space would, so the record
// always shows the personality the device has right now (and a wLength of 18 is never taken for
// the kernel's re-enumeration). powerCycle() replaces the Device with a new one built from the
// same options: a new import finds a freshly powered device (docs/usb-protocol.md §10.5 item 12).
#pragma once

#include <memory>

#include "sim/device.h"
#include "usbip/exported_device.h"

namespace coralsim::usbip {

class SimExportedDevice final : public ExportedDevice {
 public:
  explicit SimExportedDevice(sim::DeviceOptions options);
  ~SimExportedDevice() override;

  [[nodiscard]] ExportedDeviceInfo info() override;
  usb::UrbResult control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) override;
  uint64_t submitOut(uint8_t endpointAddress, std::vector<uint8_t> data, Completion done) override;
  uint64_t submitIn(uint8_t endpointAddress, uint32_t length, Completion done) override;
  bool cancel(uint64_t urbId) override;
  void busReset() override;
  void powerCycle() override;

  // The device in use (replaced by powerCycle()). Throws if a power cycle failed to build one.
  [[nodiscard]] sim::Device& device() { return live(); }

 private:
  sim::Device& live();

  sim::DeviceOptions options_;
  std::unique_ptr<sim::Device> device_;
};

}  // namespace coralsim::usbip
