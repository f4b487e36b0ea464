// sim/cli/run_timing.h: how a run's record becomes USB traffic and predicted seconds (hand-computed
// from the definitions in the header), and that the prediction is deterministic: the same program
// run twice on fresh emulated devices gives identical figures (it never reads a wall clock).
#include <gtest/gtest.h>

#include "hosting/in_process_transport.h"
#include "driver/run_plan.h"
#include "driver/runner.h"
#include "models/isa/assembler.h"
#include "models/isa/demo/demo_program.h"
#include "sim/cli/run_timing.h"
#include "sim/device.h"

namespace coralsim::cli {
namespace {

sim::UsbLinkParameters simpleLink() {
  sim::UsbLinkParameters link;
  link.speed = usb::UsbSpeed::kSuper;
  link.bulkOutBytesPerSecond = 1e6;
  link.bulkInBytesPerSecond = 1e6;
  link.outTransferSeconds = 1e-6;
  link.inTransferSeconds = 2e-6;
  link.controlTransferSeconds = 0;
  link.outPieceBytes = 1 << 20;
  link.inUrbBytes = 1024;
  link.hostTurnaroundSeconds = 100e-6;
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

TEST(RunTiming, HandComputedRun) {
  const driver::RunTiming t = predictRunTiming(sampleRun(0), simpleLink(), 500'000'000);
  // OUT: two records (instructions 1000, input 2000), each header + 1 piece: 4 transfers,
  // 1008 + 2008 = 3016 bytes. IN: the 1500-byte output in 2 URBs of 1 KiB, plus the tag-4 event
  // (hint service reads only interrupts): 3 transfers, 1516 bytes.
  EXPECT_EQ(t.bulkOutTransfers, 4u);
  EXPECT_EQ(t.bulkOutBytes, 3016u);
  EXPECT_EQ(t.bulkInTransfers, 3u);
  EXPECT_EQ(t.bulkInBytes, 1516u);
  EXPECT_EQ(t.controlTransfers, 0u);
  // usb = (3016 + 1516) / 1e6 + 4 x 1 us + 3 x 2 us = 4532 us + 10 us = 4.542 ms
  EXPECT_NEAR(t.usbSeconds, 4.542e-3, 1e-12);
  // compute = 500,000 / 500 MHz = 1 ms; idle = one turnaround = 0.1 ms
  EXPECT_NEAR(t.computeSeconds, 1e-3, 1e-15);
  EXPECT_NEAR(t.idleSeconds, 100e-6, 1e-15);
  EXPECT_NEAR(t.totalSeconds, 4.542e-3 + 1e-3 + 100e-6, 1e-12);
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
  EXPECT_NEAR(result.runs[0].timing->computeSeconds, 18e-3, 1e-15);
  EXPECT_EQ(result.timing->computeCycles, 500'000u);
  EXPECT_NEAR(result.timing->totalSeconds, result.runs[1].timing->totalSeconds, 0.0);
  EXPECT_EQ(result.timing->hostTurnarounds, 1u);
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
  EXPECT_EQ(a.timing->totalSeconds, b.timing->totalSeconds);  // bit-identical, not just close
  EXPECT_EQ(a.timing->usbSeconds, b.timing->usbSeconds);
  EXPECT_EQ(a.timing->bulkOutBytes, b.timing->bulkOutBytes);
  EXPECT_EQ(a.timing->bulkInTransfers, b.timing->bulkInTransfers);
  ASSERT_EQ(a.runs.size(), b.runs.size());
  for (size_t i = 0; i < a.runs.size(); ++i) EXPECT_EQ(a.runs[i].timing->totalSeconds, b.runs[i].timing->totalSeconds);
}

}  // namespace
}  // namespace coralsim::cli
