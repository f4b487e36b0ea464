// The simulated timestamps of bulk transfers in the USB log (ARCHITECTURE.md §4), on the corpus
// models with published latencies (scripts/timing-references.json, at the speed each was measured),
// in both service modes, each run twice on fresh devices:
//   - every bulk transfer carries a device time and a chip cycle;
//   - the stamps never go back in the log's order;
//   - the two logs are byte-identical;
//   - transfer by transfer, the stamp minus the previous bulk stamp, less the chip's compute in
//     between, is the link model's time for that transfer (sim/usb_link_model.cc): bytes / rate,
//     plus the per-URB cost for IN transfers, plus one host turnaround on a run's first transfer.
// The figures are the device's own; the check recomputes them from the log with the link table.
// And per run, the parameters it streams (tag-2 bytes the device charged) are its executable's
// parameters, and the compute they hide is min(compute, those bytes / the bulk-OUT rate).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "driver/transport/recording_transport.h"
#include "hosting/in_process_transport.h"
#include "sim/device.h"
#include "tests/support/corpus.h"
#include "tests/support/timing_references.h"
#include "traces/usb_log.h"
#include "usb/record_header.h"

namespace coralsim::device_time_trace_test {
namespace {

// (corpus path, speed) of every published latency.
std::set<std::pair<std::string, std::string>> referenceModels() {
  std::set<std::pair<std::string, std::string>> out;
  for (const testing::TimingReference& r : testing::loadTimingReferences()) out.insert({r.model, r.usb});
  return out;
}

std::string sessionLog(const std::filesystem::path& modelPath, usb::UsbSpeed speed, driver::ServiceMode service) {
  const driver::ModelFile model = driver::loadModelFile(modelPath.string());
  const driver::RunPlan plan = driver::planRun(model);
  sim::DeviceOptions options;
  options.speed = speed;
  sim::Device device(options);
  driver::InProcessTransport transport(device);
  traces::UsbLog log;
  driver::RecordingTransport recorder(transport, log);
  driver::Runner runner(recorder, driver::RunnerOptions{.service = service});
  runner.open();
  const driver::RunResult result = runner.run(plan, driver::randomInputs(plan, 1), 2);
  runner.close();
  if (!result.ok()) throw std::runtime_error(modelPath.string() + ": " + *result.error);
  std::ostringstream text;
  traces::writeUsbLog(log, text);
  return text.str();
}

uint64_t pieces(uint64_t bytes, uint64_t piece) { return (bytes + piece - 1) / piece; }

// The first transfer whose stamp does not follow from the link model, or "".
std::string checkStamps(const traces::UsbLog& log, const sim::UsbLinkParameters& link, double clockHz) {
  constexpr double kSlackUs = 0.002;  // t_us has nanosecond resolution: 2 ns per difference
  const traces::UsbTransaction* previous = nullptr;
  for (const traces::UsbTransaction& t : log.transactions) {
    if (t.type != traces::UsbTransferType::kBulk) continue;
    const std::string where = "seq " + std::to_string(t.seq) + " (ep " + std::to_string(t.endpoint) + ", " +
                              std::to_string(t.length) + " bytes)";
    if (!t.timeUs || !t.cycle) return where + ": no simulated time";
    const double previousUs = previous ? *previous->timeUs : 0;
    const uint64_t previousCycle = previous ? *previous->cycle : 0;
    if (*t.timeUs < previousUs) return where + ": stamped before the previous bulk transfer";
    if (*t.cycle < previousCycle) return where + ": chip cycle before the previous bulk transfer's";
    const double linkUs = *t.timeUs - previousUs - static_cast<double>(*t.cycle - previousCycle) / clockHz * 1e6;
    const double bytesUs = static_cast<double>(t.length) /
                           (t.in() ? link.bulkInRate.value() : link.bulkOutRate.value()) * 1e6;
    bool fits = false;
    if (t.endpoint == usb::endpoint::kEventIn) {
      fits = std::abs(linkUs - bytesUs - link.inTransferTime.value() * 1e6) <= kSlackUs;
    } else if (t.endpoint == usb::endpoint::kOutputIn) {
      // The URBs the model charges for this transfer's bytes: where the transfer starts inside its
      // DMA is not in the log, so ceil(length / URB size) or one fewer.
      const uint64_t most = pieces(t.length, link.inUrbBytes.value());
      for (uint64_t urbs = most == 0 ? 0 : most - 1; urbs <= most; ++urbs) {
        fits = fits || std::abs(linkUs - bytesUs - static_cast<double>(urbs) * link.inTransferTime.value() * 1e6) <= kSlackUs;
      }
    } else if (!t.records.empty() && t.length == usb::kRecordHeaderBytes) {
      // A record header: its transfers (header + payload pieces), and the host's turnaround when
      // it opens an executable run.
      const double transfersUs = static_cast<double>(1 + pieces(t.records.front().size, link.outPieceBytes.value())) * link.outTransferTime.value() * 1e6;
      const double base = bytesUs + transfersUs;
      fits = std::abs(linkUs - base) <= kSlackUs || std::abs(linkUs - base - link.hostTurnaroundTime.value() * 1e6) <= kSlackUs;
    } else {
      fits = std::abs(linkUs - bytesUs) <= kSlackUs;  // record payload
    }
    if (!fits) {
      std::ostringstream s;
      s << where << ": " << linkUs << " us of link time, the link model gives " << bytesUs << " us for the bytes";
      return s.str();
    }
    previous = &t;
  }
  return previous ? "" : "no bulk transfer in the log";
}

TEST(DeviceTimeTrace, BulkStampsAreMonotoneIdenticalAndFollowTheLinkModel) {
  const auto corpus = testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const double clockHz = static_cast<double>(sim::DeviceOptions{}.chip.clockHz.value());
  size_t sessions = 0;
  size_t transfers = 0;
  for (const auto& [model, speedName] : referenceModels()) {
    const std::filesystem::path path = *corpus / model;
    ASSERT_TRUE(std::filesystem::is_regular_file(path)) << path;
    const usb::UsbSpeed speed = speedName == "high" ? usb::UsbSpeed::kHigh : usb::UsbSpeed::kSuper;
    for (driver::ServiceMode service : {driver::ServiceMode::kHints, driver::ServiceMode::kEvents}) {
      const std::string what = path.filename().string() + " (" + speedName + ", " + std::string(driver::serviceModeName(service)) + ")";
      const std::string first = sessionLog(path, speed, service);
      const std::string second = sessionLog(path, speed, service);
      EXPECT_EQ(first, second) << what << ": the USB log differs between two runs";
      std::istringstream in(first);
      const traces::UsbLog log = traces::readUsbLog(in, what);
      const std::string problem = checkStamps(log, sim::usbLinkParameters(speed), clockHz);
      EXPECT_EQ(problem, "") << what;
      ++sessions;
      for (const traces::UsbTransaction& t : log.transactions) transfers += t.type == traces::UsbTransferType::kBulk;
    }
  }
  std::printf("  %zu sessions, %zu bulk transfers: stamps monotone, identical across two runs, each the link model's time\n",
              sessions, transfers);
}

// A run that streams parameters hides its compute under them (sim/device_clock.h, docs/timing.md
// §5): the device counts as streamed exactly the executable's parameter bytes, and takes off
// min(compute, bytes / rate). At least one reference streams parameters every inference (found by
// that property, not by name), so the rule is exercised in a steady-state run.
TEST(DeviceTimeTrace, RunsHideTheirComputeUnderTheParametersTheyStream) {
  const auto corpus = testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  size_t steadyRunsWithOverlap = 0;
  for (const auto& [model, speedName] : referenceModels()) {
    const std::filesystem::path path = *corpus / model;
    const usb::UsbSpeed speed = speedName == "high" ? usb::UsbSpeed::kHigh : usb::UsbSpeed::kSuper;
    const driver::ModelFile file = driver::loadModelFile(path.string());
    const driver::RunPlan plan = driver::planRun(file);
    std::map<std::string, uint64_t> parameterBytes;  // by executable label
    for (const driver::PlanUnit& unit : plan.units) {
      if (unit.parameterCaching) parameterBytes[unit.parameterCaching->label] = unit.parameterCaching->executable->parameters.size();
      for (const driver::PlannedExecutable& p : unit.programs) parameterBytes[p.label] = p.executable->parameters.size();
    }
    sim::DeviceOptions options;
    options.speed = speed;
    sim::Device device(options);
    driver::InProcessTransport transport(device);
    driver::Runner runner(transport, driver::RunnerOptions{.deviceTime = true});
    runner.open();
    const driver::RunResult result = runner.run(plan, driver::randomInputs(plan, 1), 2);
    runner.close();
    ASSERT_TRUE(result.ok()) << model << ": " << *result.error;
    const std::vector<sim::RunDeviceTime> times = device.runTimes();
    ASSERT_EQ(times.size(), result.runs.size()) << model;
    const sim::UsbLinkParameters link = sim::usbLinkParameters(speed);
    for (size_t i = 0; i < times.size(); ++i) {
      const sim::RunDeviceTime& t = times[i];
      const std::string what = path.filename().string() + " run " + std::to_string(i);
      ASSERT_TRUE(parameterBytes.contains(result.runs[i].executable)) << what;
      EXPECT_EQ(t.parameterBytes.value(), parameterBytes[result.runs[i].executable]) << what;
      const double hidden = std::min(t.computeTime.value(), static_cast<double>(t.parameterBytes.value()) / link.bulkOutRate.value());
      EXPECT_NEAR(t.overlapTime.value(), hidden, 1e-12) << what;
      EXPECT_NEAR(t.totalTime.value(), t.computeTime.value() + t.usbTime.value() + t.idleTime.value() - hidden, 1e-12) << what;
      const bool steady = result.runs[i].iteration == 1 && result.runs[i].type != driver::ExecutableType::ParameterCaching;
      if (steady && t.overlapTime.value() > 0) ++steadyRunsWithOverlap;
    }
  }
  EXPECT_GT(steadyRunsWithOverlap, 0u) << "no reference streams parameters every inference: the overlap is untested";
  std::printf("  %zu steady-state runs hide compute under their parameter stream\n", steadyRunsWithOverlap);
}

}  // namespace
}  // namespace coralsim::device_time_trace_test
