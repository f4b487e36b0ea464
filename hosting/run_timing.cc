#include "sim/run_timing.h"

#include <algorithm>

namespace coralsim::sim {
namespace {

constexpr uint8_t kOutputTag = 3;
constexpr uint8_t kFirstInterruptTag = 4;

const char* speedName(usb::UsbSpeed speed) { return speed == usb::UsbSpeed::kSuper ? "super" : "high"; }

UsbTraffic trafficOf(const driver::ExecutableRunRecord& run, const UsbLinkParameters& link) {
  UsbTraffic t;
  // Records: the byte totals are exact; the record count splits them evenly, which only matters
  // for slices above the 1 MiB piece size.
  uint64_t sent = 0;
  uint64_t received = 0;
  for (const driver::BufferTraffic& b : run.traffic) {
    sent += b.sentBytes;
    received += b.receivedBytes;
  }
  auto addRecords = [&](uint64_t count, uint64_t bytes) {
    for (uint64_t i = 0; i < count; ++i) t.addOutRecord(bytes / count + (i < bytes % count ? 1 : 0), link);
  };
  addRecords(run.instructionRecords, run.instructionBytes);
  addRecords(run.dataRecords, sent);

  // Outputs: one DMA per tag-3 descriptor; without the descriptors (a transport with no simulator
  // behind it and hint service) the received bytes count as one DMA.
  const bool allDescriptorsSeen = run.descriptorSource != driver::DescriptorSource::kInterruptEventsOnly;
  uint64_t events = 0;
  for (const driver::ObservedDescriptor& d : run.descriptors) {
    if (d.descriptor.tag == kOutputTag && allDescriptorsSeen) t.addOutputDma(d.descriptor.length, link);
    // Event service reads every descriptor as an event; hint service only the interrupts.
    if (run.descriptorSource == driver::DescriptorSource::kEvents || d.descriptor.tag >= kFirstInterruptTag) ++events;
  }
  if (!allDescriptorsSeen) t.addOutputDma(received, link);
  for (uint64_t i = 0; i < events; ++i) t.addEvent();
  return t;
}

}  // namespace

driver::RunTiming predictRunTiming(const driver::ExecutableRunRecord& run, const UsbLinkParameters& link,
                                   uint64_t clockHz) {
  driver::RunTiming timing;
  timing.usbSpeed = speedName(link.speed);
  timing.clockHz = static_cast<double>(clockHz);
  timing.computeCycles = run.cycles.value_or(0);
  timing.computeSeconds = clockHz == 0 ? 0 : static_cast<double>(timing.computeCycles) / timing.clockHz;
  const UsbTraffic traffic = trafficOf(run, link);
  timing.controlTransfers = traffic.controlTransfers;
  timing.bulkOutTransfers = traffic.bulkOutTransfers;
  timing.bulkOutBytes = traffic.bulkOutBytes;
  timing.bulkInTransfers = traffic.bulkInTransfers;
  timing.bulkInBytes = traffic.bulkInBytes;
  timing.usbSeconds = usbTransferSeconds(traffic, link);
  timing.hostTurnarounds = 1;
  timing.idleSeconds = static_cast<double>(timing.hostTurnarounds) * link.hostTurnaroundSeconds;
  timing.totalSeconds = timing.computeSeconds + timing.usbSeconds + timing.idleSeconds;
  return timing;
}

void addPredictedTiming(driver::RunResult& result, const UsbLinkParameters& link, uint64_t clockHz) {
  int lastIteration = 0;
  for (const driver::ExecutableRunRecord& run : result.runs) lastIteration = std::max(lastIteration, run.iteration);
  driver::RunTiming sum;
  sum.usbSpeed = speedName(link.speed);
  sum.clockHz = static_cast<double>(clockHz);
  for (driver::ExecutableRunRecord& run : result.runs) {
    if (!run.cycles) continue;
    run.timing = predictRunTiming(run, link, clockHz);
    if (run.iteration != lastIteration) continue;
    const driver::RunTiming& t = *run.timing;
    sum.computeCycles += t.computeCycles;
    sum.computeSeconds += t.computeSeconds;
    sum.usbSeconds += t.usbSeconds;
    sum.idleSeconds += t.idleSeconds;
    sum.totalSeconds += t.totalSeconds;
    sum.controlTransfers += t.controlTransfers;
    sum.bulkOutTransfers += t.bulkOutTransfers;
    sum.bulkOutBytes += t.bulkOutBytes;
    sum.bulkInTransfers += t.bulkInTransfers;
    sum.bulkInBytes += t.bulkInBytes;
    sum.hostTurnarounds += t.hostTurnarounds;
  }
  result.timing = sum;
}

void addPredictedTiming(driver::RunResult& result, usb::UsbSpeed speed, uint64_t clockHz) {
  addPredictedTiming(result, usbLinkParameters(speed), clockHz);
}

}  // namespace coralsim::sim
