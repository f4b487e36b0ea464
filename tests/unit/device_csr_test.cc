// EP0 of the emulated device: the CSR transport of docs/usb-protocol.md §2, every CSR side effect
// of §5 and the libedgetpu open/close sequences (§5.3-§5.5), driven through sim::Device only.
#include <gtest/gtest.h>

#include "tests/unit/device_harness.h"

namespace coralsim::testing::device_csr_test {
namespace {

// §5.5: libedgetpu's open is R32 11 / R64 3 / W32 11 / W64 27 and its close 6 / 1 / 11 / 21 on
// real hardware, which proves every poll is satisfied by its first read.
TEST(DeviceCsr, LibedgetpuOpenSequenceCountsAndFirstReadPolls) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  EXPECT_EQ(h.counts.r32, 11);
  EXPECT_EQ(h.counts.r64, 3);
  EXPECT_EQ(h.counts.w32, 11);
  EXPECT_EQ(h.counts.w64, 27);
  ASSERT_EQ(h.pollReads.size(), 4u);  // quit-reset state, run control, tileconfig0 twice
  for (int reads : h.pollReads) EXPECT_EQ(reads, 1);
  // The values real hardware shows after the sequence (§5.2, §5.3).
  EXPECT_EQ(h.read32(csr::scu_ctrl_0), 0x000F0059u);
  EXPECT_EQ(h.read32(csr::scu_ctrl_3), 0x00850004u);
  EXPECT_EQ(h.read32(csr::scu_ctrl_2), 0x00150000u);
  EXPECT_EQ(h.read32(csr::omc0_d4), 0x80000001u);
  EXPECT_EQ(h.read32(csr::rambist_ctrl_1), 0x0000007Fu);
  EXPECT_EQ(h.read32(csr::scu_ctr_7), 0x0000003Fu);
  EXPECT_EQ(h.read32(csr::omc0_d8), 0x80000000u);
  EXPECT_EQ(h.read64(csr::hib_error_status), 0u);
}

TEST(DeviceCsr, LibedgetpuCloseSequenceCountsAndReopen) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.counts = {};
  h.pollReads.clear();
  h.closeLikeLibedgetpu();
  EXPECT_EQ(h.counts.r32, 6);
  EXPECT_EQ(h.counts.r64, 1);
  EXPECT_EQ(h.counts.w32, 11);
  EXPECT_EQ(h.counts.w64, 21);
  for (int reads : h.pollReads) EXPECT_EQ(reads, 1);
  EXPECT_EQ(h.read32(csr::scu_ctr_7), 0x000C003Fu);
  // The next session finds gating on (so it disables it first) and the chip in reset with every
  // run control back to 0, as on hardware.
  h.counts = {};
  h.pollReads.clear();
  h.openLikeLibedgetpu();
  EXPECT_EQ(h.counts.w32, 12) << "one extra write: DisableHardwareClockGate";
  for (int reads : h.pollReads) EXPECT_EQ(reads, 1);
}

// libredgetpu never closes: the next open forces sleep from the Run state (§5.6).
TEST(DeviceCsr, SleepFromRunResetsRunControls) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  EXPECT_EQ(h.read64(csr::scalarCoreRunControl), 1u);
  EXPECT_EQ(h.read64(csr::infeedRunControl), 1u);
  EXPECT_EQ(h.read64(csr::opRunControl), 1u);
  const uint32_t scu3 = h.read32(csr::scu_ctrl_3);
  h.write32(csr::scu_ctrl_3, static_cast<uint32_t>(withField(scu3, 22, 2, 3)));
  // Status follows at once: cur_pwr_state 2, bits 2,3,4,6 (0x...25C).
  EXPECT_EQ(h.read32(csr::scu_ctrl_3) & 0x3FFu, 0x25Cu);
  for (uint32_t a : kScalarRunControls) EXPECT_EQ(h.read64(a), 0u) << std::hex << a;
  h.write64(csr::tileconfig0, 0x7F);
  for (uint32_t a : kTileRunControls) EXPECT_EQ(h.read64(a), 0u) << std::hex << a;
  EXPECT_EQ(h.read64(csr::scalarCoreRunStatus), 0u);
  // Registers outside the GCB keep their values.
  EXPECT_EQ(h.read64(csr::descr_ep), 0xF0u);
  EXPECT_EQ(h.read32(csr::omc0_d4), 0x80000001u);
}

