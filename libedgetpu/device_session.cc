#include "libedgetpu/device_session.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>

#include "driver/transport/libusb_transport.h"
#include "driver/transport/physical_coral.h"
#include "driver/transport/recording_transport.h"
#include "driver/run/runner.h"
#include "driver/transport/usbip_client_transport.h"
#include "hosting/in_process_transport.h"
#include "libedgetpu/verbose_log.h"
#include "sim/device.h"
#include "sim/hle_host/program_loader.h"
#include "sim/hle_host/twin_discovery.h"
#include "traces/usb_log.h"

namespace coralsim::libedgetpu {
namespace {

// The hle programs: every `hle` pair (a bad pair is an error: the user named it), then every
// X_edgetpu.tflite of `hle_dir` with X.tflite beside it (a pair that does not match is skipped and
// logged: a folder may hold anything).
std::shared_ptr<const hle::ProgramRegistry> buildTwinRegistry(const DelegateOptions& options) {
  std::vector<hle::Program> programs;
  for (const HleTwin& t : options.hleTwins) programs.push_back(sim::registerHleProgram(t.compiled, t.cpu));
  if (!options.hleDir.empty()) {
    std::vector<std::filesystem::path> compiled;
    for (const auto& entry : std::filesystem::directory_iterator(options.hleDir)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && name.ends_with("_edgetpu.tflite")) compiled.push_back(entry.path());
    }
    std::sort(compiled.begin(), compiled.end());  // deterministic: an earlier program wins on equal chunks
    for (const auto& path : compiled) {
      const sim::TwinSearch twin = sim::findTwinBeside(path);  // the naming rule `--hle auto` uses
      if (!twin.found) continue;
      try {
        programs.push_back(sim::registerHleProgram(path, twin.candidate));
      } catch (const std::exception& e) {
        log(0, "hle_dir: skipping " + path.filename().string() + ": " + e.what());
      }
    }
  }
  log(1, "registered " + std::to_string(programs.size()) + " hle twin(s)");
  return std::make_shared<const hle::ProgramRegistry>(std::move(programs));
}

// The Corals libusb sees, in libedgetpu's device order. No USB bus to scan (a container without
// /dev/bus/usb) is the same as no Coral on it.
std::vector<driver::UsbDeviceLocation> coralsOnTheBus() {
  try {
    return driver::listCoralDevices();
  } catch (const std::exception& e) {
    log(1, std::string("no USB bus to scan: ") + e.what());
    return {};
  }
}

// Which physical Coral a normalised device names ("usb:N" below the number of Corals on the bus,
// "usbpath:P"), or nullopt for the in-process simulator ("sim", or "usb:N" equal to that number:
// the simulator is the USB device after the physical ones). Throws naming the devices there are.
std::optional<std::string> physicalCoralPath(const std::string& device) {
  if (device.starts_with("usbpath:")) return device.substr(8);
  if (!device.starts_with("usb:")) return std::nullopt;
  const size_t index = std::stoul(device.substr(4));
  const std::vector<driver::UsbDeviceLocation> corals = coralsOnTheBus();
  if (index < corals.size()) return corals[index].path();
  if (index == corals.size()) {
    log(1, device + ": " + (corals.empty() ? std::string("no Coral on the USB bus") : std::to_string(corals.size()) + " Coral(s) on the USB bus before it") +
               ": the in-process simulator");
    return std::nullopt;
  }
  std::string there = "USB devices here: ";
  for (size_t i = 0; i < corals.size(); ++i) there += "usb:" + std::to_string(i) + " = " + driver::describeCoral(corals[i]) + ", ";
  there += "usb:" + std::to_string(corals.size()) + " = the coralsim simulator";
  throw std::runtime_error("device '" + device + "' does not exist; " + there);
}

}  // namespace

