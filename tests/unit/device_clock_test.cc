// sim/device_clock.h: the device's simulated clock, charge by charge, against figures worked out
// by hand from the link model's formula (sim/usb_link_model.h) — the same run the host-side
// post-pass used to be checked with, so the two agree.
#include <gtest/gtest.h>

#include "sim/device_clock.h"

namespace coralsim::sim::device_clock_test {
namespace {

UsbLinkParameters simpleLink() {
  UsbLinkParameters link;
  link.speed = usb::UsbSpeed::kSuper;
  link.bulkOutRate = 1e6;
  link.bulkInRate = 1e6;
  link.outTransferTime = 1e-6;
  link.inTransferTime = 2e-6;
  link.controlTransferTime = 0;
  link.outPieceBytes = 1 << 20;
  link.inUrbBytes = 1024;
  link.hostTurnaroundTime = 100e-6;
  return link;
}

constexpr uint64_t kClockHz = 500'000'000;
constexpr uint64_t kPs = 1'000'000;  // picoseconds per microsecond

// One run as libedgetpu makes it: an instruction record of 1,000 bytes, an input record of 2,000
// bytes (accepted in two parts), a 1,500-byte output DMA, the completion event.
void chargeSampleRun(DeviceClock& clock, uint64_t run) {
  clock.chargeRecordHeader(run, 1000);
  clock.chargeRecordPayload(run, 1000, usb::RecordTag::kInstructions);
  clock.chargeRecordHeader(run, 2000);
  clock.chargeRecordPayload(run, 1200, usb::RecordTag::kInputActivations);
  clock.chargeRecordPayload(run, 800, usb::RecordTag::kInputActivations);
  (void)clock.chargeOutputDma(run, 1500, 0);
  clock.chargeEvent(run);
}

TEST(DeviceClock, ARunsFiguresFollowTheLinkModel) {
  DeviceClock clock;
  clock.configure(simpleLink(), kClockHz);
  chargeSampleRun(clock, 0);
  const RunDeviceTime t = clock.runTime(0, 500'000);
  // OUT: two records, each header + 1 piece: 4 transfers, 1008 + 2008 = 3016 bytes. IN: the
  // 1500-byte output in 2 URBs of 1 KiB plus the 16-byte event: 3 transfers, 1516 bytes.
  // usb = (3016 + 1516) / 1e6 + 4 x 1 us + 3 x 2 us = 4.542 ms; compute = 500,000 / 500 MHz = 1 ms;
  // idle = one turnaround = 0.1 ms.
  EXPECT_EQ(t.traffic.bulkOutTransfers, 4u);
  EXPECT_EQ(t.traffic.bulkOutBytes, 3016u);
  EXPECT_EQ(t.traffic.bulkInTransfers, 3u);
  EXPECT_EQ(t.traffic.bulkInBytes, 1516u);
  EXPECT_EQ(t.traffic.controlTransfers, 0u);
  EXPECT_EQ(t.hostTurnarounds, 1u);
  EXPECT_NEAR(t.usbTime.value(), 4.542e-3, 1e-12);
  EXPECT_NEAR(t.computeTime.value(), 1e-3, 1e-15);
  EXPECT_NEAR(t.idleTime.value(), 100e-6, 1e-15);
  EXPECT_EQ(t.overlapTime.value(), 0.0) << "no parameters streamed: nothing overlaps";
  EXPECT_EQ(t.totalTime.value(), t.computeTime.value() + t.usbTime.value() + t.idleTime.value());
  EXPECT_EQ(t.speed, usb::UsbSpeed::kSuper);
  EXPECT_EQ(t.clock, kClockHz);
}

// A run that streams its parameters (an executable that carries them every inference): the chip's
// work overlaps them, so the shorter of compute and the parameters' link time is taken off.
TEST(DeviceClock, ComputeOverlapsTheParametersARunStreams) {
  DeviceClock clock;
  clock.configure(simpleLink(), kClockHz);
  chargeSampleRun(clock, 0);
  clock.chargeRecordHeader(0, 3000);
  clock.chargeRecordPayload(0, 3000, usb::RecordTag::kParameters);  // 3 ms at 1 MB/s
  // usb = the sample run's 4.542 ms + 3008 bytes (3.008 ms) + 2 transfers (2 us) = 7.552 ms.
  const RunDeviceTime shortCompute = clock.runTime(0, 500'000);  // 1 ms of compute: all hidden
  EXPECT_EQ(shortCompute.parameterBytes, 3000u);
  EXPECT_NEAR(shortCompute.usbTime.value(), 7.552e-3, 1e-12);
  EXPECT_NEAR(shortCompute.overlapTime.value(), 1e-3, 1e-15);
  EXPECT_NEAR(shortCompute.totalTime.value(), 7.552e-3 + 100e-6, 1e-12);
  const RunDeviceTime longCompute = clock.runTime(0, 2'500'000);  // 5 ms: 3 ms of it hidden
  EXPECT_NEAR(longCompute.overlapTime.value(), 3e-3, 1e-15);
  EXPECT_NEAR(longCompute.totalTime.value(), 5e-3 + 7.552e-3 + 100e-6 - 3e-3, 1e-12);
}

TEST(DeviceClock, StampsAreComputePlusLinkPlusIdle) {
  DeviceClock clock;
  clock.configure(simpleLink(), kClockHz);
  EXPECT_EQ(clock.now(0).picoseconds, 0u);
  EXPECT_EQ(clock.now(500).picoseconds, 1'000'000u) << "500 cycles at 500 MHz = 1 us";
  // The run's first transfer brings its host turnaround (100 us); the header 8 bytes (8 us at
  // 1 MB/s) and the record's two transfers (2 x 1 us).
  clock.chargeRecordHeader(0, 1000);
  EXPECT_EQ(clock.now(0).picoseconds, (100 + 8 + 2) * kPs);
  clock.chargeRecordPayload(0, 1000, usb::RecordTag::kInstructions);  // 1 ms
  EXPECT_EQ(clock.now(0).picoseconds, (100 + 8 + 2 + 1000) * kPs);
  EXPECT_EQ(clock.now(1000).chipCycle, 1000u);
  EXPECT_EQ(clock.now(1000).picoseconds, (100 + 8 + 2 + 1000 + 2) * kPs);
  // An output DMA of 1,500 bytes leaving at cycle 1,000: its first 1 KiB URB crosses the link in
  // 1,024 us + 2 us, the rest (476 bytes, a second URB) in 476 us + 2 us more.
  const DeviceClock::OutputStart start = clock.chargeOutputDma(0, 1500, 1000);
  const uint64_t before = (100 + 8 + 2 + 1000 + 2) * kPs;
  EXPECT_EQ(clock.outputProgress(start, 1024).picoseconds, before + 1026 * kPs);
  EXPECT_EQ(clock.outputProgress(start, 1500).picoseconds, before + 1504 * kPs);
  EXPECT_EQ(clock.outputProgress(start, 1500).chipCycle, 1000u);
  // The whole DMA is on the clock at once: nothing that follows can be stamped before its end.
  EXPECT_EQ(clock.now(1000).picoseconds, before + 1504 * kPs);
  clock.chargeEvent(0);  // 16 bytes + one IN transfer
  EXPECT_EQ(clock.now(1000).picoseconds, before + (1504 + 16 + 2) * kPs);
}

TEST(DeviceClock, EachRunHasItsOwnChargesAndOneTurnaround) {
  DeviceClock clock;
  clock.configure(simpleLink(), kClockHz);
  chargeSampleRun(clock, 0);
  chargeSampleRun(clock, 1);
  clock.chargeEvent(1);
  const RunDeviceTime first = clock.runTime(0, 0);
  const RunDeviceTime second = clock.runTime(1, 0);
  EXPECT_EQ(first.hostTurnarounds, 1u);
  EXPECT_EQ(second.hostTurnarounds, 1u);
  EXPECT_EQ(second.traffic.bulkInTransfers, first.traffic.bulkInTransfers + 1);
  EXPECT_EQ(clock.runTime(2, 0).totalTime.value(), 0.0) << "a run nothing was charged to";
  // Device time is the runs' times added up (no cycles here).
  const double sum = first.totalTime.value() + second.totalTime.value();
  EXPECT_NEAR(static_cast<double>(clock.now(0).picoseconds), sum * 1e12, 2.0);
}

TEST(DeviceClock, ConfigureForgetsEverything) {
  DeviceClock clock;
  clock.configure(simpleLink(), kClockHz);
  chargeSampleRun(clock, 0);
  clock.configure(usbLinkParameters(usb::UsbSpeed::kHigh), 250'000'000);
  EXPECT_EQ(clock.now(0).picoseconds, 0u);
  EXPECT_EQ(clock.runTime(0, 0).traffic, UsbTraffic{});
  EXPECT_EQ(clock.runTime(0, 0).speed, usb::UsbSpeed::kHigh);
}

// The link table of a speed is what the device uses (sim/usb_link_model.cc, high speed: 36e6 B/s
// each way, 14.86 us per IN URB of 256 bytes, no per-OUT-transfer cost, 203.1 us turnaround).
TEST(DeviceClock, HighSpeedTable) {
  DeviceClock clock;
  clock.configure(usbLinkParameters(usb::UsbSpeed::kHigh), 250'000'000);
  chargeSampleRun(clock, 0);
  const RunDeviceTime t = clock.runTime(0, 500'000);
  // IN: the 1500-byte output in ceil(1500 / 256) = 6 URBs plus the event: 7 transfers, 1516 bytes.
  // usb = 4532 / 36e6 + 7 x 14.86 us = 125.8889 us + 104.02 us = 229.9089 us
  EXPECT_EQ(t.traffic.bulkInTransfers, 7u);
  EXPECT_NEAR(t.usbTime.value(), 229.908889e-6, 1e-12);
  EXPECT_NEAR(t.computeTime.value(), 2e-3, 1e-15);
  EXPECT_NEAR(t.idleTime.value(), 203.1e-6, 1e-15);
}

}  // namespace
}  // namespace coralsim::sim::device_clock_test
