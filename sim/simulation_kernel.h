// SimulationKernel: the one SystemC kernel of the process and the thread that runs it.
//
// SystemC elaborates once per process and cannot create modules after the first sc_start(), so
// on first use the kernel elaborates a pool of device slots (Beagle chip + UsbFunction each;
// CORALSIM_MAX_DEVICES, default 8) and starts ONE dedicated thread that owns SystemC from then
// on. A Device leases a slot.
//
// Host work reaches the simulation only through that thread, between sc_start() calls:
//   - immediate jobs (control transfers, IN submissions, cancels, resets, observations) run as
//     soon as the current time slice ends, in the order they were posted;
//   - bulk OUT submissions are applied only while the simulation is idle (every process waiting
//     for host data), in the order they were submitted. So what the chip sees, and therefore
//     every cycle count, depends on the program, the data and the transfer order only.
// After each job the kernel settles the current simulated instant (delta cycles, no time), so the
// next job observes every effect of the previous one (e.g. run control reads 0 right after the
// write that put the GCB to sleep). Completions are delivered on the kernel thread after
// sc_start() returns, outside every lock. With no work and no activity the thread sleeps on a
// condition variable: no busy wait.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <systemc>

#include "models/beagle.h"
#include "sim/simulation_activity.h"
#include "sim/usb_function.h"

namespace coralsim::sim {

// One elaborated device: the chip and the USB function in front of it, bound to each other.
class DeviceSlot : public sc_core::sc_module {
 public:
  DeviceSlot(const sc_core::sc_module_name& name, unsigned index);

  [[nodiscard]] unsigned index() const { return index_; }

  models::Beagle chip;
  UsbFunction usb;

  // Lease bookkeeping (kernel thread only).
  bool leased = false;
  uint64_t generation = 0;  // changes at every lease and release: stale work is dropped

 private:
  unsigned index_;
};

class SimulationKernel {
 public:
  // The process-wide kernel; the first call elaborates and starts the thread. Throws
  // std::runtime_error when CORALSIM_MAX_DEVICES is not a number in 1..256.
  static SimulationKernel& instance();

  // Asks the kernel to trace device slot 0's chip signals (models::Beagle::traceSignals) into a
  // VCD file through SystemC's sc_trace. SystemC accepts trace files only before the simulation
  // starts, so this must come before the first instance() (one device per process: `coralsim run
  // --trace-vcd`); returns false when the kernel is already running. `path` must end in ".vcd".
  // The file is complete when the kernel shuts down (at process exit).
  static bool requestVcdTrace(const std::string& path);

  SimulationKernel(const SimulationKernel&) = delete;
  SimulationKernel& operator=(const SimulationKernel&) = delete;

  [[nodiscard]] size_t slotCount() const { return slots_.size(); }

  struct Lease {
    DeviceSlot* slot = nullptr;
    uint64_t generation = 0;
  };
  // Leases a free slot (its generation changes). Throws std::runtime_error when all are in use.
  Lease lease();
  // Returns a slot: pending URBs are forgotten without callbacks, the chip is powered off and on.
  void release(DeviceSlot& slot);

  // Runs `fn` on the kernel thread between time slices, after the immediate jobs posted before
  // it, and returns its result (exceptions propagate). Runs inline on the kernel thread itself
  // (e.g. from a completion callback).
  template <class F>
  auto call(F&& fn) -> std::invoke_result_t<F&> {
    using Result = std::invoke_result_t<F&>;
    if (onKernelThread()) {
      if constexpr (std::is_void_v<Result>) {
        fn();
        settle();
      } else {
        Result result = fn();
        settle();
        return result;
      }
    } else {
      std::packaged_task<Result()> task(std::forward<F>(fn));
      std::future<Result> future = task.get_future();
      post([&task] { task(); });
      return future.get();
    }
  }

  // Queues an immediate job (fire and forget).
  void post(std::function<void()> job);

  // Queues a bulk OUT submission, applied when the simulation is idle.
  void submitOut(DeviceSlot& slot, uint64_t generation, uint64_t urbId, uint8_t endpoint,
                 std::vector<uint8_t> data, UsbFunction::Completion done);
  // Removes a submission of `slot` not applied yet. Kernel thread only (inside a job).
  bool cancelDeferred(const DeviceSlot& slot, uint64_t urbId);
  // Completes every not-yet-applied submission of `slot` with `status` (bus reset) or drops
  // them (status nullopt: lease end). Kernel thread only.
  void flushDeferred(const DeviceSlot& slot, std::optional<usb::UrbStatus> status);

  [[nodiscard]] uint64_t newUrbId();
  // Any thread: the simulation steps begun so far and whether one runs now (every device's).
  [[nodiscard]] SimulationActivity activity() const;
  [[nodiscard]] bool onKernelThread() const { return std::this_thread::get_id() == threadId_; }

  // Simulated time per sc_start() call while busy: bounds how late immediate jobs run.
  static constexpr double kSliceMicroseconds = 200.0;

 private:
  struct DeferredOut {
    DeviceSlot* slot = nullptr;
    uint64_t generation = 0;
    uint64_t urbId = 0;
    uint8_t endpoint = 0;
    std::vector<uint8_t> data;
    UsbFunction::Completion done;
  };

  explicit SimulationKernel(size_t slots);
  void threadMain(size_t slots);
  void runJob(const std::function<void()>& job);
  void applyDeferred();
  void settle();
  void deliverCompletions();
  void shutdown();

  std::vector<std::unique_ptr<DeviceSlot>> slots_;
  sc_core::sc_trace_file* vcd_ = nullptr;
  std::thread thread_;
  std::thread::id threadId_;

  std::mutex mutex_;
  std::condition_variable wake_;     // work for the kernel thread
  std::condition_variable ready_;    // elaboration finished / thread stopped
  std::deque<std::function<void()>> jobs_;
  std::deque<DeferredOut> deferred_;
  bool elaborated_ = false;
  bool stopping_ = false;
  bool stopped_ = false;
  std::string startError_;
  uint64_t nextUrbId_ = 1;

  bool busy_ = false;  // kernel thread only: the simulation has pending activity

  // activity(): written by the kernel thread around every sc_start(), read by any thread.
  class Step;
  std::atomic<uint64_t> stepsBegun_{0};
  std::atomic<bool> inStep_{false};
};

}  // namespace coralsim::sim
