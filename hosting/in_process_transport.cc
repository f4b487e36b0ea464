#include "hosting/in_process_transport.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "driver/transport/transport_text.h"
#include "sim/device.h"
#include "usb/interrupt_packet.h"

namespace coralsim::driver {
namespace {

RunTiming runTimingOf(const sim::RunDeviceTime& t) {
  RunTiming out;
  out.usbSpeed = t.speed == usb::UsbSpeed::kSuper ? "super" : "high";
  out.clock = t.clock;
  out.computeCycles = t.computeCycles;
  out.computeTime = t.computeTime;
  out.usbTime = t.usbTime;
  out.idleTime = t.idleTime;
  out.overlapTime = t.overlapTime;
  out.totalTime = t.totalTime;
  out.controlTransfers = t.traffic.controlTransfers;
  out.bulkOutTransfers = t.traffic.bulkOutTransfers;
  out.bulkOutBytes = t.traffic.bulkOutBytes;
  out.bulkInTransfers = t.traffic.bulkInTransfers;
  out.bulkInBytes = t.traffic.bulkInBytes;
  out.hostTurnarounds = t.hostTurnarounds;
  return out;
}

}  // namespace

// Shared with the completion callbacks, which run on the simulator thread and may outlive a call
// (a URB that completes just as it is cancelled): they hold it by shared_ptr, never `this`.
struct InProcessTransport::Shared {
  std::mutex mutex;
  std::condition_variable changed;
  bool faulted = false;
  uint32_t interruptBits = 0;
  bool interruptUrbDone = false;
};

struct InProcessTransport::Slot {
  bool done = false;
  usb::UrbResult result;
};

class InProcessTransport::Introspection final : public DeviceIntrospection {
 public:
  explicit Introspection(sim::Device& device) : device_(device) {}
  [[nodiscard]] uint64_t simulatedCycles() const override { return device_.cycles(); }
  [[nodiscard]] std::vector<DeviceDescriptor> descriptorLog() const override { return device_.descriptorLog(); }
  // Of the device's last executable run: no filler bytes among its outputs.
  [[nodiscard]] std::optional<bool> outputsComputed() const override {
    const std::vector<sim::RunRecord> runs = settledRuns();
    if (runs.empty()) return std::nullopt;
    return runs.back().notComputedBytes == 0;
  }
  [[nodiscard]] std::optional<std::string> executionModeUsed() const override {
    const std::vector<sim::RunRecord> runs = settledRuns();
    if (runs.empty()) return std::nullopt;
    return std::string(models::executionModeName(runs.back().rung));
  }
  [[nodiscard]] std::optional<std::string> executionModeNote() const override {
    const std::vector<sim::RunRecord> runs = settledRuns();
    if (runs.empty() || runs.back().rungNote.empty()) return std::nullopt;
    return runs.back().rungNote;
  }
  [[nodiscard]] std::vector<std::string> deviceNotes() const override {
    const std::vector<sim::RunRecord> runs = settledRuns();
    if (runs.empty()) return {};
    std::vector<std::string> notes = runs.back().notes;
    if (runs.back().notesDropped != 0) notes.push_back(std::to_string(runs.back().notesDropped) + " more notes not kept");
    return notes;
  }
  [[nodiscard]] std::vector<UndefinedOutputByte> undefinedOutputBytes() const override {
    const std::vector<sim::RunRecord> runs = settledRuns();
    if (runs.empty()) return {};
    std::vector<UndefinedOutputByte> out;
    out.reserve(runs.back().undefinedOutputBytes.size());
    for (const auto& [window, offset] : runs.back().undefinedOutputBytes) out.push_back({window, offset});
    return out;
  }
  [[nodiscard]] std::optional<std::string> faultText() const override {
    std::string text = device_.lastFault();
    if (text.empty()) return std::nullopt;
    return text;
  }
  // Of the device's last executable run, once closed (its compute ends with it).
  [[nodiscard]] std::optional<RunTiming> lastRunTiming() const override {
    if (settledRuns().empty()) return std::nullopt;
    const std::vector<sim::RunDeviceTime> times = device_.runTimes();
    if (times.empty()) return std::nullopt;
    return runTimingOf(times.back());
  }
  [[nodiscard]] std::optional<usb::SimulatedInstant> lastTransferInstant() const override { return lastInstant_; }

