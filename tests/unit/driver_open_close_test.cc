// The open and close register sequences against docs/usb-protocol.md §5.3 / §5.4, step by step:
// the tables in the document are the oracle (transcribed below, with the values the fake device —
// a model of the §5.2 power-state rule and the §5.3 power-on values — returns), plus the usbmon
// operation counts of §5.5 measured on real hardware.
#include <gtest/gtest.h>

#include <chrono>

#include "driver/run/open_close_sequence.h"
#include "driver/transport/register_poll.h"
#include "driver/run/runner.h"
#include "tests/unit/fake_coral.h"

namespace coralsim::driver::driver_open_close_test {
namespace {

using testing::FakeCoral;
using Op = FakeCoral::ControlOp;

Op r32(uint32_t a, uint64_t v) { return {'R', 32, a, v}; }
Op w32(uint32_t a, uint64_t v) { return {'W', 32, a, v}; }
Op r64(uint32_t a, uint64_t v) { return {'R', 64, a, v}; }
Op w64(uint32_t a, uint64_t v) { return {'W', 64, a, v}; }

// §5.3 with the chip in reset at power-on (steps 3a and 4a..4d skipped, as on real hardware).
std::vector<Op> expectedFirstOpen() {
  std::vector<Op> s = {
      r32(0x1A30C, 0x000F0959), w32(0x1A30C, 0x000F0059),  // 1, 2
      r32(0x1A314, 0x00190000),                            // 3
      r32(0x1A318, 0x00C5025C),                            // 4: force_sleep == 3 -> skip 4a..4d
      r32(0x1A318, 0x00C5025C), w32(0x1A318, 0x0085025C),  // 5, 6 (Max clocks)
      r32(0x1A318, 0x00850004),                            // 7
      r64(0x44018, 0),                                     // 8
      w64(0x4A000, 1), w64(0x48788, 0x7F), r64(0x48788, 0x7F), w64(0x40020, 0x1E02),  // 9..12
      r32(0x1A314, 0x00190000), w32(0x1A314, 0x00150000),  // 13
      r32(0x1A000, 0x00000001),                            // 14
      w64(0x4C148, 0xF0), w64(0x4C160, 0), w64(0x4C058, 0x80),  // 15..17
      w64(0x44018, 1), w64(0x44158, 1), w64(0x44198, 1), w64(0x441D8, 1), w64(0x44218, 1),  // 18..22
      w64(0x48788, 0x7F), r64(0x48788, 0x7F),              // 23, 24
  };
  for (uint32_t a : {0x400C0, 0x40150, 0x40110, 0x40250, 0x40298, 0x402E0, 0x40328, 0x40190, 0x401D0, 0x40210}) {
    s.push_back(w64(a, 1));  // 25..34
  }
  s.push_back(w64(0x4C060, 1));  // 35
  for (uint32_t a : {0x4C070, 0x4C080, 0x4C090, 0x4C0A0}) s.push_back(w64(a, 1));  // 36..39
  for (const Op& op : {r32(0x1A0D4, 0x00000001), w32(0x1A0D4, 0x80000001),           // 40, 41
                       r32(0x1A704, 0x0070007F), w32(0x1A704, 0x0000007F),           // 42, 43
                       r32(0x1A33C, 0x000C003F), w32(0x1A33C, 0x0000003F),           // 44, 45
                       w32(0x1A500, 1), w32(0x1A600, 1), w32(0x1A558, 3), w32(0x1A658, 3),  // 46..49
                       r32(0x1A0D8, 0), w32(0x1A0D8, 0x80000000)}) {                 // 50, 51
    s.push_back(op);
  }
  return s;
}

// §5.4 after that open.
std::vector<Op> expectedClose() {
  std::vector<Op> s;
  for (uint32_t a : {0x4C070, 0x4C080, 0x4C090, 0x4C0A0}) s.push_back(w64(a, 0));  // 1..4
  for (const Op& op : {r32(0x1A0D4, 0x80000001), w32(0x1A0D4, 0x00000001),        // 5, 6
                       r32(0x1A704, 0x0000007F), w32(0x1A704, 0x0070007F),        // 7, 8
                       r32(0x1A33C, 0x0000003F), w32(0x1A33C, 0x000C003F),        // 9, 10
                       w32(0x1A500, 0), w32(0x1A600, 0), w32(0x1A558, 0), w32(0x1A658, 0),  // 11..14
                       r32(0x1A0D8, 0x80000000), w32(0x1A0D8, 0),                 // 15, 16
                       w64(0x4C060, 0)}) {                                        // 17
    s.push_back(op);
  }
  for (uint32_t a : {0x44018, 0x44158, 0x44198, 0x441D8, 0x44218}) s.push_back(w64(a, 2));  // 18..22
  s.push_back(w64(0x48788, 0x7F));  // 23
  s.push_back(r64(0x48788, 0x7F));  // 24
  for (uint32_t a : {0x400C0, 0x40150, 0x40110, 0x40250, 0x40298, 0x402E0, 0x40328, 0x40190, 0x401D0, 0x40210}) {
    s.push_back(w64(a, 2));  // 25..34
  }
  s.push_back(r32(0x1A318, 0x00850004));  // 35: force_sleep 2 -> continue
  s.push_back(w32(0x1A318, 0x00C50004));  // 36: force_sleep = 3
  s.push_back(r32(0x1A318, 0x00C5025C));  // 37: cur_pwr_state == 2
  s.push_back(w32(0x1907C, 0xF));         // 38
  s.push_back(w32(0x1907C, 0));           // 39
  return s;
}

struct Counts {
  int r32 = 0, r64 = 0, w32 = 0, w64 = 0;
};
Counts count(const std::vector<Op>& ops) {
  Counts c;
  for (const Op& op : ops) {
    if (op.op == 'R') (op.width == 32 ? c.r32 : c.r64)++;
    else (op.width == 32 ? c.w32 : c.w64)++;
  }
  return c;
}

std::string show(const Op& op) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%c%d 0x%05x 0x%llx", op.op, op.width, op.address,
                static_cast<unsigned long long>(op.value));
  return buf;
}

