// RecordingTransport: a Transport that forwards every call to another one and records it in a USB
// transaction log (traces/usb_log.h) — the driver's side of `coralsim run --trace-usb` and
// `coralsim-usb run --trace-usb`, comparable with captures of real sessions by `coralsim
// trace-diff`. CSR accesses are named from the driver's register table.
//
// Time: on real hardware every transaction carries the host's monotonic clock. On a simulated
// device (the inner transport offers introspection) only control transfers carry a time: the
// simulated cycle when they completed and cycles / clock. Control transfers are answered while the
// chip waits for the host, so that cycle is the same on every run; a bulk transfer completes on
// the simulator's thread while the chip may go on computing, so a cycle read when the driver sees
// the completion would depend on thread scheduling — bulk transfers carry no time there, and the
// log stays byte-identical across runs (per-run cycles are in the run report).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "driver/transport/transport.h"
#include "traces/usb_log.h"
#include "units/units.h"

namespace coralsim::driver {

// Names of CSR addresses from driver/transport/beagle_csrs.h: "scu_ctrl_3", "scalarRegisterFile[3]".
traces::RegisterNamer csrRegisterNamer();

class RecordingTransport final : public Transport {
 public:
  // `clock` converts simulated cycles to microseconds (the chip clock the device runs at).
  RecordingTransport(Transport& inner, traces::UsbLog& log, units::Frequency clock = 500'000'000);

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
  units::Frequency clock_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace coralsim::driver
