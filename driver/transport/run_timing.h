// RunTiming: the device time of one executable run, or of one inference (the runs of the last
// iteration summed), as a simulated device reports it (DeviceIntrospection::lastRunTiming; on the
// simulator its device clock, sim/device_clock.h): the USB link model's time for the run's
// transfers, the chip cycles for compute, the host turnaround for idle. Plain numbers, so the
// reports render them without knowing the models (driver/run/run_report.h, docs/run-json.md).
#pragma once

#include <cstdint>
#include <string>

namespace coralsim::driver {

struct RunTiming {
  std::string usbSpeed;          // "super" or "high"
  double clockHz = 0;
  uint64_t computeCycles = 0;    // chip cycles of modelled work (never waiting for the host)
  double computeSeconds = 0;     // computeCycles / clockHz
  double usbSeconds = 0;         // the link model's time for the transfers below
  double idleSeconds = 0;        // host turnarounds: the device waits, nothing moves
  double totalSeconds = 0;       // compute + usb + idle
  uint64_t controlTransfers = 0;
  uint64_t bulkOutTransfers = 0;
  uint64_t bulkOutBytes = 0;     // record headers included
  uint64_t bulkInTransfers = 0;
  uint64_t bulkInBytes = 0;
  uint64_t hostTurnarounds = 0;
};

}  // namespace coralsim::driver
