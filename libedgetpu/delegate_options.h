// What a delegate is configured with: libedgetpu's own option keys plus coralsim's, from the
// delegate options an application passes (load_delegate(..., options={...}),
// edgetpu_create_delegate's edgetpu_option list) and the CORALSIM_* environment variables. A
// delegate option wins over the environment, which wins over the default.
//
//   key           env                    meaning
//   device        CORALSIM_DEVICE        "" / "usb": the first USB device, "usb:N" / ":N": the Nth, of
//                                        the Corals libusb sees followed by the in-process simulator
//                                        (so without hardware: the simulator); a path from
//                                        edgetpu_list_devices; "sim": the simulator always;
//                                        "usbip:HOST:PORT[:BUSID]": a `coralsim serve` (bus id 1-1
//                                        by default) through the userspace USB/IP client
//   firmware      CORALSIM_FIRMWARE      runtime firmware image for a physical Coral still in its
//                                        bootloader personality (loaded over DFU, as libedgetpu does)
//   mode          CORALSIM_MODE          datapath rung: auto (default), lle, hle, protocol
//   hle           CORALSIM_HLE           "COMPILED=CPU[;COMPILED=CPU...]": compiled models and their
//                                        CPU twins the hle rung computes with
//   hle_dir       CORALSIM_HLE_DIR       a folder: every X_edgetpu.tflite in it with X.tflite beside
//                                        it is registered as above (pairs that do not match are
//                                        skipped with a log line)
//   cycle_limit   CORALSIM_CYCLE_LIMIT   stop a run after N simulated cycles
//   clock_mhz     CORALSIM_CLOCK_MHZ     chip clock (default 500)
//   service       CORALSIM_SERVICE       hints (default) or events
//   timeout_ms    CORALSIM_TIMEOUT_MS    wall-clock limit per host transfer
//   verbosity     CORALSIM_VERBOSITY     log level on stderr (0 = errors only)
//   timing        CORALSIM_TIMING        1: print each invocation's device time (the simulated
//                                        device's clock, as `coralsim run --timing`; simulator only)
//   trace_usb     CORALSIM_TRACE_USB     FILE: the session's USB transaction log (JSONL, as
//                                        `coralsim run --trace-usb`), written when the device closes
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "driver/run/service_mode.h"
#include "models/chip_config.h"

namespace coralsim::libedgetpu {

class OptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct HleTwin {
  std::string compiled;
  std::string cpu;
};

struct DelegateOptions {
  // Normalised: "sim", "usb:N" (Nth of the Corals on the bus, then the simulator), "usbpath:BUS-PORTS"
  // (a Coral at that bus path) or "usbip:HOST:PORT[:BUSID]".
  std::string device = "usb:0";
  std::string firmware;  // file path; empty: none
  models::ExecutionMode mode = models::ExecutionMode::kAuto;
  std::vector<HleTwin> hleTwins;
  std::string hleDir;
  std::optional<uint64_t> cycleLimit;
  std::optional<uint64_t> clockMhz;
  driver::ServiceMode service = driver::ServiceMode::kHints;
  std::chrono::milliseconds timeout{10'000};
  std::optional<int> verbosity;
  bool timing = false;
  std::string traceUsb;  // file path; empty: no USB log

  // Identifies a configuration: delegates with equal keys share one device (and its parameter cache).
  [[nodiscard]] std::string sharingKey() const;
};

// The device paths edgetpu_list_devices hands out: a Coral on the bus is
// kUsbDevicePathPrefix + its bus-port path (libedgetpu's sysfs form), the simulator kSimulatorDevicePath.
inline constexpr std::string_view kUsbDevicePathPrefix = "/sys/bus/usb/devices/";
inline constexpr std::string_view kSimulatorDevicePath = "coralsim:sim";

struct UsbipDevice {
  std::string host;
  uint16_t port = 0;
  std::string busId = "1-1";
};
// "usbip:HOST:PORT[:BUSID]"; throws OptionError naming the value when malformed.
UsbipDevice parseUsbipDevice(const std::string& device);

// Applies `keyValues` (delegate options) over the CORALSIM_* environment. Throws OptionError naming
// the key and value for an unknown key or a malformed value.
DelegateOptions parseDelegateOptions(const std::map<std::string, std::string>& keyValues);

}  // namespace coralsim::libedgetpu