void expectSequence(const std::vector<Op>& actual, const std::vector<Op>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(actual[i], expected[i]) << "operation " << i << ": got " << show(actual[i]) << ", table says "
                                      << show(expected[i]);
  }
}

TEST(OpenCloseSequence, FirstOpenMatchesTheLibedgetpuTableStepForStep) {
  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  expectSequence(dev.controlLog, expectedFirstOpen());
}

TEST(OpenCloseSequence, OpenAndCloseReproduceTheRealHardwareUsbmonCounts) {
  // §5.5: pre-loop read32 = 11, read64 = 3, write32 = 11, write64 = 27; post-loop 6 / 1 / 11 / 21.
  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  const Counts open = count(dev.controlLog);
  EXPECT_EQ(open.r32, 11);
  EXPECT_EQ(open.r64, 3);
  EXPECT_EQ(open.w32, 11);
  EXPECT_EQ(open.w64, 27);
  dev.clearLogs();
  runner.close();
  const Counts close = count(dev.controlLog);
  EXPECT_EQ(close.r32, 6);
  EXPECT_EQ(close.r64, 1);
  EXPECT_EQ(close.w32, 11);
  EXPECT_EQ(close.w64, 21);
}

TEST(OpenCloseSequence, CloseMatchesTheTableAndCancelsUrbsFirst) {
  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  dev.clearLogs();
  runner.close();
  EXPECT_EQ(dev.cancelCalls, 1);  // step 0
  expectSequence(dev.controlLog, expectedClose());
  EXPECT_FALSE(runner.isOpen());
}

TEST(OpenCloseSequence, ReopenTurnsHardwareClockGatingOffFirst) {
  // A previous session left gated_gcb = 1: step 3a writes gated_gcb = 2 (0x00150000 -> 0x00190000).
  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  runner.close();
  dev.clearLogs();
  runner.open();
  ASSERT_GE(dev.controlLog.size(), 4u);
  EXPECT_EQ(dev.controlLog[2], r32(0x1A314, 0x00150000));
  EXPECT_EQ(dev.controlLog[3], w32(0x1A314, 0x00190000));
  // ... and the boot failure mask the close set is cleared again (scu_ctr_7 0xC003F -> 0x3F).
  bool sawCtr7 = false;
  for (const Op& op : dev.controlLog) sawCtr7 = sawCtr7 || op == w32(0x1A33C, 0x0000003F);
  EXPECT_TRUE(sawCtr7);
}

