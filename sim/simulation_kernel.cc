#include "sim/simulation_kernel.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

#include "models/sanitizer_stack.h"

namespace coralsim::sim {
namespace {

constexpr size_t kDefaultSlots = 8;
constexpr size_t kMaxSlots = 256;

size_t slotsFromEnvironment() {
  const char* text = std::getenv("CORALSIM_MAX_DEVICES");
  if (text == nullptr || *text == '\0') return kDefaultSlots;
  char* end = nullptr;
  const unsigned long value = std::strtoul(text, &end, 10);
  if (*end != '\0' || value < 1 || value > kMaxSlots) {
    throw std::runtime_error("CORALSIM_MAX_DEVICES must be a number of devices from 1 to " +
                             std::to_string(kMaxSlots) + ", not '" + std::string(text) + "'");
  }
  return value;
}

// The simulation cannot continue after SystemC itself failed: say why and stop.
[[noreturn]] void kernelFailure(const char* what) {
  std::fprintf(stderr, "coralsim: the SystemC kernel failed: %s\n", what);
  std::abort();
}

SimulationKernel*& exitHookTarget() {
  static SimulationKernel* target = nullptr;
  return target;
}

}  // namespace

DeviceSlot::DeviceSlot(const sc_core::sc_module_name& name, unsigned index)
    : sc_core::sc_module(name), chip("chip"), usb("usb"), index_(index) {
  usb.csr(chip.csr);
  usb.instructionSink(chip.instructionsIn);
  usb.inputSink(chip.inputsIn);
  usb.parameterSink(chip.parametersIn);
  usb.chipClock(chip.clock);
  chip.outputsOut(usb);
  chip.eventsOut(usb);
  chip.interruptsOut(usb);
  chip.bridgeResetOut(usb);
}

namespace {
// The VCD request of requestVcdTrace(), read once by the kernel thread before the simulation starts.
struct VcdRequest {
  std::mutex mutex;
  std::optional<std::string> path;
  bool started = false;
};
VcdRequest& vcdRequest() {
  static VcdRequest request;
  return request;
}
}  // namespace

bool SimulationKernel::requestVcdTrace(const std::string& path) {
  VcdRequest& r = vcdRequest();
  std::lock_guard lock(r.mutex);
  if (r.started) return false;
  r.path = path;
  return true;
}

// Marks one sc_start() (or a run of them) as a simulation step for activity().
class SimulationKernel::Step {
 public:
  explicit Step(SimulationKernel& kernel) : kernel_(kernel) {
    kernel_.stepsBegun_.fetch_add(1, std::memory_order_relaxed);
    kernel_.inStep_.store(true, std::memory_order_release);
  }
  ~Step() { kernel_.inStep_.store(false, std::memory_order_release); }
  Step(const Step&) = delete;
  Step& operator=(const Step&) = delete;

 private:
  SimulationKernel& kernel_;
};

SimulationKernel& SimulationKernel::instance() {
  static SimulationKernel* kernel = new SimulationKernel(slotsFromEnvironment());  // lives until exit
  return *kernel;
}

SimulationKernel::SimulationKernel(size_t slots) {
  // The banner must never reach stdout (tools print JSON there).
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  thread_ = std::thread([this, slots] { threadMain(slots); });
  std::unique_lock lock(mutex_);
  ready_.wait(lock, [this] { return elaborated_ || !startError_.empty(); });
  if (!startError_.empty()) {
    lock.unlock();
    thread_.join();
    throw std::runtime_error("coralsim: elaborating the SystemC model failed: " + startError_);
  }
  // Registered after elaboration, so it runs before SystemC's own exit-time cleanup.
  exitHookTarget() = this;
  std::atexit([] {
    if (SimulationKernel* kernel = exitHookTarget()) kernel->shutdown();
  });
}

void SimulationKernel::threadMain(size_t count) {
  {
    std::lock_guard lock(mutex_);
    threadId_ = std::this_thread::get_id();
  }
  try {
    for (size_t i = 0; i < count; ++i) {
      slots_.push_back(std::make_unique<DeviceSlot>(("device" + std::to_string(i)).c_str(), static_cast<unsigned>(i)));
    }
    {
      VcdRequest& r = vcdRequest();
      std::lock_guard lock(r.mutex);
      r.started = true;
      if (r.path && !slots_.empty()) {
        // sc_create_vcd_trace_file appends ".vcd" itself.
        std::string base = *r.path;
        if (base.ends_with(".vcd")) base.resize(base.size() - 4);
        vcd_ = sc_core::sc_create_vcd_trace_file(base.c_str());
        vcd_->set_time_unit(1, sc_core::SC_NS);
        slots_.front()->chip.traceSignals(vcd_);
      }
    }
    // Initialisation: every process runs to its first wait.
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    settle();
  } catch (const std::exception& e) {
    std::lock_guard lock(mutex_);
    startError_ = e.what();
    ready_.notify_all();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    elaborated_ = true;
  }
  ready_.notify_all();

  const sc_core::sc_time slice(kSliceMicroseconds, sc_core::SC_US);
  for (;;) {
    std::function<void()> job;
    bool applyOut = false;
    {
      std::unique_lock lock(mutex_);
      for (;;) {
        if (stopping_) {
          if (vcd_ != nullptr) {
            sc_core::sc_close_vcd_trace_file(vcd_);
            vcd_ = nullptr;
          }
          stopped_ = true;
          ready_.notify_all();
          return;
        }
        if (!jobs_.empty()) {
          job = std::move(jobs_.front());
          jobs_.pop_front();
          break;
        }
        if (!busy_ && !deferred_.empty()) {
          applyOut = true;
          break;
        }
        if (busy_) break;
        wake_.wait(lock);
      }
    }
    if (job) {
      runJob(job);
    } else if (applyOut) {
      applyDeferred();
      settle();
      busy_ = sc_core::sc_pending_activity();
      deliverCompletions();
    } else {
      try {
        const Step step(*this);
        // Up to the next activity plus a slice: with SC_EXIT_ON_STARVATION, sc_start() would not
        // move at all if the next event lay beyond a bare slice (a long stall of the chip clock).
        sc_core::sc_start(sc_core::sc_time_to_pending_activity() + slice, sc_core::SC_EXIT_ON_STARVATION);
      } catch (const std::exception& e) {
        models::forgetUnwoundFrames();
        kernelFailure(e.what());
      }
      busy_ = sc_core::sc_pending_activity();
      deliverCompletions();
    }
  }
}

SimulationActivity SimulationKernel::activity() const {
  // inStep_ first: a step that ends between the two loads is still counted by stepsBegun_.
  const bool inStep = inStep_.load(std::memory_order_acquire);
  return SimulationActivity{stepsBegun_.load(std::memory_order_relaxed), inStep};
}

void SimulationKernel::runJob(const std::function<void()>& job) {
  try {
    job();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "coralsim: a host request failed on the simulation thread: %s\n", e.what());
  }
  // A job's exception may have been caught inside it (std::packaged_task): see sanitizer_stack.h.
  models::forgetUnwoundFrames();
  settle();
  busy_ = sc_core::sc_pending_activity();
  deliverCompletions();
}

