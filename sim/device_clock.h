// DeviceClock: the emulated Coral's simulated time — the USB link model (sim/usb_link_model.h)
// applied inside the simulation, transfer by transfer (ARCHITECTURE.md §4), so every front end
// (`coralsim run`, `coralsim serve`, the drop-in libedgetpu, a library user) reads the same device
// time from the device, and every bulk transfer carries a simulated timestamp.
//
// Device time (picoseconds since power-on) is the sum of three parts, taken as sequential — the
// model the published latencies were calibrated with (docs/timing.md): libedgetpu's single-EP
// flow sends, waits for the completion, then reads, so nothing overlaps:
//   compute = chip cycles / clock       the chip's modelled work (models/chip/cost_model.h)
//   link    = usbTransferTime(every transfer charged so far)   the link model's formula
//   idle    = host turnarounds so far x hostTurnaroundTime: one per executable run, charged
//             with the run's first transfer (the device waits while the host sets up the request
//             and handles the previous completion)
// with one exception, in a run's figures (runTime): the chip's work overlaps the parameters a run
// streams (tag-2 records of an executable that carries its parameters every inference), so
//   overlap = min(compute, parameter bytes of the run / bulkOutRate)
// is taken off the run's total. Evidence (docs/timing.md §5, scripts/capture-gaps.py on the
// corpus usbmon captures): in iwatake's model_dense_2x2x3x100x300 sessions the output arrives
// 15-17 us after the last parameter byte is accepted (5 inferences), and in the 7 x 7 x 300
// convolution's the 1 MiB parameter URBs complete every ~17 ms, the chip's pace, not the link's.
// The input is not overlapped: the compiled programs pop the whole input before their compute
// (MobileNet v1: output 1.50-1.53 ms after the input was accepted at link rate). The stamps
// (now, outputProgress) stay on the sequential model.
//
// What is charged (UsbFunction calls these on the simulation thread, at points that depend only on
// the program, the data and the order of transfers — so the stamps do too):
//   - a bulk-OUT record when its header is parsed: the 8 header bytes, the header transfer and the
//     payload's transfers (<= 1 MiB pieces, libedgetpu's pattern); its payload bytes as the chip
//     accepts them;
//   - an output DMA when the chip hands it to the bridge: its bytes, read in URBs of the speed's
//     size (each IN URB is stamped when its last byte has crossed the link);
//   - an event the chip pushes past descr_ep: one 16-byte IN transfer.
// Control transfers are not charged: the per-inference traffic has none, and the link model's
// control figure is a choice, not fitted (sim/usb_link_model.cc). Each charge goes to the
// executable run it belongs to (the run in progress, else the next one), so a run's device time is
// its compute + usb + idle, with the link model's formula applied to that run's transfers.
//
// Plain C++ (no SystemC, no wall clock): library coralsim_usb, testable without a simulator.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/usb_link_model.h"
#include "units/units.h"
#include "usb/record_header.h"
#include "usb/usb_types.h"

namespace coralsim::sim {

// The device time of one executable run: what `coralsim run --timing` prints for it.
struct RunDeviceTime {
  usb::UsbSpeed speed = usb::UsbSpeed::kSuper;
  units::Frequency clock;
  units::Cycles computeCycles;
  UsbTraffic traffic;  // the transfers charged to the run
  uint64_t hostTurnarounds = 0;
  units::Duration computeTime;  // computeCycles at clock
  units::Duration usbTime;      // usbTransferTime(traffic)
  units::Duration idleTime;     // hostTurnarounds x hostTurnaroundTime
  units::Duration overlapTime;  // min(compute, parameterBytes / bulkOutRate): compute under the parameter stream
  units::Bytes parameterBytes;  // tag-2 payload bytes charged to the run
  units::Duration totalTime;    // compute + usb + idle - overlap
};

class DeviceClock {
 public:
  // Link table and chip clock; forgets every charge (power-on).
  void configure(const UsbLinkParameters& link, units::Frequency clock);

  [[nodiscard]] const UsbLinkParameters& link() const { return link_; }
  [[nodiscard]] units::Frequency clock() const { return clock_; }

  // Device time now, the chip being at `chipCycle`.
  [[nodiscard]] usb::SimulatedInstant now(uint64_t chipCycle) const;

  // A bulk-OUT record of `payloadBytes` starts (its header was parsed): header bytes and transfers.
  void chargeRecordHeader(uint64_t run, units::Bytes payloadBytes);
  // `bytes` of the current record's payload were accepted; `tag` is the record's (parameters are
  // counted apart: the chip's work overlaps them).
  void chargeRecordPayload(uint64_t run, units::Bytes bytes, usb::RecordTag tag);

  // Where an output DMA starts on the link; its URBs are stamped from it (outputProgress).
  struct OutputStart {
    UsbTraffic before;  // every transfer charged before the DMA
    uint64_t turnarounds = 0;
    uint64_t chipCycle = 0;
  };
  // An output DMA of `bytes` leaves the chip at `chipCycle`: charged whole, now.
  [[nodiscard]] OutputStart chargeOutputDma(uint64_t run, units::Bytes bytes, uint64_t chipCycle);
  // When the first `bytesThrough` bytes of the DMA that started at `start` have crossed the link.
  [[nodiscard]] usb::SimulatedInstant outputProgress(const OutputStart& start, units::Bytes bytesThrough) const;

  // One 16-byte event leaves on EP 0x82.
  void chargeEvent(uint64_t run);

  // The device time of run `run`, whose chip cycles are `computeCycles` (the chip's run log knows them).
  [[nodiscard]] RunDeviceTime runTime(uint64_t run, units::Cycles computeCycles) const;

 private:
  struct RunCharges {
    UsbTraffic traffic;
    uint64_t hostTurnarounds = 0;
    units::Bytes parameterBytes;
  };
  // The run's charges; its host turnaround is charged the first time it is asked for.
  RunCharges& chargesOf(uint64_t run);
  [[nodiscard]] uint64_t picosecondsAt(const UsbTraffic& traffic, uint64_t turnarounds, uint64_t chipCycle) const;

  UsbLinkParameters link_ = usbLinkParameters(usb::UsbSpeed::kSuper);
  units::Frequency clock_ = 500'000'000;
  UsbTraffic total_;
  uint64_t turnarounds_ = 0;
  std::vector<RunCharges> runs_;  // by run index (ChipClockIf::runsBegun)
};

}  // namespace coralsim::sim
