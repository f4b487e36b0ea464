// Runner: runs compiled models on one Coral USB Accelerator through a Transport — the host half of
// the control plane (docs/ARCHITECTURE.md §1, §5).
//
//   open()  the libedgetpu open sequence (docs/usb-protocol.md §5.3), single-EP, with descr_ep set
//           for the service mode;
//   run()   for each package of the plan: PARAMETER_CACHING only when its token differs from the
//           token last run on this device (token 0: always), then EXECUTION_ONLY / STAND_ALONE;
//           each executable linked with its own host addresses and served by hints or by events;
//   close() the libedgetpu close sequence (§5.4).
//
// run() does not throw for run failures (transport errors, device faults, protocol violations):
// it returns what it has with RunResult::error set. Bad arguments (wrong input count or size) are
// std::invalid_argument.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "driver/run/open_close_sequence.h"
#include "driver/run/run_plan.h"
#include "driver/run/run_result.h"
#include "driver/run/service_mode.h"
#include "driver/transport/transport.h"

namespace coralsim::driver {

struct RunnerOptions {
  ServiceMode service = ServiceMode::kHints;
  ClockPerformance performance = ClockPerformance::kMax;
  std::chrono::milliseconds pollTimeout{5000};
  // Ask the device for its time of every run (DeviceIntrospection::lastRunTiming: compute, USB
  // link, idle from the simulator's device clock) and sum one inference (RunResult::timing).
  // Devices that keep no clock (real Corals, the USB/IP wire) leave the timing out.
  bool deviceTime = false;
};

class Runner {
 public:
  explicit Runner(Transport& transport, RunnerOptions options = {});
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  void open();
  void close();
  [[nodiscard]] bool isOpen() const { return open_; }

  // `inputs[i]` holds plan.inputs[i] in its TFLite encoding (int8 as int8); optional inputs may be
  // left out at the end. Each input must be exactly TensorSpec::sizeBytes long (or the device
  // size, TensorSpec::deviceBytes) unless sizeBytes is 0.
  RunResult run(const RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs, int iterations = 1);

  // The PARAMETER_CACHING token whose parameters the device holds (nullopt: none / unknown).
  [[nodiscard]] std::optional<uint64_t> cachedParameterToken() const { return cachedToken_; }
  void forgetParameterCache() { cachedToken_.reset(); }

  [[nodiscard]] const RunnerOptions& options() const { return options_; }

 private:
  // Wire bytes of the outputs produced so far in this iteration, by name, plus what the device
  // said about each.
  struct Produced {
    std::map<std::string, std::vector<uint8_t>> bytes;
    std::vector<std::string> order;
    std::map<std::string, std::optional<bool>> computed;
    std::map<std::string, bool> deviceLayout;
    std::map<std::string, bool> relaidOut;
    std::map<std::string, uint64_t> deviceBytes;  // what the device wrote, padding included
    std::map<std::string, size_t> batches;        // output buffers concatenated into `bytes`
    std::map<std::string, std::vector<uint8_t>> undefined;  // one a byte of `bytes`: 1 where the device says undefined
  };
  // Runs one executable and appends its record to `result.runs` (also when it fails).
  void runExecutable(const PlannedExecutable& planned, bool rawProgram, int iteration,
                     const std::map<std::string, std::vector<uint8_t>>& inputs, Produced& produced,
                     RunResult& result);
  std::string describeFailure(const std::string& what);

  Transport& transport_;
  RunnerOptions options_;
  bool open_ = false;
  std::optional<uint64_t> cachedToken_;
};

}  // namespace coralsim::driver
