// Predicted device time of `coralsim run --timing`: each executable run's chip cycles (compute),
// its USB transfers through the link model (sim/usb_link_model.h) and the host turnaround (idle),
// as plain numbers in driver::RunTiming for the reports (docs/run-json.md).
//
// Definitions (one executable run, seconds):
//   compute = chip cycles of the run / clock: the modelled work of the scalar core, tiles, infeed
//             and outfeed (models/chip/cost_model.h), never time spent waiting for the host
//   usb     = usbTransferSeconds(traffic) of the transfers libedgetpu makes for the run: one
//             record per instruction chunk and per input/parameter slice the host sent, the output
//             DMAs (tag-3 descriptors) read in URBs, the events read from EP 0x82
//   idle    = hostTurnarounds x hostTurnaroundSeconds, one turnaround per executable run: the
//             device waits while the host sets up the request and handles its completion
//   total   = compute + usb + idle   (the three are taken as sequential: libedgetpu's single-EP
//             flow sends, waits for the completion, then reads)
// One inference (RunResult::timing) sums the runs of the last iteration, which is the steady state
// published latencies measure (parameters already cached).
#pragma once

#include <cstdint>

#include "driver/run_result.h"
#include "sim/usb_link_model.h"

namespace coralsim::cli {

[[nodiscard]] driver::RunTiming predictRunTiming(const driver::ExecutableRunRecord& run,
                                                 const sim::UsbLinkParameters& link, uint64_t clockHz);

// Fills `timing` of every run (those with simulated cycles) and of the result.
void addPredictedTiming(driver::RunResult& result, const sim::UsbLinkParameters& link, uint64_t clockHz);

}  // namespace coralsim::cli
