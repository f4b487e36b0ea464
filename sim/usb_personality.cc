#include "sim/usb_personality.h"

#include <algorithm>
#include <array>

namespace coralsim::sim {
namespace {

constexpr uint8_t kRequestTypeMask = 0x60;
constexpr uint8_t kTypeStandard = 0x00;
constexpr uint8_t kTypeClass = 0x20;
constexpr uint8_t kTypeVendor = 0x40;

// Standard requests (USB 2.0 table 9-4, USB 3.2 table 9-5).
namespace standard_request {
constexpr uint8_t kGetStatus = 0;
constexpr uint8_t kClearFeature = 1;
constexpr uint8_t kSetFeature = 3;
constexpr uint8_t kSetAddress = 5;
constexpr uint8_t kGetDescriptor = 6;
constexpr uint8_t kGetConfiguration = 8;
constexpr uint8_t kSetConfiguration = 9;
constexpr uint8_t kGetInterface = 10;
constexpr uint8_t kSetInterface = 11;
constexpr uint8_t kSetSel = 48;
constexpr uint8_t kSetIsochDelay = 49;
}  // namespace standard_request

// What user space asks for (libedgetpu, libusb, pyusb); the kernel asks for 8 or 64 after a reset.
constexpr uint16_t kFullDeviceDescriptorLength = 18;

ControlOutcome ackOutcome() { return ControlOutcome{}; }

ControlOutcome stallOutcome() {
  ControlOutcome o;
  o.result.status = usb::UrbStatus::kStall;
  return o;
}

ControlOutcome inOutcome(std::span<const uint8_t> bytes, uint16_t wLength) {
  ControlOutcome o;
  const size_t n = std::min<size_t>(bytes.size(), wLength);
  o.result.data.assign(bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(n));
  o.result.actualLength = static_cast<uint32_t>(n);
  return o;
}

}  // namespace

UsbPersonality::UsbPersonality(usb::UsbSpeed speed, usb::CoralPersonality initial)
    : descriptors_(UsbDescriptorTable::of(initial, speed)) {}

void UsbPersonality::powerOn(usb::CoralPersonality initial) {
  descriptors_ = UsbDescriptorTable::of(initial, descriptors_.speed());
  dfu_.reset();
  armed_.reset();
  loadedFirmware_.reset();
  configuration_ = 0;
}

bool UsbPersonality::busReset() {
  configuration_ = 0;
  if (!armed_) return false;
  switchTo(*armed_);
  return true;
}

void UsbPersonality::switchTo(usb::CoralPersonality next) {
  descriptors_ = UsbDescriptorTable::of(next, descriptors_.speed());
  armed_.reset();
  // A freshly detached device is the ROM bootloader again: no image, dfuIDLE.
  if (next == usb::CoralPersonality::kBootloader) dfu_.reset();
}

std::optional<ControlOutcome> UsbPersonality::handle(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  switch (setup.bmRequestType & kRequestTypeMask) {
    case kTypeStandard:
      return standardRequest(setup);
    case kTypeClass:
      return classRequest(setup, outData);
    case kTypeVendor:
      // CSR access belongs to the chip; the ROM bootloader has none.
      if (personality() == usb::CoralPersonality::kRuntime) return std::nullopt;
      return stallOutcome();
    default:
      return stallOutcome();  // reserved request type
  }
}

ControlOutcome UsbPersonality::getDescriptor(const usb::ControlSetup& setup) {
  const auto type = static_cast<uint8_t>(setup.wValue >> 8);
  const auto index = static_cast<uint8_t>(setup.wValue);
  ControlOutcome outcome;
  if (type == descriptor_type::kDevice && setup.wLength != kFullDeviceDescriptorLength) {
    // The kernel re-enumerating after a bus reset (§10.5 item 7).
    outcome.busReset = true;
    outcome.personalityChanged = busReset();
  }
  const auto bytes = descriptors_.getDescriptor(type, index, setup.wLength);
  if (!bytes) {
    ControlOutcome stalled = stallOutcome();
    stalled.busReset = outcome.busReset;
    stalled.personalityChanged = outcome.personalityChanged;
    return stalled;
  }
  outcome.result.actualLength = static_cast<uint32_t>(bytes->size());
  outcome.result.data = *bytes;
  return outcome;
}

ControlOutcome UsbPersonality::standardRequest(const usb::ControlSetup& setup) {
  using namespace standard_request;
  const bool in = setup.isDeviceToHost();
  switch (setup.bRequest) {
    case kGetDescriptor:
      return in ? getDescriptor(setup) : stallOutcome();  // SET_DESCRIPTOR is not supported
    case kGetStatus: {
      static constexpr std::array<uint8_t, 2> kStatus{};  // bus-powered, no remote wakeup, not halted
      return in ? inOutcome(kStatus, setup.wLength) : stallOutcome();
    }
    case kGetConfiguration:
      return in ? inOutcome(std::span<const uint8_t>(&configuration_, 1), setup.wLength) : stallOutcome();
    case kSetConfiguration:
      if (in || setup.wValue > 1) return stallOutcome();  // configuration 1 exists, 0 unconfigures
      configuration_ = static_cast<uint8_t>(setup.wValue);
      return ackOutcome();
    case kGetInterface: {
      static constexpr uint8_t kAlternate = 0;
      if (!in || setup.wIndex != 0) return stallOutcome();
      return inOutcome(std::span<const uint8_t>(&kAlternate, 1), setup.wLength);
    }
    case kSetInterface:
      return (!in && setup.wIndex == 0 && setup.wValue == 0) ? ackOutcome() : stallOutcome();
    case kClearFeature:
    case kSetFeature:
    case kSetAddress:
    case kSetSel:
    case kSetIsochDelay:
      // Enumeration and link-power housekeeping: nothing to model (vhci answers SET_ADDRESS itself).
      return in ? stallOutcome() : ackOutcome();
    default:
      return stallOutcome();
  }
}

ControlOutcome UsbPersonality::classRequest(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  if (personality() == usb::CoralPersonality::kRuntime) {
    // Runtime: only DFU_DETACH to interface 0 (libedgetpu with Usb.AlwaysDfu) — arm the switch.
    if (setup.bmRequestType == usb::kDfuHostToDevice && setup.bRequest == dfu_request::kDetach && setup.wIndex == 0) {
      armed_ = usb::CoralPersonality::kBootloader;
      return ackOutcome();
    }
    return stallOutcome();
  }
  std::optional<usb::UrbResult> result = dfu_.handle(setup, outData);
  if (!result) return stallOutcome();
  // A completed download arms the switch to the runtime; starting a new one disarms it.
  if (dfu_.downloadComplete()) {
    armed_ = usb::CoralPersonality::kRuntime;
    loadedFirmware_ = dfu_.completedImage();
  } else {
    armed_.reset();
  }
  ControlOutcome outcome;
  outcome.result = std::move(*result);
  return outcome;
}

}  // namespace coralsim::sim