std::shared_ptr<DeviceSession> DeviceSession::acquire(const DelegateOptions& options) {
  static std::mutex registryMutex;
  static std::map<std::string, std::weak_ptr<DeviceSession>> sessions;
  const std::lock_guard<std::mutex> lock(registryMutex);
  const std::string key = options.sharingKey();
  if (auto existing = sessions[key].lock()) {
    log(2, "sharing the open device of an earlier delegate (" + key + ")");
    return existing;
  }
  auto session = std::make_shared<DeviceSession>(options);
  sessions[key] = session;
  return session;
}

DeviceSession::DeviceSession(const DelegateOptions& options) : options_(options) {
  sim::DeviceOptions deviceOptions;
  deviceOptions.chip.mode = options.mode;
  if (!options.hleTwins.empty() || !options.hleDir.empty()) {
    deviceOptions.chip.hlePrograms = buildTwinRegistry(options);
  }
  driver::RunnerOptions runnerOptions;
  runnerOptions.service = options.service;
  // Only the simulator keeps a device clock; the other devices leave the timing out.
  runnerOptions.deviceTime = options.timing;
  if (options.cycleLimit) deviceOptions.chip.cycleLimit = *options.cycleLimit;
  if (options.clockMhz) {
    deviceOptions.chip.clockHz = *options.clockMhz * 1'000'000;
    runnerOptions.performance = driver::clockPerformanceForMhz(*options.clockMhz);
  }
  if (options.device.starts_with("usbip:")) {
    // The device's datapath options (mode, hle twins, cycle limit) are the server's
    // (`coralsim serve --mode/--hle`); here they were only validated.
    const UsbipDevice usbip = parseUsbipDevice(options.device);
    transport_ = std::make_unique<driver::UsbipClientTransport>(usbip.host, usbip.port, usbip.busId, options.timeout);
  } else if (const std::optional<std::string> path = physicalCoralPath(options.device)) {
    driver::PhysicalCoralOptions coral;
    coral.usb.path = *path;
    coral.usb.timeout = options.timeout;
    if (!options.firmware.empty()) coral.firmware = driver::readFirmwareFile(options.firmware);
    coral.progress = [](const std::string& line) { log(1, line); };
    transport_ = driver::openPhysicalCoral(coral);
  } else {
    device_ = std::make_unique<sim::Device>(deviceOptions);
    transport_ = std::make_unique<driver::InProcessTransport>(*device_, options.timeout);
  }
  driver::Transport* used = transport_.get();
  if (!options.traceUsb.empty()) {
    // Opened now, so a path that cannot be written fails the delegate's creation, not its close.
    usbTraceFile_.open(options.traceUsb, std::ios::binary | std::ios::trunc);
    if (!usbTraceFile_) throw std::runtime_error("option 'trace_usb': cannot write '" + options.traceUsb + "'");
    usbLog_.origin = "driver";
    usbLog_.source = "libedgetpu.so.1 on " + transport_->name();
    recorder_ = std::make_unique<driver::RecordingTransport>(*transport_, usbLog_);
    used = recorder_.get();
  }
  runner_ = std::make_unique<driver::Runner>(*used, runnerOptions);
  runner_->open();
  log(1, "opened " + transport_->name() + " (mode " + std::string(models::executionModeName(options.mode)) + ")");
}

DeviceSession::~DeviceSession() {
  try {
    if (runner_ && runner_->isOpen()) runner_->close();
  } catch (const std::exception& e) {
    log(0, std::string("closing the device: ") + e.what());
  }
  if (recorder_) {
    traces::writeUsbLog(usbLog_, usbTraceFile_);
    if (!usbTraceFile_.flush()) log(0, "option 'trace_usb': writing '" + options_.traceUsb + "' failed");
  }
}

driver::RunResult DeviceSession::run(const driver::RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs) {
  const std::lock_guard<std::mutex> lock(mutex_);
  return runner_->run(plan, inputs, 1);
}

}  // namespace coralsim::libedgetpu
