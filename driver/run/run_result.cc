#include "driver/run/run_result.h"

#include <algorithm>

namespace coralsim::driver {

std::string_view descriptorSourceName(DescriptorSource source) {
  switch (source) {
    case DescriptorSource::kEvents: return "events";
    case DescriptorSource::kDeviceLog: return "device_log";
    case DescriptorSource::kInterruptEventsOnly: return "interrupt_events";
  }
  return "?";
}

std::optional<RunTiming> inferenceTiming(const std::vector<ExecutableRunRecord>& runs) {
  int lastIteration = 0;
  for (const ExecutableRunRecord& run : runs) lastIteration = std::max(lastIteration, run.iteration);
  std::optional<RunTiming> sum;
  for (const ExecutableRunRecord& run : runs) {
    if (!run.timing || run.iteration != lastIteration) continue;
    const RunTiming& t = *run.timing;
    if (!sum) {
      sum.emplace();
      sum->usbSpeed = t.usbSpeed;
      sum->clock = t.clock;
    }
    sum->computeCycles += t.computeCycles;
    sum->computeTime += t.computeTime;
    sum->usbTime += t.usbTime;
    sum->idleTime += t.idleTime;
    sum->overlapTime += t.overlapTime;
    sum->totalTime += t.totalTime;
    sum->controlTransfers += t.controlTransfers;
    sum->bulkOutTransfers += t.bulkOutTransfers;
    sum->bulkOutBytes += t.bulkOutBytes;
    sum->bulkInTransfers += t.bulkInTransfers;
    sum->bulkInBytes += t.bulkInBytes;
    sum->hostTurnarounds += t.hostTurnarounds;
  }
  return sum;
}

}  // namespace coralsim::driver
