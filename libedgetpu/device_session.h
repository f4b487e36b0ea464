// One open Coral behind a delegate: the emulated device (sim::Device) in this process with the
// in-process transport onto it — the chain `coralsim run` builds — or a `coralsim serve` reached
// through the userspace USB/IP client (device usbip:...), and an open driver::Runner.
// Delegates with the same configuration share one session, as libedgetpu's interpreters share one
// device: the Runner then skips PARAMETER_CACHING when the device already holds a package's token,
// across invocations and across interpreters. run() serialises callers (one device, one program at
// a time).
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "driver/transport/recording_transport.h"
#include "driver/run/run_plan.h"
#include "driver/run/run_result.h"
#include "libedgetpu/delegate_options.h"
#include "usb/usb_types.h"
#include "traces/usb_log.h"

namespace coralsim::sim {
class Device;
}
namespace coralsim::driver {
class Transport;
class Runner;
}  // namespace coralsim::driver

namespace coralsim::libedgetpu {

class DeviceSession {
 public:
  // The session for `options`: an existing one with the same DelegateOptions::sharingKey(), or a
  // new one (hle twins loaded, device powered on, libedgetpu's open sequence run). Throws
  // std::exception with a message naming what failed.
  static std::shared_ptr<DeviceSession> acquire(const DelegateOptions& options);

  explicit DeviceSession(const DelegateOptions& options);
  ~DeviceSession();  // runs the close sequence; errors are logged, never thrown
  DeviceSession(const DeviceSession&) = delete;
  DeviceSession& operator=(const DeviceSession&) = delete;

  driver::RunResult run(const driver::RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs);
  [[nodiscard]] const DelegateOptions& options() const { return options_; }

 private:
  DelegateOptions options_;
  std::mutex mutex_;
  std::unique_ptr<sim::Device> device_;
  std::unique_ptr<driver::Transport> transport_;
  // trace_usb: the recorder between the Runner and the transport, and the log it fills.
  traces::UsbLog usbLog_;
  std::ofstream usbTraceFile_;
  std::unique_ptr<driver::RecordingTransport> recorder_;
  std::unique_ptr<driver::Runner> runner_;
};

}  // namespace coralsim::libedgetpu
