// InProcessTransport against a real sim::Device: CSR access, the idle-time limit with URB
// cancellation (time spent simulating does not count), and a whole run of the embedded demo program (models/isa/demo/sum_loop.s) whose
// completion descriptor is stated in its own source: {address 0x400, length 55 = 1 + ... + 10, tag 4}.
#include <gtest/gtest.h>

#include <chrono>
#include <string_view>

#include "hosting/in_process_transport.h"
#include "driver/run/open_close_sequence.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "models/isa/assembler.h"
#include "models/isa/demo/demo_program.h"
#include "sim/device.h"

namespace coralsim::driver::driver_in_process_test {
namespace {

RunPlan demoPlan(ModelFile& holder) {
  holder.kind = ModelKind::RawBitstream;
  holder.path = std::string(isa::demoProgramName());
  InstructionBitstream chunk;
  chunk.bytes = isa::bytesFromWords(isa::assemble(isa::demoProgramText(), isa::demoProgramName()).words);
  holder.rawBitstream = chunk;
  return planRun(holder);
}

TEST(InProcessTransport, ReadsTheChipInResetAtPowerOn) {
  sim::Device device;
  InProcessTransport t(device);
  const uint32_t scu3 = t.read32(0x1A318);
  EXPECT_EQ((scu3 >> scu_ctrl_3::kForceSleepShift) & 3, scu_ctrl_3::kForceSleepReset);
  EXPECT_EQ((scu3 >> scu_ctrl_3::kCurPwrStateShift) & 3, scu_ctrl_3::kPwrStateReset);
  EXPECT_EQ(t.name(), "in-process");
}

TEST(InProcessTransport, ATransferThatNeverCompletesTimesOutAndIsCancelled) {
  sim::Device device;
  InProcessTransport t(device, std::chrono::milliseconds(50));
  const auto start = std::chrono::steady_clock::now();
  try {
    (void)t.bulkIn(0x82, 16);
    FAIL() << "no event can arrive: nothing runs";
  } catch (const TransportError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("EP 0x82"), std::string::npos) << what;
    EXPECT_NE(what.find("timed out after 50 ms"), std::string::npos) << what;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));

  // Had the timed-out URB stayed posted it would swallow the demo's completion event and this run
  // would hang: it must have been cancelled.
  t.setTimeout(InProcessTransport::kDefaultTimeout);
  Runner runner(t, RunnerOptions{ServiceMode::kEvents});
  runner.open();
  ModelFile holder;
  const RunResult r = runner.run(demoPlan(holder), {});
  ASSERT_TRUE(r.ok()) << *r.error;
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_TRUE(r.runs[0].completed);
}

// A scalar loop of 4 M iterations (12.6 M cycles): its event arrives after far more than 20 ms of
// wall time on any host (0.28 s on the 2-core machine of 2026-11), all of it simulation. Before the
// limit counted idle time only, a 20 ms limit failed this run; a transfer nothing will answer
// still times out (ATransferThatNeverCompletesTimesOutAndIsCancelled).
TEST(InProcessTransport, TimeTheHostSpendsSimulatingDoesNotCountAgainstTheTransferLimit) {
  constexpr std::string_view kLongLoop = R"(program {
        s0 = mov 0x0
again:  s0 = add s0, 0x1
        p0 = lt s0, 0x400000
        (p0) br again
        s6 = mov 0x400
        s7 = mov 0x0 ; desc[0] = s6
        desc[1] = s7
        desc[2] = s7
        s5 = mov 0x4
        desc[3] = s5
        push
})";
  ModelFile holder;
  holder.kind = ModelKind::RawBitstream;
  holder.path = "long_loop.s";
  InstructionBitstream chunk;
  chunk.bytes = isa::bytesFromWords(isa::assemble(kLongLoop, holder.path).words);
  holder.rawBitstream = chunk;
  sim::Device device;
  InProcessTransport t(device, std::chrono::milliseconds(20));
  Runner runner(t, RunnerOptions{ServiceMode::kEvents});
  runner.open();
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = runner.run(planRun(holder), {});
  const auto took = std::chrono::steady_clock::now() - start;
  runner.close();
  ASSERT_TRUE(r.ok()) << *r.error;
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_TRUE(r.runs[0].completed);
  ASSERT_TRUE(r.runs[0].cycles.has_value());
  EXPECT_GT(*r.runs[0].cycles, 12'000'000u);
  // The premise: the run took longer than the limit (else the test proves nothing).
  EXPECT_GT(took, std::chrono::milliseconds(20)) << "the loop ran faster than the limit; lengthen it";
}

TEST(InProcessTransport, DemoProgramRunsInBothServiceModesWithIntrospection) {
  for (ServiceMode mode : {ServiceMode::kHints, ServiceMode::kEvents}) {
    sim::Device device;
    InProcessTransport t(device);
    RunnerOptions o;
    o.service = mode;
    Runner runner(t, o);
    runner.open();
    ModelFile holder;
    const RunResult r = runner.run(demoPlan(holder), {});
    runner.close();
    ASSERT_TRUE(r.ok()) << *r.error;
    ASSERT_EQ(r.runs.size(), 1u);
    const ExecutableRunRecord& run = r.runs[0];
    EXPECT_EQ(run.service, ServiceMode::kEvents);  // a raw program has no hints
    ASSERT_EQ(run.descriptors.size(), 1u);
    EXPECT_EQ(run.descriptors[0].descriptor, (DeviceDescriptor{4, 0x400, 55}));
    ASSERT_TRUE(run.cycles.has_value());
    EXPECT_GT(*run.cycles, 0u);
    // auto: the demo is scalar-only (no tile packet, no output window), so the lle rung follows
    // the whole run and is the rung the device reports (models/chip/datapath.h).
    EXPECT_EQ(r.executionMode, "lle");
    ASSERT_NE(t.introspection(), nullptr);
    const auto log = t.introspection()->descriptorLog();
    ASSERT_FALSE(log.empty());
    EXPECT_EQ(log.back(), (DeviceDescriptor{4, 0x400, 55}));
  }
}

}  // namespace
}  // namespace coralsim::driver::driver_in_process_test
