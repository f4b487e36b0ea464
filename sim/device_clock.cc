#include "sim/device_clock.h"

#include <algorithm>
#include <cmath>

#include "usb/record_header.h"

namespace coralsim::sim {
namespace {

constexpr double kPicosecondsPerSecond = 1e12;

uint64_t picoseconds(units::Duration time) {
  return static_cast<uint64_t>(std::llround(time.value() * kPicosecondsPerSecond));
}

}  // namespace

void DeviceClock::configure(const UsbLinkParameters& link, units::Frequency clock) {
  link_ = link;
  clock_ = clock == 0 ? 1 : clock;
  total_ = UsbTraffic{};
  turnarounds_ = 0;
  runs_.clear();
}

uint64_t DeviceClock::picosecondsAt(const UsbTraffic& traffic, uint64_t turnarounds, uint64_t chipCycle) const {
  // Each part is rounded on its own, from exact counts, so equal counts give equal stamps.
  const uint64_t compute = picoseconds(units::Cycles(chipCycle) / clock_);
  const uint64_t link = picoseconds(usbTransferTime(traffic, link_));
  const uint64_t idle = picoseconds(turnarounds * link_.hostTurnaroundTime);
  return compute + link + idle;
}

usb::SimulatedInstant DeviceClock::now(uint64_t chipCycle) const {
  return {picosecondsAt(total_, turnarounds_, chipCycle), chipCycle};
}

DeviceClock::RunCharges& DeviceClock::chargesOf(uint64_t run) {
  if (run >= runs_.size()) runs_.resize(run + 1);
  RunCharges& charges = runs_[run];
  if (charges.hostTurnarounds == 0) {
    charges.hostTurnarounds = 1;
    ++turnarounds_;
  }
  return charges;
}

void DeviceClock::chargeRecordHeader(uint64_t run, units::Bytes payloadBytes) {
  // UsbTraffic::addOutRecord counts the header and the payload's transfers; the payload's bytes
  // are charged as they arrive (chargeRecordPayload), so take them back out here.
  UsbTraffic record;
  record.addOutRecord(payloadBytes, link_);
  record.bulkOutBytes = usb::kRecordHeaderBytes;
  for (UsbTraffic* t : {&chargesOf(run).traffic, &total_}) {
    t->bulkOutTransfers += record.bulkOutTransfers;
    t->bulkOutBytes += record.bulkOutBytes;
  }
}

void DeviceClock::chargeRecordPayload(uint64_t run, units::Bytes bytes, usb::RecordTag tag) {
  RunCharges& charges = chargesOf(run);
  charges.traffic.bulkOutBytes += bytes;
  if (tag == usb::RecordTag::kParameters) charges.parameterBytes += bytes;
  total_.bulkOutBytes += bytes;
}

DeviceClock::OutputStart DeviceClock::chargeOutputDma(uint64_t run, units::Bytes bytes, uint64_t chipCycle) {
  RunCharges& charges = chargesOf(run);
  const OutputStart start{total_, turnarounds_, chipCycle};
  charges.traffic.addOutputDma(bytes, link_);
  total_.addOutputDma(bytes, link_);
  return start;
}

usb::SimulatedInstant DeviceClock::outputProgress(const OutputStart& start, units::Bytes bytesThrough) const {
  UsbTraffic through = start.before;
  through.addOutputDma(bytesThrough, link_);
  return {picosecondsAt(through, start.turnarounds, start.chipCycle), start.chipCycle};
}

void DeviceClock::chargeEvent(uint64_t run) {
  chargesOf(run).traffic.addEvent();
  total_.addEvent();
}

RunDeviceTime DeviceClock::runTime(uint64_t run, units::Cycles computeCycles) const {
  RunDeviceTime t;
  t.speed = link_.speed;
  t.clock = clock_;
  t.computeCycles = computeCycles;
  if (run < runs_.size()) {
    t.traffic = runs_[run].traffic;
    t.hostTurnarounds = runs_[run].hostTurnarounds;
    t.parameterBytes = runs_[run].parameterBytes;
  }
  // The order and types of these operations are the ones the figures were calibrated with.
  t.computeTime = computeCycles / clock_;
  t.usbTime = usbTransferTime(t.traffic, link_);
  t.idleTime = t.hostTurnarounds * link_.hostTurnaroundTime;
  // The chip works while the run's parameters stream in (header): the shorter of the two is hidden.
  t.overlapTime = std::min(t.computeTime, t.parameterBytes / link_.bulkOutRate);
  t.totalTime = t.computeTime + t.usbTime + t.idleTime - t.overlapTime;
  return t;
}

}  // namespace coralsim::sim
