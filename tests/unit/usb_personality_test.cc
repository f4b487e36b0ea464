// UsbPersonality: standard requests, the DFU path in the bootloader, and the personality switch on
// the kernel's re-enumeration (docs/usb-protocol.md §1.5, §10.5 items 7-9), replayed as the
// request sequences the Linux kernel and libedgetpu send.
#include <gtest/gtest.h>

#include <vector>

#include "sim/usb_personality.h"

namespace coralsim::sim::usb_personality_test {
namespace {

using Bytes = std::vector<uint8_t>;

usb::ControlSetup getDescriptor(uint8_t type, uint16_t length) {
  return {0x80, 6, static_cast<uint16_t>(type << 8), 0, length};
}

ControlOutcome request(UsbPersonality& p, const usb::ControlSetup& s, std::span<const uint8_t> data = {}) {
  auto o = p.handle(s, data);
  EXPECT_TRUE(o.has_value());
  return o.value_or(ControlOutcome{});
}

uint16_t productId(UsbPersonality& p) {
  const ControlOutcome o = request(p, getDescriptor(descriptor_type::kDevice, 18));
  EXPECT_EQ(o.result.data.size(), 18u);
  EXPECT_FALSE(o.busReset) << "user space reads with wLength 18: not a reset";
  return static_cast<uint16_t>(o.result.data[10] | o.result.data[11] << 8);
}

// What the Linux kernel sends after a (re)set of a SuperSpeed device (§10.5 item 7).
ControlOutcome kernelEnumerates(UsbPersonality& p) {
  const ControlOutcome first = request(p, getDescriptor(descriptor_type::kDevice, 8));
  EXPECT_EQ(first.result.data.size(), 8u);
  (void)request(p, getDescriptor(descriptor_type::kDevice, 18));
  (void)request(p, getDescriptor(descriptor_type::kBos, 5));
  (void)request(p, getDescriptor(descriptor_type::kBos, 22));
  (void)request(p, getDescriptor(descriptor_type::kConfiguration, 9));
  const ControlOutcome config = request(p, getDescriptor(descriptor_type::kConfiguration, 0xFFFF));
  EXPECT_EQ(config.result.status, usb::UrbStatus::kOk);
  EXPECT_EQ(request(p, {0x00, 9, 1, 0, 0}).result.status, usb::UrbStatus::kOk);   // SET_CONFIGURATION(1)
  EXPECT_EQ(request(p, {0x00, 49, 40, 0, 0}).result.status, usb::UrbStatus::kOk);  // SET_ISOCH_DELAY
  return first;
}

void downloadFirmware(UsbPersonality& p, size_t size) {
  Bytes image(size, 0x5A);
  uint16_t block = 0;
  for (size_t at = 0; at < size; at += 256, ++block) {
    const size_t n = std::min<size_t>(256, size - at);
    ASSERT_EQ(request(p, {0x21, 1, block, 0, static_cast<uint16_t>(n)}, std::span(image).subspan(at, n)).result.status,
              usb::UrbStatus::kOk);
    EXPECT_EQ(request(p, {0xA1, 3, 0, 0, 6}).result.data, (Bytes{0, 1, 0, 0, 5, 0}));
  }
  ASSERT_EQ(request(p, {0x21, 1, block, 0, 0}).result.status, usb::UrbStatus::kOk);
  EXPECT_EQ(request(p, {0xA1, 3, 0, 0, 6}).result.data, (Bytes{0, 1, 0, 0, 2, 0}));
}

TEST(UsbPersonality, BootloaderToRuntimeOnTheKernelsReEnumeration) {
  UsbPersonality p(usb::UsbSpeed::kSuper, usb::CoralPersonality::kBootloader);
  EXPECT_TRUE(kernelEnumerates(p).busReset);  // the import's own enumeration: a reset, no switch
  EXPECT_EQ(p.personality(), usb::CoralPersonality::kBootloader);
  EXPECT_EQ(productId(p), 0x089A);

  downloadFirmware(p, 10783);
  EXPECT_EQ(p.armedSwitch(), usb::CoralPersonality::kRuntime);
  // libedgetpu verifies by UPLOAD and re-reads the device descriptor: still the bootloader.
  EXPECT_EQ(request(p, {0xA1, 2, 0, 0, 256}).result.data.size(), 256u);
  EXPECT_EQ(productId(p), 0x089A);

  // Port reset → the kernel re-enumerates: the answer to its first request is the runtime's.
  const ControlOutcome first = kernelEnumerates(p);
  EXPECT_TRUE(first.busReset);
  EXPECT_TRUE(first.personalityChanged);
  EXPECT_EQ(first.result.data[7], 9) << "bMaxPacketSize0 at the imported speed";
  EXPECT_EQ(p.personality(), usb::CoralPersonality::kRuntime);
  EXPECT_EQ(p.speed(), usb::UsbSpeed::kSuper);
  EXPECT_EQ(productId(p), 0x9302);
  EXPECT_FALSE(p.armedSwitch());
  ASSERT_TRUE(p.loadedFirmware());
  EXPECT_EQ(p.loadedFirmware()->size, 10783u);

  // A later reset (libedgetpu's default path only port-resets a runtime device) keeps it.
  const ControlOutcome again = kernelEnumerates(p);
  EXPECT_TRUE(again.busReset);
  EXPECT_FALSE(again.personalityChanged);
  EXPECT_EQ(productId(p), 0x9302);
}

TEST(UsbPersonality, HighSpeedKernelAsksFor64Bytes) {
  UsbPersonality p(usb::UsbSpeed::kHigh, usb::CoralPersonality::kBootloader);
  downloadFirmware(p, 512);
  const ControlOutcome first = request(p, getDescriptor(descriptor_type::kDevice, 64));
  EXPECT_TRUE(first.personalityChanged);
  EXPECT_EQ(first.result.data.size(), 18u);
  EXPECT_EQ(first.result.data[7], 64);
  EXPECT_EQ(productId(p), 0x9302);
}

TEST(UsbPersonality, DetachInRuntimeSwitchesToTheBootloaderAtTheNextReset) {
  UsbPersonality p(usb::UsbSpeed::kSuper, usb::CoralPersonality::kRuntime);
  (void)kernelEnumerates(p);
  EXPECT_EQ(request(p, {0x21, 0, 100, 0, 0}).result.status, usb::UrbStatus::kOk);  // DFU_DETACH, wValue 100
  EXPECT_EQ(p.armedSwitch(), usb::CoralPersonality::kBootloader);
  EXPECT_EQ(productId(p), 0x9302);
  EXPECT_TRUE(kernelEnumerates(p).personalityChanged);
  EXPECT_EQ(productId(p), 0x089A);
  EXPECT_EQ(p.dfu().state(), DfuState::kIdle);
  // And the full DFU round trip back.
  downloadFirmware(p, 10783);
  EXPECT_TRUE(kernelEnumerates(p).personalityChanged);
  EXPECT_EQ(productId(p), 0x9302);
}

TEST(UsbPersonality, VendorRequestsGoToTheChipOnlyInTheRuntime) {
  UsbPersonality runtime(usb::UsbSpeed::kSuper, usb::CoralPersonality::kRuntime);
  EXPECT_FALSE(runtime.handle({0xC0, 1, 0xA318, 1, 4}, {}).has_value());
  const Bytes value(4, 0);
  EXPECT_FALSE(runtime.handle({0x40, 1, 0xA318, 1, 4}, value).has_value());
  UsbPersonality bootloader(usb::UsbSpeed::kSuper, usb::CoralPersonality::kBootloader);
  EXPECT_EQ(request(bootloader, {0xC0, 1, 0xA318, 1, 4}).result.status, usb::UrbStatus::kStall);
}

TEST(UsbPersonality, StandardRequests) {
  UsbPersonality p;
  EXPECT_EQ(request(p, {0x80, 8, 0, 0, 1}).result.data, (Bytes{0}));  // GET_CONFIGURATION: unconfigured
  EXPECT_EQ(request(p, {0x00, 9, 1, 0, 0}).result.status, usb::UrbStatus::kOk);
  EXPECT_EQ(p.configuration(), 1);
  EXPECT_EQ(request(p, {0x80, 8, 0, 0, 1}).result.data, (Bytes{1}));
  EXPECT_EQ(request(p, {0x00, 9, 2, 0, 0}).result.status, usb::UrbStatus::kStall);  // no configuration 2
  EXPECT_EQ(request(p, {0x80, 0, 0, 0, 2}).result.data, (Bytes{0, 0}));        // GET_STATUS
  EXPECT_EQ(request(p, {0x81, 10, 0, 0, 1}).result.data, (Bytes{0}));          // GET_INTERFACE
  EXPECT_EQ(request(p, {0x01, 11, 0, 0, 0}).result.status, usb::UrbStatus::kOk);    // SET_INTERFACE alt 0
  EXPECT_EQ(request(p, {0x01, 11, 1, 0, 0}).result.status, usb::UrbStatus::kStall);  // no alt 1
  EXPECT_EQ(request(p, {0x02, 1, 0, 0x81, 0}).result.status, usb::UrbStatus::kOk);  // CLEAR_FEATURE(HALT)
  EXPECT_EQ(request(p, {0x80, 12, 0, 0, 2}).result.status, usb::UrbStatus::kStall);  // SYNCH_FRAME
  EXPECT_EQ(request(p, {0x00, 6, 0x0100, 0, 18}).result.status, usb::UrbStatus::kStall);  // SET_DESCRIPTOR
  EXPECT_EQ(request(p, getDescriptor(descriptor_type::kString, 255)).result.data, (Bytes{4, 3, 0x09, 0x04}));
  EXPECT_EQ(request(p, {0x80, 6, 0x0301, 0x0409, 255}).result.status, usb::UrbStatus::kStall);  // no string 1
  // A bus reset unconfigures.
  (void)request(p, getDescriptor(descriptor_type::kDevice, 8));
  EXPECT_EQ(p.configuration(), 0);
}

TEST(UsbPersonality, RuntimeStallsDfuRequestsOtherThanDetach) {
  UsbPersonality p;
  EXPECT_EQ(request(p, {0xA1, 3, 0, 0, 6}).result.status, usb::UrbStatus::kStall);
  const Bytes block(16, 0);
  EXPECT_EQ(request(p, {0x21, 1, 0, 0, 16}, block).result.status, usb::UrbStatus::kStall);
  EXPECT_FALSE(p.armedSwitch());
}

TEST(UsbPersonality, NewDownloadDisarmsAndPowerOnResets) {
  UsbPersonality p(usb::UsbSpeed::kSuper, usb::CoralPersonality::kBootloader);
  downloadFirmware(p, 300);
  ASSERT_TRUE(p.armedSwitch());
  const Bytes block(16, 0);
  ASSERT_EQ(request(p, {0x21, 1, 0, 0, 16}, block).result.status, usb::UrbStatus::kOk);  // starts over
  EXPECT_FALSE(p.armedSwitch());
  downloadFirmware(p, 300);
  ASSERT_TRUE(kernelEnumerates(p).personalityChanged);
  p.powerOn(usb::CoralPersonality::kBootloader);
  EXPECT_EQ(p.personality(), usb::CoralPersonality::kBootloader);
  EXPECT_FALSE(p.armedSwitch());
  EXPECT_FALSE(p.loadedFirmware());
  EXPECT_EQ(productId(p), 0x089A);
}

TEST(UsbPersonality, DirectBusResetTakesTheArmedSwitchAndUnconfigures) {
  UsbPersonality p(usb::UsbSpeed::kSuper, usb::CoralPersonality::kBootloader);
  EXPECT_EQ(request(p, {0x00, 9, 1, 0, 0}).result.status, usb::UrbStatus::kOk);  // SET_CONFIGURATION(1)
  EXPECT_FALSE(p.busReset()) << "nothing armed";
  EXPECT_EQ(p.configuration(), 0);
  EXPECT_EQ(p.personality(), usb::CoralPersonality::kBootloader);
  downloadFirmware(p, 300);
  EXPECT_TRUE(p.busReset());
  EXPECT_EQ(p.personality(), usb::CoralPersonality::kRuntime);
  EXPECT_EQ(productId(p), 0x9302);
  EXPECT_FALSE(p.busReset()) << "the switch is taken once";
  EXPECT_EQ(request(p, {0x21, 0, 100, 0, 0}).result.status, usb::UrbStatus::kOk);  // DFU_DETACH
  EXPECT_TRUE(p.busReset());
  EXPECT_EQ(productId(p), 0x089A);
}

}  // namespace
}  // namespace coralsim::sim::usb_personality_test
