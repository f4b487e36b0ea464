#include "sim/device.h"

#include <stdexcept>
#include <utility>

#include "models/beagle.h"
#include "sim/simulation_kernel.h"

namespace coralsim::sim {

struct Device::Impl {
  DeviceOptions options;
  models::ExecutionMode mode = models::ExecutionMode::kProtocol;
  SimulationKernel* kernel = nullptr;
  DeviceSlot* slot = nullptr;
  uint64_t generation = 0;

  // Runs `fn(slot)` on the kernel thread; `stale` is the answer if the lease is gone.
  template <class F, class R>
  R onSlot(F&& fn, R stale) const {
    DeviceSlot* s = slot;
    const uint64_t g = generation;
    return kernel->call([&]() -> R { return s->generation == g ? fn(*s) : stale; });
  }
};

Device::Device(DeviceOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->mode = options.chip.mode;
  impl_->options = std::move(options);
  impl_->kernel = &SimulationKernel::instance();
  const SimulationKernel::Lease lease = impl_->kernel->lease();
  impl_->slot = lease.slot;
  impl_->generation = lease.generation;
  try {
    const DeviceOptions& o = impl_->options;
    impl_->kernel->call([&] {
      lease.slot->usb.detach();
      lease.slot->usb.configure(o.speed, o.zlpAfterAlignedTail,
                                o.startInBootloader ? usb::CoralPersonality::kBootloader : usb::CoralPersonality::kRuntime,
                                o.chip.clockHz);
      lease.slot->chip.powerOnReset(o.chip);
    });
  } catch (...) {
    impl_->kernel->release(*impl_->slot);
    throw;
  }
}

Device::~Device() {
  if (impl_ && impl_->slot != nullptr) impl_->kernel->release(*impl_->slot);
}

usb::UrbResult Device::control(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  usb::UrbResult gone;
  gone.status = usb::UrbStatus::kShutdown;
  return impl_->onSlot([&](DeviceSlot& s) { return s.usb.control(setup, outData); }, gone);
}

uint64_t Device::submitOut(uint8_t endpoint, std::vector<uint8_t> data, Completion done) {
  const uint64_t id = impl_->kernel->newUrbId();
  impl_->slot->usb.urbArbiter().expect(id);
  impl_->kernel->submitOut(*impl_->slot, impl_->generation, id, endpoint, std::move(data), std::move(done));
  return id;
}

uint64_t Device::submitIn(uint8_t endpoint, uint32_t length, Completion done) {
  const uint64_t id = impl_->kernel->newUrbId();
  DeviceSlot* slot = impl_->slot;
  const uint64_t generation = impl_->generation;
  slot->usb.urbArbiter().expect(id);
  impl_->kernel->post([slot, generation, id, endpoint, length, done = std::move(done)]() mutable {
    if (slot->generation == generation) slot->usb.submitIn(id, endpoint, length, std::move(done));
  });
  return id;
}

bool Device::cancel(uint64_t urbId) {
  // Decided at once by the arbiter (a real host controller does not wait for the chip either);
  // the device's queues let go of the URB at the next time slice, and skip it if they reach it
  // first (sim/urb_arbiter.h).
  DeviceSlot* slot = impl_->slot;
  if (!slot->usb.urbArbiter().withdraw(urbId)) return false;
  SimulationKernel* kernel = impl_->kernel;
  const uint64_t generation = impl_->generation;
  kernel->post([kernel, slot, generation, urbId] {
    if (slot->generation != generation) return;  // the lease ended: its URBs are gone already
    if (!kernel->cancelDeferred(*slot, urbId)) (void)slot->usb.cancel(urbId);
    slot->usb.urbArbiter().forget(urbId);
  });
  return true;
}

void Device::busReset() {
  SimulationKernel* kernel = impl_->kernel;
  impl_->onSlot(
      [&](DeviceSlot& s) {
        kernel->flushDeferred(s, usb::UrbStatus::kShutdown);
        s.usb.busReset();
        return true;
      },
      false);
}

uint64_t Device::cycles() const {
  return impl_->onSlot([](DeviceSlot& s) { return s.chip.cycles(); }, uint64_t{0});
}

SimulationActivity Device::simulationActivity() const { return impl_->kernel->activity(); }

std::vector<usb::EventPacket> Device::descriptorLog() const {
  return impl_->onSlot(
      [](DeviceSlot& s) {
        std::vector<usb::EventPacket> out;
        out.reserve(s.chip.descriptorLog().size());
        for (const models::Descriptor& d : s.chip.descriptorLog()) out.push_back({d.tag, d.address, d.length});
        return out;
      },
      std::vector<usb::EventPacket>{});
}

const DeviceOptions& Device::options() const { return impl_->options; }

std::vector<RunRecord> Device::runLog() const {
  return impl_->onSlot([](DeviceSlot& s) { return s.chip.runs(); }, std::vector<RunRecord>{});
}

usb::SimulatedInstant Device::deviceTime() const {
  return impl_->onSlot([](DeviceSlot& s) { return s.usb.now(); }, usb::SimulatedInstant{});
}

std::vector<RunDeviceTime> Device::runTimes() const {
  return impl_->onSlot(
      [](DeviceSlot& s) {
        std::vector<RunDeviceTime> out;
        const std::vector<RunRecord>& runs = s.chip.runs();
        out.reserve(runs.size());
        // Compute is counted from the end of the previous run, so the runs' compute adds up to the
        // chip's cycles (the host's view: the cycles that passed while it served the run).
        uint64_t previousEnd = 0;
        for (size_t i = 0; i < runs.size(); ++i) {
          const uint64_t end = runs[i].endCycle != 0 ? runs[i].endCycle : s.chip.cycles();
          out.push_back(s.usb.deviceClock().runTime(i, end > previousEnd ? end - previousEnd : 0));
          previousEnd = end;
        }
        return out;
      },
      std::vector<RunDeviceTime>{});
}

std::string Device::lastFault() const {
  return impl_->onSlot([](DeviceSlot& s) { return s.chip.lastFault(); }, std::string{});
}

bool Device::outputsComputed() const {
  return impl_->onSlot([](DeviceSlot& s) { return s.chip.notComputedBytes() == 0; }, true);
}

models::ExecutionMode Device::executionMode() const { return impl_->mode; }

usb::CoralPersonality Device::personality() const {
  const usb::CoralPersonality stale = impl_->options.startInBootloader ? usb::CoralPersonality::kBootloader : usb::CoralPersonality::kRuntime;
  return impl_->onSlot([](DeviceSlot& s) { return s.usb.personality().personality(); }, stale);
}

std::optional<FirmwareImage> Device::loadedFirmware() const {
  return impl_->onSlot([](DeviceSlot& s) { return s.usb.personality().loadedFirmware(); },
                       std::optional<FirmwareImage>{});
}

}  // namespace coralsim::sim