  // The transport's calls report each completion they waited for.
  void setLastTransferInstant(std::optional<usb::SimulatedInstant> at) { lastInstant_ = at; }

 private:
  // The run log once its last run is closed. The program raises its completion interrupt before
  // its final HALT, and the chip closes the run record (rung, filler count) only after the last
  // output byte has left, so a host that reacts to the interrupt can ask first; the simulator
  // thread closes it shortly after. Bounded: an unfinished run is reported as it stands.
  [[nodiscard]] std::vector<sim::RunRecord> settledRuns() const {
    constexpr auto kPatience = std::chrono::seconds(2);
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    std::vector<sim::RunRecord> runs = device_.runLog();
    while (!runs.empty() && !runs.back().finished && !runs.back().faulted &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      runs = device_.runLog();
    }
    return runs;
  }

  sim::Device& device_;
  std::optional<usb::SimulatedInstant> lastInstant_;
};

InProcessTransport::InProcessTransport(sim::Device& device, std::chrono::milliseconds timeout)
    : device_(device),
      timeout_(timeout),
      shared_(std::make_shared<Shared>()),
      introspection_(std::make_unique<Introspection>(device)) {}

InProcessTransport::~InProcessTransport() {
  if (interruptUrb_) device_.cancel(*interruptUrb_);
}

void InProcessTransport::ensureInterruptUrb() {
  {
    std::lock_guard lock(shared_->mutex);
    if (interruptUrb_ && !shared_->interruptUrbDone) return;
    shared_->interruptUrbDone = false;
  }
  std::shared_ptr<Shared> shared = shared_;
  interruptUrb_ = device_.submitIn(usb::endpoint::kInterruptIn, usb::kInterruptPacketBytes, [shared](usb::UrbResult r) {
    std::lock_guard lock(shared->mutex);
    shared->interruptUrbDone = true;
    const std::optional<uint32_t> bits = usb::decodeInterruptPacket(r.data);
    if (r.status == usb::UrbStatus::kOk && bits) {
      shared->interruptBits |= *bits;
      if (*bits & usb::interrupt_bit::kFatalError) shared->faulted = true;
    }
    shared->changed.notify_all();
  });
}

void InProcessTransport::throwIfFaulted(const std::string& operation) {
  std::lock_guard lock(shared_->mutex);
  if (shared_->faulted) throw DeviceFaultError(name(), operation, kFatalInterruptCause);
}

void InProcessTransport::cancelAsyncTransfers() {
  if (interruptUrb_) device_.cancel(*interruptUrb_);
  interruptUrb_.reset();
  std::lock_guard lock(shared_->mutex);
  shared_->interruptUrbDone = false;
  // The close sequence resets the chip; a new session starts without the old fault.
  shared_->faulted = false;
  shared_->interruptBits = 0;
}

void InProcessTransport::resetDevice(std::chrono::milliseconds /*reenumerationTimeout*/) {
  cancelAsyncTransfers();
  device_.busReset();
}

usb::UsbSpeed InProcessTransport::linkSpeed() const { return device_.options().speed; }

const DeviceIntrospection* InProcessTransport::introspection() const { return introspection_.get(); }

std::vector<uint8_t> InProcessTransport::control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  introspection_->setLastTransferInstant(std::nullopt);  // a failed transfer has no instant
  if (!setup.isDeviceToHost() && outData.size() != setup.wLength) {
    throw TransportError(name(), controlText(setup),
                         "data stage of " + std::to_string(outData.size()) + " bytes for wLength " + std::to_string(setup.wLength));
  }
  usb::UrbResult r = device_.control(setup, outData);
  introspection_->setLastTransferInstant(r.simulated);
  if (r.status != usb::UrbStatus::kOk) {
    throw TransportError(name(), controlText(setup), "failed with " + std::string(usb::urbStatusName(r.status)));
  }
  if (setup.isDeviceToHost() && r.data.size() > setup.wLength) {
    throw TransportError(name(), controlText(setup),
                         "device returned " + std::to_string(r.data.size()) + " bytes for wLength " + std::to_string(setup.wLength));
  }
  return setup.isDeviceToHost() ? std::move(r.data) : std::vector<uint8_t>{};
}

