// LibusbTransport: the driver's Transport over libusb-1.0 — a physical Coral USB Accelerator, or
// an emulated one the kernel attached (vhci-hcd importing `coralsim serve` over USB/IP). It finds
// the device by its USB identity (18d1:9302 runtime or 1a6e:089a bootloader,
// usb/coral_usb_ids.h), optionally at one bus-port path, opens it and claims interface 0.
//
// Every transfer runs asynchronously under libusb and is waited for in the calling thread, so a
// transfer is bounded by the timeout and, like libedgetpu, a 4-byte URB stays posted on the
// interrupt endpoint 0x83 while bulk transfers run: a fatal interrupt (bit 0, docs/usb-protocol.md
// §4.3) cancels the transfer in progress and fails it and later ones with DeviceFaultError.
// Bulk IN requests are rounded up to whole max-size packets (a real device may send a full packet
// the caller did not ask for); surplus bytes are kept per endpoint for the next read, so no byte
// is lost or reordered.
//
// resetDevice() is libusb_reset_device() followed by the wait libedgetpu does after a DFU
// download: the kernel re-enumerates a device whose descriptors changed (same bus and ports, new
// address), so the transport polls for a Coral at the same path with a FRESH libusb context each
// time — libusb learns of new devices through udev events, which a minimal system (the e2e test's
// initramfs has no udevd) never sends, while a new context scans sysfs.
//
// Not thread-safe: one thread uses a transport at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/transport/transport.h"
#include "usb/coral_usb_ids.h"

struct libusb_context;
struct libusb_device;
struct libusb_device_handle;
struct libusb_transfer;

namespace coralsim::driver {

// A Coral seen on the bus.
struct UsbDeviceLocation {
  uint8_t busNumber = 0;
  std::vector<uint8_t> ports;  // port numbers from the root hub down
  uint8_t address = 0;         // device address on the bus (changes on re-enumeration)
  uint16_t vendorId = 0;
  uint16_t productId = 0;
  usb::CoralPersonality personality = usb::CoralPersonality::kRuntime;
  std::string speedName;  // "super", "high", ... as libusb reports it

  // The sysfs-style bus-port path, "1-1" or "2-1.3": stable across re-enumeration.
  [[nodiscard]] std::string path() const;
};

struct LibusbOptions {
  // Bus-port path ("1-1") of the device to use; nullopt: the only Coral found (several: an error
  // listing them).
  std::optional<std::string> path;
  // Wall-clock bound of every transfer.
  std::chrono::milliseconds timeout{10'000};
};

// Every Coral (either personality) libusb sees right now, in bus/port order. Throws
// TransportError when libusb cannot be initialised.
[[nodiscard]] std::vector<UsbDeviceLocation> listCoralDevices();

class LibusbTransport final : public Transport {
 public:
  static constexpr std::chrono::milliseconds kDefaultTimeout{10'000};

  // Finds, opens and claims interface 0 of the Coral `options` names. Throws TransportError
  // naming what was looked for and what was found when there is no such device or it cannot be
  // opened (permissions, claimed by another program).
  explicit LibusbTransport(LibusbOptions options = {});
  ~LibusbTransport() override;
  LibusbTransport(const LibusbTransport&) = delete;
  LibusbTransport& operator=(const LibusbTransport&) = delete;

  // "libusb 1-1 18d1:9302"
  [[nodiscard]] std::string name() const override;
  std::vector<uint8_t> control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) override;
  void bulkOut(uint8_t endpoint, std::span<const uint8_t> bytes) override;
  std::vector<uint8_t> bulkIn(uint8_t endpoint, uint32_t maxLength) override;
  void cancelAsyncTransfers() override;
  [[nodiscard]] usb::UsbSpeed linkSpeed() const override;
  void resetDevice(std::chrono::milliseconds reenumerationTimeout) override;

  // The device as opened (after resetDevice(): as reopened).
  [[nodiscard]] const UsbDeviceLocation& device() const { return location_; }
  [[nodiscard]] usb::CoralPersonality personality() const { return location_.personality; }

  void setTimeout(std::chrono::milliseconds timeout) { options_.timeout = timeout; }

 private:
  struct Pending;  // one submitted transfer and its completion
  void openAt(const std::optional<std::string>& path);
  void closeHandle();
  // Submits `transfer` and runs libusb's event loop until it completes; cancels it on a fatal
  // interrupt. Returns its final status (a libusb_transfer_status).
  int submitAndWait(libusb_transfer* transfer, Pending& pending, const std::string& operation);
  // submitAndWait() for a transfer the caller owns: on a transport error a transfer libusb has not
  // completed is left to libusb (released, not freed under it); a device fault frees it as usual.
  int submitOwnedAndWait(std::unique_ptr<Pending>& pending, const std::string& operation);
  void ensureInterruptUrb();
  void throwIfFaulted(const std::string& operation) const;
  [[nodiscard]] uint16_t maxPacketSize(uint8_t endpoint) const;

  LibusbOptions options_;
  libusb_context* context_ = nullptr;
  libusb_device_handle* handle_ = nullptr;
  bool claimed_ = false;
  UsbDeviceLocation location_;
  std::map<uint8_t, uint16_t> maxPacket_;               // from the active configuration
  std::map<uint8_t, std::vector<uint8_t>> inSurplus_;   // bytes received beyond a read's length

  // The interrupt URB on EP 0x83 (posted while bulk transfers run).
  struct InterruptUrb;
  std::unique_ptr<InterruptUrb> interrupt_;
  bool faulted_ = false;
};

}  // namespace coralsim::driver
