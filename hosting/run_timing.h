// Predicted device time of a run — the one computation behind `coralsim run --timing`, the demo's
// latency line and any library user: each executable run's chip cycles (compute), its USB
// transfers through the link model (sim/usb_link_model.h) and the host turnaround (idle), in typed
// units in driver::RunTiming (reports: driver/run/run_report.h, docs/run-json.md). Front ends only
// format the figures. Pure C++ (no SystemC, no wall clock). It joins the two sides — the device
// side's link model applied to the host driver's run record — so it lives in hosting/, above both,
// and sim/ includes nothing from driver/. The namespace stays sim:: (callers did not change when
// the file moved here).
//
// Definitions (one executable run, units/units.h):
//   compute = chip cycles of the run / clock: the modelled work of the scalar core, tiles, infeed
//             and outfeed (models/chip/cost_model.h), never time spent waiting for the host
//   usb     = usbTransferTime(traffic) of the transfers libedgetpu makes for the run: one
//             record per instruction chunk and per input/parameter slice the host sent, the output
//             DMAs (tag-3 descriptors) read in URBs, the events read from EP 0x82
//   idle    = hostTurnarounds x hostTurnaroundTime, one turnaround per executable run: the
//             device waits while the host sets up the request and handles its completion
//   total   = compute + usb + idle   (the three are taken as sequential: libedgetpu's single-EP
//             flow sends, waits for the completion, then reads)
// One inference (RunResult::timing) sums the runs of the last iteration, which is the steady state
// published latencies measure (parameters already cached).
#pragma once

#include "driver/run/run_result.h"
#include "sim/usb_link_model.h"
#include "units/units.h"

namespace coralsim::sim {

[[nodiscard]] driver::RunTiming predictRunTiming(const driver::ExecutableRunRecord& run,
                                                 const UsbLinkParameters& link, units::Frequency clock);

// Fills `timing` of every run (those with simulated cycles) and of the result.
void addPredictedTiming(driver::RunResult& result, const UsbLinkParameters& link, units::Frequency clock);

// The same with the link model's table for `speed` (usbLinkParameters): what a front end calls
// with the device's USB speed and chip clock (sim::DeviceOptions::speed, ChipConfig::clockHz).
void addPredictedTiming(driver::RunResult& result, usb::UsbSpeed speed, units::Frequency clock);

}  // namespace coralsim::sim
