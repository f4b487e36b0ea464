// RunTiming: the device time of one executable run, or of one inference (the runs of the last
// iteration summed), as a simulated device reports it (DeviceIntrospection::lastRunTiming; on the
// simulator its device clock, sim/device_clock.h): the USB link model's time for the run's
// transfers, the chip cycles for compute, the host turnaround for idle. Values in typed units
// (units/units.h), so the reports render them without knowing the models (driver/run/run_report.h,
// docs/run-json.md).
#pragma once

#include <cstdint>
#include <string>

#include "units/units.h"

namespace coralsim::driver {

struct RunTiming {
  std::string usbSpeed;             // "super" or "high"
  units::Frequency clock;           // the chip clock
  units::Cycles computeCycles;      // chip cycles of modelled work (never waiting for the host)
  units::Duration computeTime;      // computeCycles at clock
  units::Duration usbTime;          // the link model's time for the transfers below
  units::Duration idleTime;         // host turnarounds: the device waits, nothing moves
  units::Duration overlapTime;      // compute hidden under the run's parameter stream
  units::Duration totalTime;        // compute + usb + idle - overlap
  uint64_t controlTransfers = 0;
  uint64_t bulkOutTransfers = 0;
  units::Bytes bulkOutBytes;        // record headers included
  uint64_t bulkInTransfers = 0;
  units::Bytes bulkInBytes;
  uint64_t hostTurnarounds = 0;
};

}  // namespace coralsim::driver