usb::UrbResult InProcessTransport::await(uint64_t urbId, const std::shared_ptr<Slot>& slot, const std::string& operation) {
  std::unique_lock lock(shared_->mutex);
  // The limit runs only while the simulation is idle: a program the machine takes long to simulate
  // (a large convolution, a sanitizer build, a loaded host) is not a device that stopped answering.
  sim::SimulationActivity seen = device_.simulationActivity();
  for (;;) {
    const auto deadline = std::chrono::steady_clock::now() + timeout_;
    if (shared_->changed.wait_until(lock, deadline, [&] { return slot->done || shared_->faulted; })) break;
    const sim::SimulationActivity now = device_.simulationActivity();
    if (now.idleSince(seen)) break;
    seen = now;
  }
  if (slot->done) return std::move(slot->result);
  const bool faulted = shared_->faulted;
  lock.unlock();
  if (!device_.cancel(urbId)) {
    // It completed while we gave up: its callback is running or about to; take the result.
    lock.lock();
    if (shared_->changed.wait_for(lock, std::chrono::seconds(1), [&] { return slot->done; })) {
      return std::move(slot->result);
    }
    lock.unlock();
  }
  if (faulted) throw DeviceFaultError(name(), operation, std::string(kFatalInterruptCause) + " (URB cancelled)");
  throw TransportError(name(), operation, "timed out after " + std::to_string(timeout_.count()) + " ms (URB cancelled)");
}

void InProcessTransport::bulkOut(uint8_t endpoint, std::span<const uint8_t> bytes) {
  const std::string operation = bulkOutText(endpoint, bytes.size());
  introspection_->setLastTransferInstant(std::nullopt);  // a failed transfer has no instant
  ensureInterruptUrb();
  throwIfFaulted(operation);
  auto slot = std::make_shared<Slot>();
  std::shared_ptr<Shared> shared = shared_;
  const uint64_t id = device_.submitOut(endpoint, std::vector<uint8_t>(bytes.begin(), bytes.end()),
                                        [shared, slot](usb::UrbResult r) {
                                          std::lock_guard lock(shared->mutex);
                                          slot->result = std::move(r);
                                          slot->done = true;
                                          shared->changed.notify_all();
                                        });
  const usb::UrbResult r = await(id, slot, operation);
  introspection_->setLastTransferInstant(r.simulated);
  if (r.status != usb::UrbStatus::kOk) {
    throw TransportError(name(), operation, "failed with " + std::string(usb::urbStatusName(r.status)));
  }
  if (r.actualLength != bytes.size()) {
    throw TransportError(name(), operation, "device accepted " + std::to_string(r.actualLength) + " bytes");
  }
}

std::vector<uint8_t> InProcessTransport::bulkIn(uint8_t endpoint, uint32_t maxLength) {
  const std::string operation = bulkInText(endpoint, maxLength);
  introspection_->setLastTransferInstant(std::nullopt);  // a failed transfer has no instant
  ensureInterruptUrb();
  throwIfFaulted(operation);
  auto slot = std::make_shared<Slot>();
  std::shared_ptr<Shared> shared = shared_;
  const uint64_t id = device_.submitIn(endpoint, maxLength, [shared, slot](usb::UrbResult r) {
    std::lock_guard lock(shared->mutex);
    slot->result = std::move(r);
    slot->done = true;
    shared->changed.notify_all();
  });
  usb::UrbResult r = await(id, slot, operation);
  introspection_->setLastTransferInstant(r.simulated);
  if (r.status != usb::UrbStatus::kOk) {
    throw TransportError(name(), operation, "failed with " + std::string(usb::urbStatusName(r.status)));
  }
  return std::move(r.data);
}

}  // namespace coralsim::driver
