// USB-level vocabulary shared by the device side (UsbFunction, Device), the USB/IP server and the
// host-side transports. Plain data only: no SystemC, no libusb.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace coralsim::usb {

// Endpoint addresses of the Coral USB Accelerator (docs/usb-protocol.md §1.1, §4).
namespace endpoint {
inline constexpr uint8_t kControl = 0x00;
inline constexpr uint8_t kBulkOut = 0x01;        // framed records: instructions, inputs, parameters
inline constexpr uint8_t kBulkOutInput = 0x02;   // multi-EP mode only
inline constexpr uint8_t kBulkOutParams = 0x03;  // multi-EP mode only
inline constexpr uint8_t kOutputIn = 0x81;       // output activations
inline constexpr uint8_t kEventIn = 0x82;        // 16-byte event descriptors (bulk, not interrupt)
inline constexpr uint8_t kInterruptIn = 0x83;    // 4-byte interrupt bitmaps
}  // namespace endpoint

enum class UsbSpeed { kHigh, kSuper };

// The 8-byte SETUP packet of a control transfer.
struct ControlSetup {
  uint8_t bmRequestType = 0;
  uint8_t bRequest = 0;
  uint16_t wValue = 0;
  uint16_t wIndex = 0;
  uint16_t wLength = 0;

  [[nodiscard]] bool isDeviceToHost() const { return (bmRequestType & 0x80) != 0; }
};

// Completion status of a transfer, with the Linux errno each one maps to on USB/IP.
enum class UrbStatus {
  kOk,          // 0
  kStall,       // -EPIPE
  kCancelled,   // -ECONNRESET (unlinked before completion)
  kOverflow,    // -EOVERFLOW (babble)
  kShutdown,    // -ESHUTDOWN (device gone / reset)
  kInvalid,     // -EINVAL (malformed request)
};

[[nodiscard]] int urbStatusToErrno(UrbStatus status);
[[nodiscard]] std::string_view urbStatusName(UrbStatus status);

// When a transfer completed on a simulated device's clock (sim/device_clock.h): device time since
// power-on (chip compute + USB link time + host turnarounds, in picoseconds) and the chip cycle.
// Real devices and the USB/IP wire have no such thing.
struct SimulatedInstant {
  uint64_t picoseconds = 0;
  uint64_t chipCycle = 0;
  friend bool operator==(const SimulatedInstant&, const SimulatedInstant&) = default;
};

struct UrbResult {
  UrbStatus status = UrbStatus::kOk;
  // IN transfers: the bytes delivered (size = actual length). OUT transfers: empty.
  std::vector<uint8_t> data;
  // OUT transfers: bytes the device accepted. IN transfers: equals data.size().
  uint32_t actualLength = 0;
  // Set by a simulated device (sim::Device) on completions it produced; never on the wire.
  std::optional<SimulatedInstant> simulated;
};

}  // namespace coralsim::usb