TEST(DeviceCsr, PowerStatusFollowsForceSleepImmediately) {
  DeviceHarness h;
  EXPECT_EQ(h.read32(csr::scu_ctrl_3), 0x00C5025Cu) << "the chip is in reset when a driver opens it";
  h.write32(csr::scu_ctrl_3, 0x5085025C);  // edgetpuxray writes the High-speed value blindly
  EXPECT_EQ(h.read32(csr::scu_ctrl_3), 0x50850004u);
  h.write32(csr::scu_ctrl_3, 0x60C50004);  // coral-usb-oxidized's sleep write
  EXPECT_EQ(h.read32(csr::scu_ctrl_3), 0x60C5025Cu);
  h.write32(csr::scu_ctrl_3, 0x0085025C);
  EXPECT_EQ(h.read32(csr::scu_ctrl_3), 0x00850004u);
}

TEST(DeviceCsr, EnteringSleepFlushesQueuedEvents) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.sendProgram("program {\n s1 = mov 0x4\n desc[3] = s1\n push\n push\n}\n");  // two tag-4 events
  auto first = h.event();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->tag, 4);
  // The second one waits in the event FIFO; a GCB reset must drop it (libedgetpu would otherwise
  // see a stale event of a previous session).
  h.write32(csr::scu_ctrl_3, 0x00C50004);
  EXPECT_FALSE(h.event(300ms));
}

TEST(DeviceCsr, TileconfigReadsBackAndSelectsTheTileWindow) {
  DeviceHarness h;
  for (uint64_t v : {0x7Full, 0x5ull, 0x0ull, 0x7Full}) {
    h.write64(csr::tileconfig0, v);
    EXPECT_EQ(h.read64(csr::tileconfig0), v);
  }
  h.write64(csr::tileconfig1, 0x3);
  EXPECT_EQ(h.read64(csr::tileconfig1), 0x3u);
  h.write64(csr::opRunControl, 1);  // broadcast to every tile
  h.write64(csr::tileconfig0, 3);
  EXPECT_EQ(h.read64(csr::opRunControl), 1u);
  h.write64(csr::opRunControl, 2);  // tile 3 only
  EXPECT_EQ(h.read64(csr::opRunControl), 2u);
  h.write64(csr::tileconfig0, 4);
  EXPECT_EQ(h.read64(csr::opRunControl), 1u);
}

TEST(DeviceCsr, WidthRulesThroughEp0) {
  DeviceHarness h;
  h.write64(csr::descr_ep, 0xAB000000F0ull);
  EXPECT_EQ(h.read32(csr::descr_ep), 0xF0u) << "32-bit access to a 64-bit register: low half";
  EXPECT_EQ(h.read64(csr::scu_ctrl_0), 0x000F0959u) << "64-bit access to a 32-bit register: zero-extended";
  h.write64(0x4ABC8, 0x1122334455667788ull);  // unknown address: plain storage
  EXPECT_EQ(h.read64(0x4ABC8), 0x1122334455667788ull);
  EXPECT_EQ(h.read64(0x4ABD0), 0u);
  h.write32(0x1ABCC, 0xCAFE);
  EXPECT_EQ(h.read32(0x1ABCC), 0xCAFEu);
}

TEST(DeviceCsr, Ep0NeverStallsAndAnswersExactLengths) {
  DeviceHarness h;
  // A read returns exactly wLength bytes, whatever the width asked for.
  usb::ControlSetup odd{0xC0, 0, 0x0018, 0x0004, 2};
  EXPECT_EQ(h.device.control(odd).data.size(), 2u);
  // A vendor request no driver uses: no STALL.
  usb::ControlSetup unknown{0xC0, 7, 0, 0, 4};
  usb::UrbResult r = h.device.control(unknown);
  EXPECT_EQ(r.status, usb::UrbStatus::kOk);
  EXPECT_EQ(r.data.size(), 4u);
  // A data stage that does not match wLength is malformed.
  const uint8_t three[3] = {1, 2, 3};
  EXPECT_EQ(h.device.control(usb::ControlSetup{0x40, 1, 0x0000, 0x0004, 4}, three).status, usb::UrbStatus::kInvalid);
}

