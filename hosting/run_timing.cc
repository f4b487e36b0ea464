#include "hosting/run_timing.h"

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
  units::Bytes sent;
  units::Bytes received;
  for (const driver::BufferTraffic& b : run.traffic) {
    sent += b.sentBytes;
    received += b.receivedBytes;
  }
  auto addRecords = [&](uint64_t count, units::Bytes bytes) {
    const uint64_t total = bytes.value();
    for (uint64_t i = 0; i < count; ++i) t.addOutRecord(total / count + (i < total % count ? 1 : 0), link);
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
                                   units::Frequency clock) {
  driver::RunTiming timing;
  timing.usbSpeed = speedName(link.speed);
  timing.clock = clock;
  timing.computeCycles = run.cycles.value_or(0);
  timing.computeTime = timing.computeCycles / clock;
  const UsbTraffic traffic = trafficOf(run, link);
  timing.controlTransfers = traffic.controlTransfers;
  timing.bulkOutTransfers = traffic.bulkOutTransfers;
  timing.bulkOutBytes = traffic.bulkOutBytes;
  timing.bulkInTransfers = traffic.bulkInTransfers;
  timing.bulkInBytes = traffic.bulkInBytes;
  timing.usbTime = usbTransferTime(traffic, link);
  timing.hostTurnarounds = 1;
  timing.idleTime = timing.hostTurnarounds * link.hostTurnaroundTime;
  timing.totalTime = timing.computeTime + timing.usbTime + timing.idleTime;
  return timing;
}

void addPredictedTiming(driver::RunResult& result, const UsbLinkParameters& link, units::Frequency clock) {
  int lastIteration = 0;
  for (const driver::ExecutableRunRecord& run : result.runs) lastIteration = std::max(lastIteration, run.iteration);
  driver::RunTiming sum;
  sum.usbSpeed = speedName(link.speed);
  sum.clock = clock;
  for (driver::ExecutableRunRecord& run : result.runs) {
    if (!run.cycles) continue;
    run.timing = predictRunTiming(run, link, clock);
    if (run.iteration != lastIteration) continue;
    const driver::RunTiming& t = *run.timing;
    sum.computeCycles += t.computeCycles;
    sum.computeTime += t.computeTime;
    sum.usbTime += t.usbTime;
    sum.idleTime += t.idleTime;
    sum.totalTime += t.totalTime;
    sum.controlTransfers += t.controlTransfers;
    sum.bulkOutTransfers += t.bulkOutTransfers;
    sum.bulkOutBytes += t.bulkOutBytes;
    sum.bulkInTransfers += t.bulkInTransfers;
    sum.bulkInBytes += t.bulkInBytes;
    sum.hostTurnarounds += t.hostTurnarounds;
  }
  result.timing = sum;
}

void addPredictedTiming(driver::RunResult& result, usb::UsbSpeed speed, units::Frequency clock) {
  addPredictedTiming(result, usbLinkParameters(speed), clock);
}

}  // namespace coralsim::sim
