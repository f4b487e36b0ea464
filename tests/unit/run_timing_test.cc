// hosting/run_timing.h: how a run's record becomes USB traffic and predicted seconds (hand-computed
// from the definitions in the header), and that the prediction is deterministic: the same program
// run twice on fresh emulated devices gives identical figures (it never reads a wall clock).
#include <gtest/gtest.h>

#include "hosting/in_process_transport.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "models/isa/assembler.h"
#include "models/isa/demo/demo_program.h"
#include "sim/device.h"
#include "hosting/run_timing.h"

namespace coralsim::sim {
namespace {

sim::UsbLinkParameters simpleLink() {
  sim::UsbLinkParameters link;
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

driver::ObservedDescriptor descriptor(uint8_t tag, uint32_t length) {
  driver::ObservedDescriptor d;
  d.descriptor = driver::DeviceDescriptor{tag, 0, length};
  return d;
}

driver::ExecutableRunRecord sampleRun(int iteration) {
  driver::ExecutableRunRecord run;
  run.iteration = iteration;
  run.cycles = 500'000;
  run.instructionRecords = 1;
  run.instructionBytes = 1000;
  run.dataRecords = 1;
  driver::BufferTraffic in;
  in.sentBytes = 2000;
  driver::BufferTraffic out;
  out.kind = driver::BufferKind::Output;
  out.receivedBytes = 1500;
  run.traffic = {in, out};
  run.descriptorSource = driver::DescriptorSource::kDeviceLog;
  run.descriptors = {descriptor(1, 2000), descriptor(3, 1500), descriptor(4, 0)};
  return run;
}

// The figures of a RunTiming worked out by hand; total = usb + compute + idle.
struct HandFigures {
  uint64_t bulkOutTransfers = 0;
  uint64_t bulkOutBytes = 0;
  uint64_t bulkInTransfers = 0;
  uint64_t bulkInBytes = 0;
  double usbSeconds = 0;
  double computeSeconds = 0;
  double idleSeconds = 0;
};

void expectFigures(const driver::RunTiming& t, const HandFigures& e) {
  EXPECT_EQ(t.bulkOutTransfers, e.bulkOutTransfers);
  EXPECT_EQ(t.bulkOutBytes, e.bulkOutBytes);
  EXPECT_EQ(t.bulkInTransfers, e.bulkInTransfers);
  EXPECT_EQ(t.bulkInBytes, e.bulkInBytes);
  EXPECT_EQ(t.controlTransfers, 0u);
  EXPECT_NEAR(t.usbTime.value(), e.usbSeconds, 1e-12);
  EXPECT_NEAR(t.computeTime.value(), e.computeSeconds, 1e-15);
  EXPECT_NEAR(t.idleTime.value(), e.idleSeconds, 1e-15);
  EXPECT_NEAR(t.totalTime.value(), e.usbSeconds + e.computeSeconds + e.idleSeconds, 1e-12);
}

TEST(RunTiming, HandComputedRun) {
  const driver::RunTiming t = predictRunTiming(sampleRun(0), simpleLink(), 500'000'000);
  // OUT: two records (instructions 1000, input 2000), each header + 1 piece: 4 transfers,
  // 1008 + 2008 = 3016 bytes. IN: the 1500-byte output in 2 URBs of 1 KiB, plus the tag-4 event
  // (hint service reads only interrupts): 3 transfers, 1516 bytes.
  // usb = (3016 + 1516) / 1e6 + 4 x 1 us + 3 x 2 us = 4532 us + 10 us = 4.542 ms
  // compute = 500,000 / 500 MHz = 1 ms; idle = one turnaround = 0.1 ms
  expectFigures(t, {.bulkOutTransfers = 4, .bulkOutBytes = 3016, .bulkInTransfers = 3, .bulkInBytes = 1516,
                    .usbSeconds = 4.542e-3, .computeSeconds = 1e-3, .idleSeconds = 100e-6});
  EXPECT_EQ(t.usbSpeed, "super");
}

TEST(RunTiming, EventServiceReadsEveryDescriptorAsAnEvent) {
  driver::ExecutableRunRecord run = sampleRun(0);
  run.descriptorSource = driver::DescriptorSource::kEvents;
  const driver::RunTiming t = predictRunTiming(run, simpleLink(), 500'000'000);
  EXPECT_EQ(t.bulkInTransfers, 2u + 3u);  // 2 output URBs + 3 events
  EXPECT_EQ(t.bulkInBytes, 1500u + 48u);
}

TEST(RunTiming, OneInferenceIsTheLastIteration) {
  driver::RunResult result;
  result.runs = {sampleRun(0), sampleRun(1)};
  result.runs[0].cycles = 9'000'000;  // e.g. a first iteration that also cached parameters
  addPredictedTiming(result, simpleLink(), 500'000'000);
  ASSERT_TRUE(result.timing.has_value());
  ASSERT_TRUE(result.runs[0].timing.has_value());
  EXPECT_NEAR(result.runs[0].timing->computeTime.value(), 18e-3, 1e-15);
  EXPECT_EQ(result.timing->computeCycles, 500'000u);
  EXPECT_NEAR(result.timing->totalTime.value(), result.runs[1].timing->totalTime.value(), 0.0);
  EXPECT_EQ(result.timing->hostTurnarounds, 1u);
}

// A front end passes only the USB speed and the clock: the figures follow the link model's table
// for that speed (sim/usb_link_model.cc, high speed: 36e6 B/s each way, 14.86 us per IN URB of
// 256 bytes, no per-OUT-transfer cost, 203.1 us host turnaround).
TEST(RunTiming, SpeedOverloadUsesTheLinkTableOfThatSpeed) {
  driver::RunResult result;
  result.runs = {sampleRun(0), sampleRun(1)};
  addPredictedTiming(result, usb::UsbSpeed::kHigh, 250'000'000);
  ASSERT_TRUE(result.timing.has_value());
  const driver::RunTiming& t = *result.timing;
  EXPECT_EQ(t.usbSpeed, "high");
  // OUT: as in HandComputedRun, 4 transfers / 3016 bytes. IN: the 1500-byte output in
  // ceil(1500 / 256) = 6 URBs plus the tag-4 event: 7 transfers, 1516 bytes.
  // usb = 4532 / 36e6 + 7 x 14.86 us = 125.8889 us + 104.02 us = 229.9089 us
  // compute = 500,000 cycles / 250 MHz = 2 ms; idle = 203.1 us (one run in the last iteration)
  expectFigures(t, {.bulkOutTransfers = 4, .bulkOutBytes = 3016, .bulkInTransfers = 7, .bulkInBytes = 1516,
                    .usbSeconds = 229.908889e-6, .computeSeconds = 2e-3, .idleSeconds = 203.1e-6});
}

driver::RunResult runDemoOnce() {
  driver::ModelFile holder;
  holder.kind = driver::ModelKind::RawBitstream;
  holder.path = std::string(isa::demoProgramName());
  driver::InstructionBitstream chunk;
  chunk.bytes = isa::bytesFromWords(isa::assemble(isa::demoProgramText(), isa::demoProgramName()).words);
  holder.rawBitstream = chunk;
  sim::Device device;
  driver::InProcessTransport transport(device);
  driver::Runner runner(transport);
  runner.open();
  driver::RunResult result = runner.run(driver::planRun(holder), {}, 2);
  runner.close();
  addPredictedTiming(result, sim::usbLinkParameters(usb::UsbSpeed::kSuper), 500'000'000);
  return result;
}

TEST(RunTiming, DeterministicAcrossRuns) {
  const driver::RunResult a = runDemoOnce();
  const driver::RunResult b = runDemoOnce();
  ASSERT_TRUE(a.ok()) << *a.error;
  ASSERT_TRUE(b.ok()) << *b.error;
  ASSERT_TRUE(a.timing && b.timing);
  EXPECT_GT(a.timing->computeCycles, 0u);
  EXPECT_EQ(a.timing->computeCycles, b.timing->computeCycles);
  EXPECT_EQ(a.timing->totalTime, b.timing->totalTime);  // bit-identical, not just close
  EXPECT_EQ(a.timing->usbTime, b.timing->usbTime);
  EXPECT_EQ(a.timing->bulkOutBytes, b.timing->bulkOutBytes);
  EXPECT_EQ(a.timing->bulkInTransfers, b.timing->bulkInTransfers);
  ASSERT_EQ(a.runs.size(), b.runs.size());
  for (size_t i = 0; i < a.runs.size(); ++i) EXPECT_EQ(a.runs[i].timing->totalTime, b.runs[i].timing->totalTime);
}

}  // namespace
}  // namespace coralsim::sim
