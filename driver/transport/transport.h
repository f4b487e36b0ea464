// Transport: how the host driver reaches one Coral USB Accelerator — EP0 control transfers (CSR
// access, docs/usb-protocol.md §2), bulk OUT EP 0x01 (framed records, §3.2), bulk IN EP 0x81
// (outputs) and 0x82 (16-byte events, §4). The runner talks only to this interface, so the same
// code drives the in-process simulator, the USB/IP client and (later) libusb on a real Coral.
//
// Every call is synchronous and bounded by a timeout; any failure throws TransportError naming
// the transport, the operation, the endpoint or register, and the cause. A transport that learns
// of a fatal device interrupt (EP 0x83 bit 0) fails the call in progress and later ones with
// DeviceFaultError, so a faulted device never makes the runner wait for a timeout.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "driver/transport/device_introspection.h"
#include "usb/usb_types.h"

namespace coralsim::driver {

class TransportError : public std::runtime_error {
 public:
  // "<transport>: <operation>: <cause>", e.g.
  // "in-process: bulk IN EP 0x82 (16 bytes): timed out after 10000 ms".
  TransportError(std::string_view transport, std::string_view operation, std::string_view cause);
};

// The device reported a fatal error (interrupt bit 0 on EP 0x83) while or before the call ran.
class DeviceFaultError : public TransportError {
 public:
  using TransportError::TransportError;
};

// The two CSR access widths (docs/usb-protocol.md §2): bRequest 1 = 32-bit, bRequest 0 = 64-bit.
enum class CsrWidth : uint8_t { k32 = 32, k64 = 64 };

// The SETUP packet of a vendor CSR access: 0xC0 (read) / 0x40 (write), addr = wIndex<<16 | wValue.
usb::ControlSetup csrSetup(uint32_t address, CsrWidth width, bool read);

class Transport {
 public:
  virtual ~Transport() = default;

  // A short human-readable name for errors and reports ("in-process", "usbip 127.0.0.1:3240").
  [[nodiscard]] virtual std::string name() const = 0;

  // One control transfer. Device-to-host requests return the data stage (at most wLength bytes);
  // host-to-device requests send `outData` (size must equal wLength) and return nothing.
  // A STALL or any other failure throws TransportError.
  virtual std::vector<uint8_t> control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) = 0;

  // Bulk OUT of `bytes` to `endpoint`; returns once the device accepted every byte.
  virtual void bulkOut(uint8_t endpoint, std::span<const uint8_t> bytes) = 0;

  // Bulk IN from `endpoint` of at most `maxLength` bytes; returns what one transfer delivered.
  virtual std::vector<uint8_t> bulkIn(uint8_t endpoint, uint32_t maxLength) = 0;

  // Gives back every asynchronous transfer the transport keeps posted on its own (e.g. the
  // interrupt URB on EP 0x83): step 0 of the close sequence (docs/usb-protocol.md §5.4). The next
  // call posts them again.
  virtual void cancelAsyncTransfers() {}

  // A USB port reset, as libedgetpu does after a DFU download (docs/usb-protocol.md §1.4-1.5). A
  // device whose descriptors change across the reset re-enumerates (new address, same port); the
  // transport waits up to `reenumerationTimeout` for it to come back on the same port, reopens it
  // and is usable again afterwards, whatever personality it shows now. Transports that cannot
  // reset a device throw TransportError (the default).
  virtual void resetDevice(std::chrono::milliseconds reenumerationTimeout);

  // The link speed the device enumerated at (selects outfeed_chunk_length at open).
  [[nodiscard]] virtual usb::UsbSpeed linkSpeed() const { return usb::UsbSpeed::kSuper; }

  // Simulator-only view into the device (simulated cycles, every descriptor the scalar core
  // pushed, fault text); nullptr for transports that reach real or remote hardware.
  [[nodiscard]] virtual const DeviceIntrospection* introspection() const { return nullptr; }

  // CSR helpers over control(): exact lengths, little-endian. `read32` of a register returns the
  // 4 bytes the device sends; a short read is a TransportError naming the register.
  uint32_t read32(uint32_t address);
  uint64_t read64(uint32_t address);
  void write32(uint32_t address, uint32_t value);
  void write64(uint32_t address, uint64_t value);
};

}  // namespace coralsim::driver