TEST(OpenCloseSequence, OpenPutsARunningChipIntoResetFirst) {
  // LR leaves the chip running (force_sleep 2): EnableReset runs steps 4a..4d.
  FakeCoral dev;
  dev.setReg(0x1A318, 0x00850000);
  dev.setReg(0x44018, 1);
  Runner runner(dev);
  runner.open();
  const auto& log = dev.controlLog;
  ASSERT_GE(log.size(), 9u);
  EXPECT_EQ(log[3], r32(0x1A318, 0x00850004));  // 4
  EXPECT_EQ(log[4], w32(0x1A318, 0x00C50004));  // 4a
  EXPECT_EQ(log[5], r32(0x1A318, 0x00C5025C));  // 4b
  EXPECT_EQ(log[6], w32(0x1907C, 0xF));         // 4c
  EXPECT_EQ(log[7], w32(0x1907C, 0));           // 4d
  EXPECT_EQ(log[8], r32(0x1A318, 0x00C5025C));  // 5
  EXPECT_TRUE(runner.isOpen());
}

TEST(OpenCloseSequence, HighSpeedLinkAndEventServiceChangeTheirRegisters) {
  struct SlowLink : FakeCoral {
    usb::UsbSpeed linkSpeed() const override { return usb::UsbSpeed::kHigh; }
  } dev;
  RunnerOptions o;
  o.service = ServiceMode::kEvents;
  o.performance = ClockPerformance::kHigh;
  Runner runner(dev, o);
  runner.open();
  EXPECT_EQ(dev.reg(0x4C058), 0x20u);  // outfeed_chunk_length: 256-byte chunks
  EXPECT_EQ(dev.reg(0x4C148), 0xFFu);  // descr_ep: every descriptor
  bool sawQuitReset = false;
  for (const Op& op : dev.controlLog) sawQuitReset = sawQuitReset || op == w32(0x1A318, 0x5085025C);
  EXPECT_TRUE(sawQuitReset) << "QuitReset with the High clock bits (§5.2: 0x5085025C)";
}

TEST(OpenCloseSequence, APollThatNeverSucceedsTimesOutNamingTheRegister) {
  FakeCoral dev;
  dev.stuck[0x48788] = 0;  // tileconfig0 never reads back
  RunnerOptions o;
  o.pollTimeout = std::chrono::milliseconds(30);
  Runner runner(dev, o);
  try {
    runner.open();
    FAIL() << "open() should have timed out";
  } catch (const PollTimeoutError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("tileconfig0"), std::string::npos) << what;
    EXPECT_NE(what.find("0x7f"), std::string::npos) << what;
    EXPECT_NE(what.find("30 ms"), std::string::npos) << what;
  }
  EXPECT_FALSE(runner.isOpen());
}

// The clock option of `run --clock-mhz` and libedgetpu picks the fastest setting not above the
// clock (500 / 250 / 125 / 63 MHz); below 125 MHz it is the lowest.
TEST(OpenCloseSequence, ClockPerformanceIsTheFastestSettingNotAboveTheClock) {
  EXPECT_EQ(clockPerformanceForMhz(10'000), ClockPerformance::kMax);
  EXPECT_EQ(clockPerformanceForMhz(500), ClockPerformance::kMax);
  EXPECT_EQ(clockPerformanceForMhz(499), ClockPerformance::kHigh);
  EXPECT_EQ(clockPerformanceForMhz(250), ClockPerformance::kHigh);
  EXPECT_EQ(clockPerformanceForMhz(249), ClockPerformance::kMedium);
  EXPECT_EQ(clockPerformanceForMhz(125), ClockPerformance::kMedium);
  EXPECT_EQ(clockPerformanceForMhz(124), ClockPerformance::kLow);
  EXPECT_EQ(clockPerformanceForMhz(63), ClockPerformance::kLow);
  EXPECT_EQ(clockPerformanceForMhz(1), ClockPerformance::kLow);
}

}  // namespace
}  // namespace coralsim::driver::driver_open_close_test
