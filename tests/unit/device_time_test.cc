// Device time kept by the simulated device (sim/device_clock.h) and read by the host driver: the
// runner's per-run timing is the device's own figure, the USB log stamps every bulk transfer with
// the device's instant, the stamps are monotone, identical across runs and, transfer by transfer,
// the link model's time (bytes / rate + per-transfer costs, sim/usb_link_model.cc) on top of the
// chip's compute. The program is the embedded demo (sum_loop): one instruction record and one
// completion event per run, so every gap between two bulk stamps can be worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "driver/transport/recording_transport.h"
#include "hosting/in_process_transport.h"
#include "models/isa/assembler.h"
#include "models/isa/demo/demo_program.h"
#include "sim/device.h"
#include "traces/usb_log.h"
#include "usb/record_header.h"

namespace coralsim::device_time_test {
namespace {

struct Session {
  driver::RunResult result;
  traces::UsbLog log;
  std::string logText;
  usb::SimulatedInstant deviceTime;
  std::vector<sim::RunDeviceTime> runTimes;
};

// The project's own demo program (models/isa/demo), as a raw-bitstream model file.
driver::ModelFile demoModel() {
  driver::ModelFile holder;
  holder.kind = driver::ModelKind::RawBitstream;
  holder.path = std::string(isa::demoProgramName());
  driver::InstructionBitstream chunk;
  chunk.bytes = isa::bytesFromWords(isa::assemble(isa::demoProgramText(), isa::demoProgramName()).words);
  holder.rawBitstream = chunk;
  return holder;
}

Session runDemo(usb::UsbSpeed speed) {
  const driver::ModelFile holder = demoModel();
  sim::DeviceOptions options;
  options.speed = speed;
  sim::Device device(options);
  driver::InProcessTransport transport(device);
  Session s;
  driver::RecordingTransport recorder(transport, s.log);
  driver::Runner runner(recorder, driver::RunnerOptions{.deviceTime = true});
  runner.open();
  s.result = runner.run(driver::planRun(holder), {}, 2);
  runner.close();
  s.deviceTime = device.deviceTime();
  s.runTimes = device.runTimes();
  std::ostringstream text;
  traces::writeUsbLog(s.log, text);
  s.logText = text.str();
  return s;
}

std::vector<const traces::UsbTransaction*> bulkTransfers(const traces::UsbLog& log) {
  std::vector<const traces::UsbTransaction*> out;
  for (const traces::UsbTransaction& t : log.transactions) {
    if (t.type == traces::UsbTransferType::kBulk) out.push_back(&t);
  }
  return out;
}

TEST(DeviceTime, TheRunnerReportsTheDevicesOwnFigures) {
  const Session s = runDemo(usb::UsbSpeed::kSuper);
  ASSERT_TRUE(s.result.ok()) << *s.result.error;
  ASSERT_EQ(s.result.runs.size(), 2u);
  ASSERT_EQ(s.runTimes.size(), 2u);
  for (size_t i = 0; i < s.result.runs.size(); ++i) {
    const driver::ExecutableRunRecord& run = s.result.runs[i];
    ASSERT_TRUE(run.timing.has_value()) << "run " << i;
    EXPECT_EQ(run.timing->totalTime.value(), s.runTimes[i].totalTime.value()) << "run " << i;
    EXPECT_EQ(run.timing->usbTime.value(), s.runTimes[i].usbTime.value()) << "run " << i;
    // The device counts compute from the end of the previous run: what the host saw pass.
    EXPECT_EQ(run.timing->computeCycles, run.cycles.value_or(0)) << "run " << i;
    EXPECT_EQ(run.timing->hostTurnarounds, 1u);
    EXPECT_EQ(run.timing->usbSpeed, "super");
  }
  // One inference: the last iteration's run.
  ASSERT_TRUE(s.result.timing.has_value());
  EXPECT_EQ(s.result.timing->totalTime.value(), s.result.runs[1].timing->totalTime.value());
  // Every charge belongs to a run: the device's clock is the runs' times added up.
  double sum = 0;
  for (const sim::RunDeviceTime& t : s.runTimes) sum += t.totalTime.value();
  EXPECT_NEAR(static_cast<double>(s.deviceTime.picoseconds), sum * 1e12, 10.0);
}

TEST(DeviceTime, WithoutTheOptionTheRunnerLeavesTimingOut) {
  const driver::ModelFile holder = demoModel();
  sim::Device device;
  driver::InProcessTransport transport(device);
  driver::Runner runner(transport);
  runner.open();
  const driver::RunResult result = runner.run(driver::planRun(holder), {}, 1);
  runner.close();
  ASSERT_TRUE(result.ok()) << *result.error;
  EXPECT_FALSE(result.timing.has_value());
  EXPECT_FALSE(result.runs.at(0).timing.has_value());
}

TEST(DeviceTime, BulkStampsAreIdenticalAcrossRuns) {
  const Session a = runDemo(usb::UsbSpeed::kSuper);
  const Session b = runDemo(usb::UsbSpeed::kSuper);
  EXPECT_EQ(a.logText, b.logText);
  EXPECT_EQ(a.deviceTime, b.deviceTime);
  ASSERT_TRUE(a.result.timing && b.result.timing);
  EXPECT_EQ(a.result.timing->totalTime.value(), b.result.timing->totalTime.value());  // bit-identical
}

// Each bulk transfer's stamp minus the previous one's, less the chip's compute in between, is the
// link model's time for that transfer (and the host turnaround for a run's first transfer).
void expectStampsFollowTheLinkModel(usb::UsbSpeed speed) {
  const Session s = runDemo(speed);
  ASSERT_TRUE(s.result.ok()) << *s.result.error;
  const sim::UsbLinkParameters link = sim::usbLinkParameters(speed);
  const double clockHz = static_cast<double>(sim::DeviceOptions{}.chip.clockHz.value());
  const std::vector<const traces::UsbTransaction*> bulk = bulkTransfers(s.log);
  ASSERT_EQ(bulk.size(), 6u) << "per run: record header, instruction payload, completion event";
  double previousUs = 0;
  uint64_t previousCycle = 0;
  size_t headers = 0;
  for (const traces::UsbTransaction* t : bulk) {
    ASSERT_TRUE(t->timeUs.has_value()) << "bulk transfer " << t->seq << " has no simulated time";
    ASSERT_TRUE(t->cycle.has_value()) << "bulk transfer " << t->seq;
    EXPECT_GE(*t->timeUs, previousUs) << "bulk transfer " << t->seq << " goes back in time";
    EXPECT_GE(*t->cycle, previousCycle) << "bulk transfer " << t->seq;
    const double computeUs = static_cast<double>(*t->cycle - previousCycle) / clockHz * 1e6;
    const double linkUs = *t->timeUs - previousUs - computeUs;
    double expectedUs = 0;
    if (t->endpoint == usb::endpoint::kEventIn) {
      expectedUs = (16.0 / link.bulkInRate.value() + link.inTransferTime.value()) * 1e6;
    } else if (!t->records.empty()) {
      ++headers;  // a run's first transfer: the host's turnaround, then the 8 header bytes
      expectedUs = (link.hostTurnaroundTime.value() + static_cast<double>(usb::kRecordHeaderBytes) / link.bulkOutRate.value() +
                    2 * link.outTransferTime.value()) * 1e6;
    } else {
      expectedUs = static_cast<double>(t->length) / link.bulkOutRate.value() * 1e6;
    }
    // t_us is written with nanosecond resolution (truncated): 2 ns of slack per difference.
    EXPECT_NEAR(linkUs, expectedUs, 0.002) << "bulk transfer " << t->seq << " ep " << int{t->endpoint} << ", "
                                           << t->length << " bytes";
    previousUs = *t->timeUs;
    previousCycle = *t->cycle;
  }
  EXPECT_EQ(headers, 2u);
  // After the last transfer only the chip's own cycles pass (the close sequence costs no link time).
  const double tailUs = static_cast<double>(s.deviceTime.chipCycle - previousCycle) / clockHz * 1e6;
  EXPECT_NEAR(static_cast<double>(s.deviceTime.picoseconds) / 1e6 - previousUs, tailUs, 0.002);
}

TEST(DeviceTime, BulkStampsFollowTheLinkModelAtSuperSpeed) { expectStampsFollowTheLinkModel(usb::UsbSpeed::kSuper); }
TEST(DeviceTime, BulkStampsFollowTheLinkModelAtHighSpeed) { expectStampsFollowTheLinkModel(usb::UsbSpeed::kHigh); }

}  // namespace
}  // namespace coralsim::device_time_test
