// The Device's two USB personalities wired through UsbFunction (docs/usb-protocol.md §1.3-1.5,
// §10.5 items 7-9): power-on in the DFU bootloader, the download, the switch on re-enumeration
// (the kernel's GET_DESCRIPTOR(DEVICE) with wLength != 18, or an explicit bus reset), the bridge
// flush that comes with it, DFU_DETACH back to the bootloader — driven through the Device API and
// through the host driver's own DFU download (driver/transport/dfu_download.h over the in-process transport).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/transport/dfu_download.h"
#include "hosting/in_process_transport.h"
#include "driver/run/open_close_sequence.h"
#include "tests/unit/device_harness.h"
#include "traces/sha256.h"

namespace coralsim::testing::device_personality_test {
namespace {

sim::DeviceOptions bootloader() {
  sim::DeviceOptions o;
  o.startInBootloader = true;
  return o;
}

uint16_t productId(sim::Device& d) {
  const usb::UrbResult r = d.control({0x80, 6, 0x0100, 0, 18});
  EXPECT_EQ(r.status, usb::UrbStatus::kOk);
  EXPECT_EQ(r.data.size(), 18u);
  return r.data.size() >= 12 ? static_cast<uint16_t>(r.data[10] | r.data[11] << 8) : 0;
}

std::vector<uint8_t> image(size_t n) {
  std::vector<uint8_t> b(n);
  for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(i * 7 + 3);
  return b;
}

TEST(DevicePersonality, PowersOnInTheBootloaderWithNoCsrsAndNoEndpoints) {
  DeviceHarness h(bootloader());
  EXPECT_EQ(h.device.personality(), usb::CoralPersonality::kBootloader);
  EXPECT_EQ(productId(h.device), 0x089A);
  const usb::UrbResult config = h.device.control({0x80, 6, 0x0200, 0, 521});
  ASSERT_EQ(config.status, usb::UrbStatus::kOk);
  EXPECT_EQ(config.data.size(), 27u) << "9 + 9 + 9: configuration, DFU interface, functional (§1.3)";
  EXPECT_EQ(h.device.control({0xC0, 1, 0xA318, 0x0001, 4}).status, usb::UrbStatus::kStall) << "no CSRs in the ROM";
  auto in = h.in(0x82, 16, 2s);
  ASSERT_TRUE(in);
  EXPECT_EQ(in->status, usb::UrbStatus::kStall);
  PendingUrb out = h.submitOut(record(0, std::vector<uint8_t>(16, 0)));
  ASSERT_TRUE(out.wait->waitFor(2s));
  EXPECT_EQ(out.wait->result().status, usb::UrbStatus::kStall);
  EXPECT_FALSE(h.device.loadedFirmware());
}

TEST(DevicePersonality, HostDfuDownloadOverTheInProcessTransportReachesTheRuntime) {
  DeviceHarness h(bootloader());
  driver::InProcessTransport transport(h.device, 2000ms);
  const std::vector<uint8_t> firmware = image(10'783);
  const driver::DfuDownloadResult r = driver::downloadFirmware(transport, firmware);
  EXPECT_EQ(r.dataBlocks, 43u);
  EXPECT_TRUE(r.verified);
  ASSERT_TRUE(r.afterReset);
  EXPECT_EQ(r.afterReset->personality, usb::CoralPersonality::kRuntime);
  EXPECT_EQ(h.device.personality(), usb::CoralPersonality::kRuntime);
  const auto loaded = h.device.loadedFirmware();
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->size, firmware.size());
  EXPECT_EQ(loaded->sha256, traces::Sha256::hex(firmware));
  // The runtime answers the register-level open and close sequences (§5.3, §5.4).
  EXPECT_NO_THROW(driver::openChip(transport, driver::OpenOptions{}));
  EXPECT_NO_THROW(driver::closeChip(transport, 2000ms));
}

TEST(DevicePersonality, SwitchHappensOnTheKernelsEnumerationNotBefore) {
  DeviceHarness h(bootloader());
  driver::InProcessTransport transport(h.device, 2000ms);
  driver::DfuDownloadOptions noReset;
  noReset.resetAfter = false;
  (void)driver::downloadFirmware(transport, image(1000), noReset);
  EXPECT_EQ(productId(h.device), 0x089A) << "user space's wLength 18 is not a reset";
  const usb::UrbResult first = h.device.control({0x80, 6, 0x0100, 0, 8});  // SuperSpeed kernel, §10.5 item 7
  ASSERT_EQ(first.data.size(), 8u);
  EXPECT_EQ(h.device.personality(), usb::CoralPersonality::kRuntime);
  EXPECT_EQ(productId(h.device), 0x9302);
  EXPECT_EQ(h.device.control({0xC0, 1, 0xA318, 0x0001, 4}).status, usb::UrbStatus::kOk) << "CSRs after the switch";
}

TEST(DevicePersonality, EnumerationFlushesTheBridgeLikeABusReset) {
  DeviceHarness h;
  PendingUrb event = h.submitIn(0x82, 16);
  EXPECT_FALSE(event.wait->waitFor(100ms));
  (void)h.device.control({0x80, 6, 0x0100, 0, 64});  // USB 2 kernel enumeration
  ASSERT_TRUE(event.wait->waitFor(2s)) << "a pending URB must be given back at a reset";
  EXPECT_EQ(event.wait->result().status, usb::UrbStatus::kShutdown);
  EXPECT_EQ(h.device.personality(), usb::CoralPersonality::kRuntime) << "nothing armed: no switch";
}

TEST(DevicePersonality, DetachThenBusResetReturnsToTheBootloader) {
  DeviceHarness h;
  EXPECT_EQ(h.device.control({0x21, 0, 100, 0, 0}).status, usb::UrbStatus::kOk);  // DFU_DETACH
  EXPECT_EQ(h.device.personality(), usb::CoralPersonality::kRuntime) << "armed, not switched";
  h.device.busReset();
  EXPECT_EQ(h.device.personality(), usb::CoralPersonality::kBootloader);
  EXPECT_EQ(productId(h.device), 0x089A);
}

TEST(DevicePersonality, AlwaysDfuDetachesARuntimeDeviceAndFlashesIt) {
  DeviceHarness h;
  driver::InProcessTransport transport(h.device, 2000ms);
  driver::detachToBootloader(transport, 1000ms);
  EXPECT_EQ(h.device.personality(), usb::CoralPersonality::kBootloader);
  const driver::DfuDownloadResult r = driver::downloadFirmware(transport, image(600));
  ASSERT_TRUE(r.afterReset);
  EXPECT_EQ(h.device.personality(), usb::CoralPersonality::kRuntime);
}

TEST(DevicePersonality, DfuDownloadRefusedByARuntimeDevice) {
  DeviceHarness h;
  driver::InProcessTransport transport(h.device, 2000ms);
  try {
    (void)driver::downloadFirmware(transport, image(100));
    ADD_FAILURE() << "a runtime device took a download";
  } catch (const driver::DfuError& e) {
    EXPECT_NE(std::string(e.what()).find("18d1:9302"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace coralsim::testing::device_personality_test