void SimulationKernel::settle() {
  try {
    if (!sc_core::sc_pending_activity_at_current_time()) return;
    const Step step(*this);
    while (sc_core::sc_pending_activity_at_current_time()) sc_core::sc_start(sc_core::SC_ZERO_TIME);
  } catch (const std::exception& e) {
    models::forgetUnwoundFrames();
    kernelFailure(e.what());
  }
}

void SimulationKernel::applyDeferred() {
  std::deque<DeferredOut> batch;
  {
    std::lock_guard lock(mutex_);
    batch.swap(deferred_);
  }
  for (DeferredOut& out : batch) {
    if (out.slot->generation != out.generation) continue;  // its Device is gone
    out.slot->usb.submitOut(out.urbId, out.endpoint, std::move(out.data), std::move(out.done));
  }
}

void SimulationKernel::deliverCompletions() {
  for (const auto& slot : slots_) {
    std::vector<UsbFunction::CompletedUrb> done = slot->usb.takeCompletions();
    const uint64_t generation = slot->generation;
    for (UsbFunction::CompletedUrb& c : done) {
      // A callback may destroy its Device: the rest of that device's completions are dropped.
      if (slot->generation != generation) break;
      try {
        c.done(std::move(c.result));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "coralsim: a URB completion callback threw: %s\n", e.what());
      }
    }
  }
}

void SimulationKernel::post(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void SimulationKernel::submitOut(DeviceSlot& slot, uint64_t generation, uint64_t urbId, uint8_t endpoint,
                                 std::vector<uint8_t> data, UsbFunction::Completion done) {
  {
    std::lock_guard lock(mutex_);
    deferred_.push_back(DeferredOut{&slot, generation, urbId, endpoint, std::move(data), std::move(done)});
  }
  wake_.notify_one();
}

bool SimulationKernel::cancelDeferred(const DeviceSlot& slot, uint64_t urbId) {
  std::lock_guard lock(mutex_);
  for (auto it = deferred_.begin(); it != deferred_.end(); ++it) {
    if (it->slot == &slot && it->urbId == urbId) {
      deferred_.erase(it);
      return true;
    }
  }
  return false;
}

void SimulationKernel::flushDeferred(const DeviceSlot& slot, std::optional<usb::UrbStatus> status) {
  std::deque<DeferredOut> removed;
  {
    std::lock_guard lock(mutex_);
    for (auto it = deferred_.begin(); it != deferred_.end();) {
      if (it->slot == &slot) {
        removed.push_back(std::move(*it));
        it = deferred_.erase(it);
      } else {
        ++it;
      }
    }
  }
  if (!status) return;
  for (DeferredOut& out : removed) {
    usb::UrbResult r;
    r.status = *status;
    out.slot->usb.queueCompletion(out.urbId, std::move(out.done), std::move(r));
  }
}

uint64_t SimulationKernel::newUrbId() {
  std::lock_guard lock(mutex_);
  return nextUrbId_++;
}

SimulationKernel::Lease SimulationKernel::lease() {
  const Lease lease = call([this]() -> Lease {
    for (const auto& slot : slots_) {
      if (slot->leased) continue;
      slot->leased = true;
      ++slot->generation;
      return Lease{slot.get(), slot->generation};
    }
    return Lease{};
  });
  if (lease.slot == nullptr) {
    throw std::runtime_error("all " + std::to_string(slots_.size()) +
                             " simulated devices are in use (set CORALSIM_MAX_DEVICES for more)");
  }
  return lease;
}

void SimulationKernel::release(DeviceSlot& slot) {
  call([this, &slot] {
    flushDeferred(slot, std::nullopt);
    slot.usb.detach();
    // Power-cycle the chip so nothing of this lease keeps running in simulated time.
    slot.chip.powerOnReset(models::ChipConfig{});
    slot.leased = false;
    ++slot.generation;
  });
}

void SimulationKernel::shutdown() {
  std::unique_lock lock(mutex_);
  stopping_ = true;
  wake_.notify_all();
  if (onKernelThread()) return;  // exit() from a completion callback: nothing to wait for
  const bool stopped = ready_.wait_for(lock, std::chrono::seconds(5), [this] { return stopped_; });
  lock.unlock();
  if (stopped) {
    thread_.join();
  } else {
    thread_.detach();
  }
}

}  // namespace coralsim::sim