TEST(DeviceCsr, StandardRequests) {
  DeviceHarness h;
  usb::UrbResult dev = h.device.control(usb::ControlSetup{0x80, 6, 0x0100, 0, 18});
  ASSERT_EQ(dev.data.size(), 18u);
  EXPECT_EQ(dev.data[8] | dev.data[9] << 8, 0x18D1);  // idVendor (§1.1)
  EXPECT_EQ(dev.data[10] | dev.data[11] << 8, 0x9302);   // idProduct
  EXPECT_EQ(dev.data[7], 9) << "bMaxPacketSize0 = 2^9 on SuperSpeed";
  EXPECT_EQ(h.device.control(usb::ControlSetup{0x80, 6, 0x0100, 0, 8}).data.size(), 8u);
  usb::UrbResult config = h.device.control(usb::ControlSetup{0x80, 6, 0x0200, 0, 512});
  ASSERT_GE(config.data.size(), 4u);
  EXPECT_EQ(config.data.size(), 96u) << "9 + 9 + 6 x (7 + 6) (§1.1)";
  EXPECT_EQ(config.data[2] | config.data[3] << 8, 96);
  EXPECT_EQ(h.device.control(usb::ControlSetup{0x80, 6, 0x0F00, 0, 0xFF}).data.size(), 22u) << "BOS";
  EXPECT_EQ(h.device.control(usb::ControlSetup{0x00, 9, 1, 0, 0}).status, usb::UrbStatus::kOk);
  usb::UrbResult cfg = h.device.control(usb::ControlSetup{0x80, 8, 0, 0, 1});
  ASSERT_EQ(cfg.data.size(), 1u);
  EXPECT_EQ(cfg.data[0], 1);
  EXPECT_EQ(h.device.control(usb::ControlSetup{0x80, 0, 0, 0, 2}).data, (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(h.device.control(usb::ControlSetup{0x00, 0x31, 0x28, 0, 0}).status, usb::UrbStatus::kOk);  // ISOCH_DELAY
  EXPECT_EQ(h.device.control(usb::ControlSetup{0x21, 0, 100, 0, 0}).status, usb::UrbStatus::kOk);     // DFU_DETACH

  sim::DeviceOptions high;
  high.speed = usb::UsbSpeed::kHigh;
  DeviceHarness hs(high);
  usb::UrbResult hsConfig = hs.device.control(usb::ControlSetup{0x80, 6, 0x0200, 0, 512});
  EXPECT_EQ(hsConfig.data.size(), 60u) << "9 + 9 + 6 x 7 (§1.2)";
}

TEST(DeviceCsr, EpStatusCreditReportsFreeSpace) {
  sim::DeviceOptions o;
  o.chip.inputBufferBytes = 1024;
  DeviceHarness h(o);
  const uint64_t credit = h.read64(csr::ep_status_credit);
  EXPECT_EQ(field(credit, 21, 21), 1024u / 8);
  EXPECT_EQ(field(credit, 42, 21), o.chip.parameterBufferBytes / 8);
}

TEST(DeviceCsr, ExecutionModeInEffect) {
  DeviceHarness h;
  EXPECT_EQ(h.device.executionMode(), models::ExecutionMode::kAuto);
  // hle without a registered program cannot compute anything: refused up front, not per run.
  sim::DeviceOptions hle;
  hle.chip.mode = models::ExecutionMode::kHle;
  EXPECT_THROW(sim::Device{hle}, std::invalid_argument);
  sim::DeviceOptions tiles;
  tiles.chip.tilesX = 2;
  EXPECT_THROW(sim::Device{tiles}, std::invalid_argument);
  // A refused configuration must not leak its slot: more devices than slots can be made in turn.
  for (int i = 0; i < 20; ++i) DeviceHarness again;
}

}  // namespace
}  // namespace coralsim::testing::device_csr_test
