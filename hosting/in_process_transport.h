// InProcessTransport: a Transport onto a sim::Device in the same process. It lives in hosting/,
// above both the driver and the simulator, so driver/ itself never sees sim/device.h. Bulk and
// interrupt transfers are asynchronous on the device; each call
// here submits one URB and waits for its completion on a condition variable (the device signals
// completion from its simulator thread), cancelling the URB when it has waited `timeout` of wall
// time during which the simulation thread did no work at all. Time the host machine spends
// simulating does not count (sim/simulation_activity.h): a big program on a slow or sanitizer
// build is not a timeout, a transfer the program never serves is. Like libedgetpu it keeps a 4-byte URB posted on the interrupt endpoint 0x83; a fatal
// interrupt (bit 0) fails the transfer in progress and later ones with DeviceFaultError.
// It also offers DeviceIntrospection (simulated cycles, descriptor log, fault text).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "driver/transport/transport.h"

namespace coralsim::sim {
class Device;
}

namespace coralsim::driver {

class InProcessTransport final : public Transport {
 public:
  static constexpr std::chrono::milliseconds kDefaultTimeout{10'000};

  explicit InProcessTransport(sim::Device& device, std::chrono::milliseconds timeout = kDefaultTimeout);
  ~InProcessTransport() override;
  InProcessTransport(const InProcessTransport&) = delete;
  InProcessTransport& operator=(const InProcessTransport&) = delete;

  [[nodiscard]] std::string name() const override { return "in-process"; }
  std::vector<uint8_t> control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) override;
  void bulkOut(uint8_t endpoint, std::span<const uint8_t> bytes) override;
  std::vector<uint8_t> bulkIn(uint8_t endpoint, uint32_t maxLength) override;
  void cancelAsyncTransfers() override;
  // Device::busReset(): the reset and the re-enumeration are instant in process (an armed DFU
  // personality switch takes effect), so there is nothing to wait for.
  void resetDevice(std::chrono::milliseconds reenumerationTimeout) override;
  [[nodiscard]] usb::UsbSpeed linkSpeed() const override;
  [[nodiscard]] const DeviceIntrospection* introspection() const override;

  void setTimeout(std::chrono::milliseconds timeout) { timeout_ = timeout; }
  [[nodiscard]] std::chrono::milliseconds timeout() const { return timeout_; }

  struct Shared;  // state shared with completion callbacks (outlives this object if need be)

 private:
  class Introspection;
  struct Slot;  // one pending URB's completion
  void ensureInterruptUrb();
  void throwIfFaulted(const std::string& operation);
  usb::UrbResult await(uint64_t urbId, const std::shared_ptr<Slot>& slot, const std::string& operation);

  sim::Device& device_;
  std::chrono::milliseconds timeout_;
  std::shared_ptr<Shared> shared_;
  std::optional<uint64_t> interruptUrb_;
  std::unique_ptr<Introspection> introspection_;
};

}  // namespace coralsim::driver
