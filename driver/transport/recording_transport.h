// RecordingTransport: a Transport that forwards every call to another one and records it in a USB
// transaction log (traces/usb_log.h) — the driver's side of `coralsim run --trace-usb` and
// `coralsim-usb run --trace-usb`, comparable with captures of real sessions by `coralsim
// trace-diff`. CSR accesses are named from the driver's register table.
//
// Time: on real hardware every transaction carries the host's monotonic clock. On a simulated
// device (the inner transport offers introspection) every transaction carries the instant the
// device itself stamped on its completion (DeviceIntrospection::lastTransferInstant): `t_us` the
// device time (chip compute + USB link time + host turnarounds, sim/device_clock.h) and `cycle`
// the chip cycle. The device stamps at points of the simulation that depend only on the program,
// the data and the transfer order — never when the host happens to see the completion — so the
// log is byte-identical across runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "driver/transport/transport.h"
#include "traces/usb_log.h"

namespace coralsim::driver {

// Names of CSR addresses from driver/transport/beagle_csrs.h: "scu_ctrl_3", "scalarRegisterFile[3]".
traces::RegisterNamer csrRegisterNamer();

class RecordingTransport final : public Transport {
 public:
  RecordingTransport(Transport& inner, traces::UsbLog& log);

  [[nodiscard]] std::string name() const override { return inner_.name(); }
  std::vector<uint8_t> control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) override;
  void bulkOut(uint8_t endpoint, std::span<const uint8_t> bytes) override;
  std::vector<uint8_t> bulkIn(uint8_t endpoint, uint32_t maxLength) override;
  void cancelAsyncTransfers() override { inner_.cancelAsyncTransfers(); }
  void resetDevice(std::chrono::milliseconds reenumerationTimeout) override { inner_.resetDevice(reenumerationTimeout); }
  [[nodiscard]] usb::UsbSpeed linkSpeed() const override { return inner_.linkSpeed(); }
  [[nodiscard]] const DeviceIntrospection* introspection() const override { return inner_.introspection(); }

 private:
  void stamp(traces::UsbLogBuilder::Transfer& t) const;

  Transport& inner_;
  traces::UsbLogBuilder builder_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace coralsim::driver
