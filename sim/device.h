// Device: one emulated Coral USB Accelerator — the USB function (sim/usb_function.h) in front of a
// Beagle chip model (models/beagle.h), running inside the process-wide SystemC kernel.
//
// This is THE seam of coralsim (docs/ARCHITECTURE.md §1): the in-process transport and the USB/IP
// server both talk to a Device through exactly this API, which speaks USB, not chip internals: the
// calls of `usb::UsbDevice` (usb/usb_device.h), plus observation.
//
// Threading and time: any host thread may call any method. Control transfers are answered at once
// (they cost no simulated time). Bulk and interrupt transfers are asynchronous: submit() queues the
// URB and returns its id; the completion callback runs later on the simulator thread, never on the
// caller's, and never under a lock the caller holds. Bulk OUT data is applied to the simulation
// only while the simulation is idle (every SystemC process waiting on host data); control
// transfers and IN submissions are applied between time slices, so a debugger's halt reaches a
// running program (sim/simulation_kernel.h). A cancel is answered at once, even while a long
// computation holds the simulation thread (sim/urb_arbiter.h). The chip counts cycles only for modelled
// work, never for waiting on the host, so every cycle count depends only on the program, the data
// and the order of transfers, not on wall-clock timing.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/chip/run_record.h"
#include "models/chip_config.h"
#include "sim/device_clock.h"
#include "sim/dfu_state_machine.h"
#include "sim/simulation_activity.h"
#include "sim/usb_descriptors.h"
#include "usb/event_packet.h"
#include "usb/usb_device.h"
#include "usb/usb_types.h"

namespace coralsim::sim {

struct DeviceOptions {
  models::ChipConfig chip;
  usb::UsbSpeed speed = usb::UsbSpeed::kSuper;
  // Power on in the DFU bootloader personality (1a6e:089a), as real hardware does, instead of the
  // runtime one (18d1:9302). A DFU download and the host's re-enumeration switch it to the runtime
  // (docs/usb-protocol.md §1.4-1.5); until then it has no CSRs and no bulk endpoints.
  bool startInBootloader = false;
  // End an EP 0x81 transfer after an outfeed DMA whose tail fills its last packet, as a
  // zero-length packet would (unknown on hardware, docs/usb-protocol.md §4.1; default off).
  bool zlpAfterAlignedTail = false;
};

// One executable run (first chunk after a final HALT or reset .. the next final HALT).
using RunRecord = models::RunRecord;

class Device final : public usb::UsbDevice {
 public:
  // Leases a device slot of the process-wide SimulationKernel and powers it on: CSRs at their
  // reset values (the GCB asleep, as libedgetpu finds a real chip), empty queues, cycles 0.
  // Throws std::invalid_argument for options the model cannot take (an execution mode not
  // implemented yet, a chip geometry other than 4 x 4) and std::runtime_error when every
  // slot is in use (CORALSIM_MAX_DEVICES).
  explicit Device(DeviceOptions options = {});
  ~Device() override;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // EP0. `outData` is the data stage of host-to-device requests (size == setup.wLength).
  usb::UrbResult control(const usb::ControlSetup& setup, std::span<const uint8_t> outData = {}) override;

  // Bulk OUT (EP 0x01..0x03). Completes when the device has accepted every byte; a full infeed
  // keeps it pending (backpressure), never fails it. EP 0x02/0x03 (multi-EP mode) are not
  // modelled: they complete with kStall. A chip reset (force_sleep 3, gcbb_credit0) drops the data
  // of pending OUT transfers and completes them as accepted; busReset() completes them kShutdown.
  uint64_t submitOut(uint8_t endpoint, std::vector<uint8_t> data, Completion done) override;
  // Bulk/interrupt IN (EP 0x81, 0x82, 0x83) of at most `length` bytes.
  uint64_t submitIn(uint8_t endpoint, uint32_t length, Completion done) override;
  // Unlinks a pending URB without waiting for the simulation thread. Returns true if the device
  // had not taken it yet: its callback will never run and no data goes into it. Returns false if
  // the device had taken it (its callback has run or is about to) or it never existed.
  bool cancel(uint64_t urbId) override;

  // A USB bus reset as the host sees it (re-enumeration): flushes the bridge, keeps CSRs; a
  // personality switch armed by a DFU download or DFU_DETACH takes effect.
  void busReset() override;

  // Observation for tools and tests (thread-safe snapshots).
  // Chip cycles since the device was created: modelled costs only, never time spent waiting for
  // the host, so identical transfers give identical counts.
  [[nodiscard]] uint64_t cycles() const;
  // Whether the process's simulation thread is working or has worked (every device's, since they
  // share it): lets a host tell "the chip waits for me" from "the machine is still simulating".
  [[nodiscard]] SimulationActivity simulationActivity() const;
  // Every descriptor pushed, in the event packet's terms (also those descr_ep keeps off EP 0x82).
  [[nodiscard]] std::vector<usb::EventPacket> descriptorLog() const;
  [[nodiscard]] const DeviceOptions& options() const;
  // Every executable run since the device was created, in order (the last may be unfinished).
  [[nodiscard]] std::vector<RunRecord> runLog() const;
  // Device time (sim/device_clock.h): now, and of every run of runLog() (same order and count) —
  // compute (the chip cycles since the previous run ended, the run's own included), USB link time
  // of the transfers charged to it, one host turnaround. Every front end reads these figures.
  [[nodiscard]] usb::SimulatedInstant deviceTime() const;
  [[nodiscard]] std::vector<RunDeviceTime> runTimes() const;
  // The text of the last fatal error (naming PC and word), "" if the chip never faulted.
  [[nodiscard]] std::string lastFault() const;
  // False once any output byte was a filler the datapath did not compute (the protocol rung
  // produces tile outputs as zeros); true while every output byte came from the program.
  [[nodiscard]] bool outputsComputed() const;
  // The execution mode the device was configured with (`auto` stays `auto`); which rung each run
  // actually used is in its RunRecord (rung, rungNote).
  [[nodiscard]] models::ExecutionMode executionMode() const;
  // The USB personality shown right now, and the firmware image the last DFU download delivered
  // (kept after the switch to the runtime; nullopt when the device never received one).
  [[nodiscard]] usb::CoralPersonality personality() const;
  [[nodiscard]] std::optional<FirmwareImage> loadedFirmware() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace coralsim::sim
