// UsbipClientTransport: the driver's Transport over USB/IP without a kernel — the userspace client
// of usbip/client.h connects to a USB/IP server (coralsim serve, or any usbipd), imports one bus id
// and turns every Transport call into a CMD_SUBMIT and its RET_SUBMIT. A call that does not finish
// within the timeout is unlinked (CMD_UNLINK) and fails with TransportError, unless the device
// completed it meanwhile (then its data is used: nothing the device sent is lost). Like libedgetpu
// it keeps a 4-byte interrupt URB posted on EP 0x83 while bulk transfers run; a fatal interrupt
// (bit 0) fails the call in progress and later ones with DeviceFaultError.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "driver/transport/transport.h"

namespace coralsim::usbip {
class UsbipClient;
}

namespace coralsim::driver {

class UsbipClientTransport final : public Transport {
 public:
  static constexpr std::chrono::milliseconds kDefaultTimeout{10'000};

  // Connects to host:port and imports `busId`; throws TransportError when that fails.
  UsbipClientTransport(const std::string& host, uint16_t port, const std::string& busId,
                       std::chrono::milliseconds timeout = kDefaultTimeout);
  ~UsbipClientTransport() override;
  UsbipClientTransport(const UsbipClientTransport&) = delete;
  UsbipClientTransport& operator=(const UsbipClientTransport&) = delete;

  [[nodiscard]] std::string name() const override { return name_; }
  std::vector<uint8_t> control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) override;
  void bulkOut(uint8_t endpoint, std::span<const uint8_t> bytes) override;
  std::vector<uint8_t> bulkIn(uint8_t endpoint, uint32_t maxLength) override;
  void cancelAsyncTransfers() override;
  // A port reset as the Linux kernel performs it over USB/IP: vhci resets the port locally and
  // forwards nothing, then enumerates the device again — GET_DESCRIPTOR(DEVICE) with wLength 8
  // (SuperSpeed) or 64 (high speed) first, then 18, BOS, the configuration (9, then whole),
  // SET_CONFIGURATION(1) (docs/usb-protocol.md §10.5 item 7). This client is the host here, so it
  // sends exactly that; a device with an armed personality switch answers as its new self.
  void resetDevice(std::chrono::milliseconds reenumerationTimeout) override;
  [[nodiscard]] usb::UsbSpeed linkSpeed() const override;

  void setTimeout(std::chrono::milliseconds timeout) { timeout_ = timeout; }
  [[nodiscard]] std::chrono::milliseconds timeout() const { return timeout_; }

 private:
  struct Answer;
  Answer await(uint32_t seqnum, const std::string& operation);
  void ensureInterruptUrb();
  void checkInterrupt(const std::string& operation);

  std::string name_;
  std::chrono::milliseconds timeout_;
  std::unique_ptr<usbip::UsbipClient> client_;
  std::optional<uint32_t> interruptUrb_;
  bool faulted_ = false;
};

}  // namespace coralsim::driver
