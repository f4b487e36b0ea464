// UsbPersonality: who the device says it is on EP0, and when that changes. It answers every
// standard request (GET_DESCRIPTOR from the personality's UsbDescriptorTable, GET/SET_CONFIGURATION,
// GET_STATUS, GET/SET_INTERFACE, and the enumeration-only ones: SET_ADDRESS, SET/CLEAR_FEATURE,
// SET_SEL, SET_ISOCH_DELAY) and every class request (DFU, via DfuStateMachine, in the bootloader;
// DFU_DETACH in the runtime). Vendor requests — CSR access — are not its business: handle()
// returns nullopt for them in the runtime personality and STALLs them in the bootloader.
//
// Personality switching (docs/usb-protocol.md §1.5, §10.5 items 7-9): real hardware changes
// personality at the next USB reset, which USB/IP never forwards. The switch is ARMED by a
// completed DFU download (bootloader → runtime) or by DFU_DETACH (runtime → bootloader) and
// TAKES EFFECT when the host re-enumerates: the kernel's first request after every reset is
// GET_DESCRIPTOR(DEVICE) with wLength 8 (SuperSpeed) or 64 (USB 2), never the 18 user space
// uses, so any GET_DESCRIPTOR(DEVICE) with wLength != 18 is taken as "a bus reset happened".
// handle() reports it (ControlOutcome::busReset) so the USB function flushes its bridge; the
// descriptor answer already comes from the new personality. The speed never changes.
//
// Plain C++: no SystemC. Not thread-safe (the USB function calls it from one thread).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "sim/dfu_state_machine.h"
#include "sim/usb_descriptors.h"
#include "usb/usb_types.h"

namespace coralsim::sim {

struct ControlOutcome {
  usb::UrbResult result;
  // The request revealed a bus reset (the host re-enumerating): flush the bridge (pending URBs,
  // queued outputs/events, the OUT parser), keep the CSRs.
  bool busReset = false;
  // That bus reset also changed the personality (see personality()).
  bool personalityChanged = false;
};

class UsbPersonality {
 public:
  explicit UsbPersonality(usb::UsbSpeed speed = usb::UsbSpeed::kSuper, usb::CoralPersonality initial = usb::CoralPersonality::kRuntime);

  // Standard and class requests (see above). nullopt: a vendor request in the runtime
  // personality, for the caller (the CSR path). `outData` is the data stage of host-to-device
  // requests (size == wLength).
  [[nodiscard]] std::optional<ControlOutcome> handle(const usb::ControlSetup& setup, std::span<const uint8_t> outData);

  [[nodiscard]] usb::CoralPersonality personality() const { return descriptors_.personality(); }
  [[nodiscard]] usb::UsbSpeed speed() const { return descriptors_.speed(); }
  [[nodiscard]] const UsbDescriptorTable& descriptors() const { return descriptors_; }
  // The personality the next bus reset switches to, if one is armed.
  [[nodiscard]] std::optional<usb::CoralPersonality> armedSwitch() const { return armed_; }
  // Set by SET_CONFIGURATION; 0 (unconfigured) after a bus reset.
  [[nodiscard]] uint8_t configuration() const { return configuration_; }
  [[nodiscard]] const DfuStateMachine& dfu() const { return dfu_; }
  // The image of the last completed download, kept across the switch to the runtime (for logs).
  [[nodiscard]] const std::optional<FirmwareImage>& loadedFirmware() const { return loadedFirmware_; }

  // A bus reset the device learns of directly (Device::busReset(), an in-process host's port
  // reset) rather than from the enumeration that follows it: unconfigured, and an armed switch
  // takes effect. Returns true when the personality changed.
  bool busReset();

  // Power cycle / unplug (a new USB/IP import of a device that lost power): back to `initial`,
  // nothing armed, DFU engine and configuration reset.
  void powerOn(usb::CoralPersonality initial);

 private:
  ControlOutcome standardRequest(const usb::ControlSetup& setup);
  ControlOutcome classRequest(const usb::ControlSetup& setup, std::span<const uint8_t> outData);
  ControlOutcome getDescriptor(const usb::ControlSetup& setup);
  void switchTo(usb::CoralPersonality next);

  UsbDescriptorTable descriptors_;
  DfuStateMachine dfu_;
  std::optional<usb::CoralPersonality> armed_;
  std::optional<FirmwareImage> loadedFirmware_;
  uint8_t configuration_ = 0;
};

}  // namespace coralsim::sim
