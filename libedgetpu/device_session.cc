#include "libedgetpu/device_session.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "hosting/in_process_transport.h"
#include "driver/runner.h"
#include "driver/usbip_client_transport.h"
#include "libedgetpu/verbose_log.h"
#include "sim/device.h"
#include "sim/hle_host/program_loader.h"

namespace coralsim::libedgetpu {
namespace {

driver::ClockPerformance performanceFor(uint64_t mhz) {
  // scu_ctrl_3 rg_gcb_clkdiv (docs/usb-protocol.md §5.2): 500 / 250 / 125 / 63 MHz.
  if (mhz >= 500) return driver::ClockPerformance::kMax;
  if (mhz >= 250) return driver::ClockPerformance::kHigh;
  if (mhz >= 125) return driver::ClockPerformance::kMedium;
  return driver::ClockPerformance::kLow;
}

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
      const std::string name = path.filename().string();
      const auto twin = path.parent_path() / (name.substr(0, name.size() - std::string("_edgetpu.tflite").size()) + ".tflite");
      if (!std::filesystem::exists(twin)) continue;
      try {
        programs.push_back(sim::registerHleProgram(path, twin));
      } catch (const std::exception& e) {
        log(0, "hle_dir: skipping " + name + ": " + e.what());
      }
    }
  }
  log(1, "registered " + std::to_string(programs.size()) + " hle twin(s)");
  return std::make_shared<const hle::ProgramRegistry>(std::move(programs));
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
  if (options.cycleLimit) deviceOptions.chip.cycleLimit = *options.cycleLimit;
  if (options.clockMhz) {
    deviceOptions.chip.clockHz = *options.clockMhz * 1'000'000;
    runnerOptions.performance = performanceFor(*options.clockMhz);
  }
  if (options.device.starts_with("usbip:")) {
    // The device's datapath options (mode, hle twins, cycle limit) are the server's
    // (`coralsim serve --mode/--hle`); here they were only validated.
    const UsbipDevice usbip = parseUsbipDevice(options.device);
    transport_ = std::make_unique<driver::UsbipClientTransport>(usbip.host, usbip.port, usbip.busId, options.timeout);
  } else {
    device_ = std::make_unique<sim::Device>(deviceOptions);
    transport_ = std::make_unique<driver::InProcessTransport>(*device_, options.timeout);
  }
  runner_ = std::make_unique<driver::Runner>(*transport_, runnerOptions);
  runner_->open();
  log(1, "opened " + transport_->name() + " (mode " + std::string(models::executionModeName(options.mode)) + ")");
}

DeviceSession::~DeviceSession() {
  try {
    if (runner_ && runner_->isOpen()) runner_->close();
  } catch (const std::exception& e) {
    log(0, std::string("closing the device: ") + e.what());
  }
}

driver::RunResult DeviceSession::run(const driver::RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs) {
  const std::lock_guard<std::mutex> lock(mutex_);
  return runner_->run(plan, inputs, 1);
}

}  // namespace coralsim::libedgetpu
