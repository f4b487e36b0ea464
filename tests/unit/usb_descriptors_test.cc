// USB descriptor tables of both personalities at both speeds: layout lengths against the USB
// specifications, the byte values docs/usb-protocol.md §1.1-§1.3 gives, the lengths that must add
// up (config wTotalLength 96 at SuperSpeed, 60 at high speed, 27 for DFU; BOS 22), and libedgetpu's
// DFU-interface check (§1.3) applied to our bootloader configuration.
#include <gtest/gtest.h>

#include <vector>

#include "sim/usb_descriptors.h"

namespace coralsim::sim::usb_descriptors_test {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes bytesOf(const UsbDescriptorTable& t, uint8_t type, uint8_t index = 0) {
  const auto found = t.find(type, index);
  if (!found) return {};
  return Bytes(found->begin(), found->end());
}

// bLength of each descriptor as USB 2.0 §9.6, USB 3.2 §9.6 and DFU 1.1 §4.1.3 define it.
TEST(UsbDescriptors, LayoutLengthsMatchTheSpecifications) {
  EXPECT_EQ(kDescriptorLength<DeviceDescriptor>, 18);
  EXPECT_EQ(kDescriptorLength<DeviceQualifierDescriptor>, 10);
  EXPECT_EQ(kDescriptorLength<ConfigurationDescriptor>, 9);
  EXPECT_EQ(kDescriptorLength<InterfaceDescriptor>, 9);
  EXPECT_EQ(kDescriptorLength<EndpointDescriptor>, 7);
  EXPECT_EQ(kDescriptorLength<SsEndpointCompanionDescriptor>, 6);
  EXPECT_EQ(kDescriptorLength<DfuFunctionalDescriptor>, 9);
  EXPECT_EQ(kDescriptorLength<BosDescriptor>, 5);
  EXPECT_EQ(kDescriptorLength<Usb2ExtensionCapability>, 7);
  EXPECT_EQ(kDescriptorLength<SuperSpeedUsbCapability>, 10);
  EXPECT_EQ(kDescriptorLength<LanguageIdsDescriptor>, 4);
}

// The 18 bytes §1.1 lists field by field for the SuperSpeed runtime personality [hw].
TEST(UsbDescriptors, RuntimeSuperSpeedDeviceDescriptorIsTheHardwareOne) {
  const Bytes expected = {0x12, 0x01, 0x10, 0x03, 0x00, 0x00, 0x00, 0x09, 0xD1,
                          0x18, 0x02, 0x93, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01};
  EXPECT_EQ(bytesOf(UsbDescriptorTable::runtime(usb::UsbSpeed::kSuper), descriptor_type::kDevice), expected);
}

TEST(UsbDescriptors, HighSpeedDeviceDescriptorsUseUsb2Values) {
  for (usb::CoralPersonality p : {usb::CoralPersonality::kRuntime, usb::CoralPersonality::kBootloader}) {
    const auto d = readDescriptor<DeviceDescriptor>(bytesOf(UsbDescriptorTable::of(p, usb::UsbSpeed::kHigh), 1));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->bcdUSB, 0x0210);
    EXPECT_EQ(d->bMaxPacketSize0, 64);
  }
  const auto q = readDescriptor<DeviceQualifierDescriptor>(
      bytesOf(UsbDescriptorTable::runtime(usb::UsbSpeed::kHigh), descriptor_type::kDeviceQualifier));
  ASSERT_TRUE(q);
  EXPECT_EQ(q->bNumConfigurations, 1);
  EXPECT_FALSE(UsbDescriptorTable::runtime(usb::UsbSpeed::kSuper).find(descriptor_type::kDeviceQualifier, 0));
}

// Splits a configuration into its descriptors, checking every bLength stays inside it.
std::vector<Bytes> walk(const Bytes& config) {
  std::vector<Bytes> out;
  size_t at = 0;
  while (at < config.size()) {
    const size_t len = config[at];
    EXPECT_GE(len, 2u) << "at " << at;
    EXPECT_LE(at + len, config.size()) << "descriptor at " << at << " overruns the configuration";
    if (len < 2 || at + len > config.size()) break;
    out.emplace_back(config.begin() + static_cast<ptrdiff_t>(at), config.begin() + static_cast<ptrdiff_t>(at + len));
    at += len;
  }
  return out;
}

struct Expected {
  uint8_t address, attributes;
  uint16_t maxPacket;
};

void checkRuntimeConfig(usb::UsbSpeed speed, size_t totalLength, bool companions) {
  const Bytes config = bytesOf(UsbDescriptorTable::runtime(speed), descriptor_type::kConfiguration);
  ASSERT_EQ(config.size(), totalLength);
  const auto header = readDescriptor<ConfigurationDescriptor>(config);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->wTotalLength, totalLength);
  EXPECT_EQ(header->bNumInterfaces, 1);
  EXPECT_EQ(header->bConfigurationValue, 1);
  EXPECT_NE(header->bmAttributes & 0x80, 0) << "bit 7 is reserved-one";

  const std::vector<Bytes> parts = walk(config);
  ASSERT_EQ(parts.size(), 2u + 6u * (companions ? 2u : 1u));
  const auto interface = readDescriptor<InterfaceDescriptor>(parts[1]);
  ASSERT_TRUE(interface);
  EXPECT_EQ(interface->bInterfaceNumber, 0);
  EXPECT_EQ(interface->bNumEndpoints, 6);
  EXPECT_EQ(interface->bInterfaceClass, 0xFF);
  EXPECT_EQ(interface->bInterfaceSubClass, 0xFF);
  EXPECT_EQ(interface->bInterfaceProtocol, 0xFF);

  const uint16_t bulk = speed == usb::UsbSpeed::kSuper ? 1024 : 512;
  // §1.1: three bulk OUT, bulk IN 0x81 and 0x82 (0x82 is bulk, not interrupt), interrupt IN 0x83.
  const std::vector<Expected> expected = {{0x01, 2, bulk}, {0x02, 2, bulk}, {0x03, 2, bulk},
                                          {0x81, 2, bulk}, {0x82, 2, bulk}, {0x83, 3, 64}};
  size_t at = 2;
  for (const Expected& e : expected) {
    const auto ep = readDescriptor<EndpointDescriptor>(parts[at++]);
    ASSERT_TRUE(ep);
    EXPECT_EQ(ep->bEndpointAddress, e.address);
    EXPECT_EQ(ep->bmAttributes, e.attributes) << std::hex << int{e.address};
    EXPECT_EQ(ep->wMaxPacketSize, e.maxPacket) << std::hex << int{e.address};
    if (e.attributes == 3) {
      EXPECT_GT(ep->bInterval, 0);
    }
    if (companions) {
      const auto c = readDescriptor<SsEndpointCompanionDescriptor>(parts[at++]);
      ASSERT_TRUE(c);
      EXPECT_EQ(c->bMaxBurst, e.attributes == 2 ? 15 : 0);
      EXPECT_EQ(c->bmAttributes, 0);  // no streams
    }
  }
}

TEST(UsbDescriptors, RuntimeSuperSpeedConfigurationIs96Bytes) { checkRuntimeConfig(usb::UsbSpeed::kSuper, 96, true); }
TEST(UsbDescriptors, RuntimeHighSpeedConfigurationIs60Bytes) { checkRuntimeConfig(usb::UsbSpeed::kHigh, 60, false); }

TEST(UsbDescriptors, BosIs22BytesAtSuperSpeed) {
  const Bytes bos = bytesOf(UsbDescriptorTable::runtime(usb::UsbSpeed::kSuper), descriptor_type::kBos);
  ASSERT_EQ(bos.size(), 22u);
  const auto header = readDescriptor<BosDescriptor>(bos);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->wTotalLength, 22);
  EXPECT_EQ(header->bNumDeviceCaps, 2);
  const std::vector<Bytes> parts = walk(bos);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(readDescriptor<Usb2ExtensionCapability>(parts[1])->bDevCapabilityType, 0x02);
  const auto ss = readDescriptor<SuperSpeedUsbCapability>(parts[2]);
  ASSERT_TRUE(ss);
  EXPECT_EQ(ss->bDevCapabilityType, 0x03);
  EXPECT_EQ(ss->wSpeedsSupported, 0x000E);
  // The same BOS in the bootloader personality (§1.3: "same as runtime if SS").
  EXPECT_EQ(bytesOf(UsbDescriptorTable::bootloader(usb::UsbSpeed::kSuper), descriptor_type::kBos), bos);
  // High speed: the USB 2.0 extension only.
  const Bytes hs = bytesOf(UsbDescriptorTable::runtime(usb::UsbSpeed::kHigh), descriptor_type::kBos);
  EXPECT_EQ(hs.size(), 12u);
  EXPECT_EQ(walk(hs).size(), 2u);
}

TEST(UsbDescriptors, BootloaderIsTheDfuPersonality) {
  for (usb::UsbSpeed speed : {usb::UsbSpeed::kSuper, usb::UsbSpeed::kHigh}) {
    const UsbDescriptorTable t = UsbDescriptorTable::bootloader(speed);
    EXPECT_EQ(t.personality(), usb::CoralPersonality::kBootloader);
    const auto device = readDescriptor<DeviceDescriptor>(bytesOf(t, descriptor_type::kDevice));
    ASSERT_TRUE(device);
    EXPECT_EQ(device->idVendor, 0x1A6E);
    EXPECT_EQ(device->idProduct, 0x089A);
    EXPECT_EQ(device->bMaxPacketSize0, speed == usb::UsbSpeed::kSuper ? 9 : 64);

    const Bytes config = bytesOf(t, descriptor_type::kConfiguration);
    ASSERT_EQ(config.size(), 27u);
    EXPECT_EQ(readDescriptor<ConfigurationDescriptor>(config)->wTotalLength, 27);
    const std::vector<Bytes> parts = walk(config);
    ASSERT_EQ(parts.size(), 3u);
    const auto interface = readDescriptor<InterfaceDescriptor>(parts[1]);
    ASSERT_TRUE(interface);
    EXPECT_EQ(interface->bNumEndpoints, 0);
    EXPECT_EQ(interface->bInterfaceClass, 0xFE);
    EXPECT_EQ(interface->bInterfaceSubClass, 0x01);
    EXPECT_EQ(interface->bInterfaceProtocol, 0x02);
    const auto dfu = readDescriptor<DfuFunctionalDescriptor>(parts[2]);
    ASSERT_TRUE(dfu);
    EXPECT_EQ(dfu->wTransferSize, 256);
    EXPECT_EQ(dfu->bmAttributes & 0x03, 0x03) << "CanDnload and CanUpload";
  }
}

// libedgetpu's FindDfuInterfaces (§1.3), restated: descriptor byte[1] == 2, only the low byte of
// wTotalLength is read, total >= 18, an interface with 0 endpoints, class FE, subclass 1, and a
// descriptor of type 0x21 of at least 9 bytes. It asks with wLength 521.
TEST(UsbDescriptors, BootloaderConfigurationPassesLibedgetpuDfuCheck) {
  const auto answer = UsbDescriptorTable::bootloader(usb::UsbSpeed::kSuper).getDescriptor(descriptor_type::kConfiguration, 0, 521);
  ASSERT_TRUE(answer);
  const Bytes& c = *answer;
  ASSERT_GE(c.size(), 18u);
  EXPECT_EQ(c[1], 2);
  const size_t total = c[2];  // low byte only
  EXPECT_EQ(total, c.size());
  bool dfuInterface = false, functional = false;
  for (size_t at = 0; at + 2 <= total && c[at] >= 2; at += c[at]) {
    if (c[at + 1] == 4 && c[at + 4] == 0 && c[at + 5] == 0xFE && c[at + 6] == 0x01) dfuInterface = true;
    if (c[at + 1] == 0x21 && c[at] >= 9) functional = true;
  }
  EXPECT_TRUE(dfuInterface);
  EXPECT_TRUE(functional);
}

TEST(UsbDescriptors, GetDescriptorTruncatesToWLengthAndStallsUnknowns) {
  const UsbDescriptorTable t = UsbDescriptorTable::runtime(usb::UsbSpeed::kSuper);
  const auto eight = t.getDescriptor(descriptor_type::kDevice, 0, 8);
  ASSERT_TRUE(eight);
  EXPECT_EQ(eight->size(), 8u);
  EXPECT_EQ((*eight)[7], 9);  // bMaxPacketSize0 is inside the first 8 bytes, as the kernel needs
  EXPECT_EQ(t.getDescriptor(descriptor_type::kConfiguration, 0, 9)->size(), 9u);
  EXPECT_EQ(t.getDescriptor(descriptor_type::kConfiguration, 0, 0xFFFF)->size(), 96u);
  EXPECT_EQ(t.getDescriptor(descriptor_type::kBos, 0, 5)->size(), 5u);
  EXPECT_EQ(*t.getDescriptor(descriptor_type::kString, 0, 255), (Bytes{4, 3, 0x09, 0x04}));
  EXPECT_FALSE(t.getDescriptor(descriptor_type::kString, 1, 255));  // no strings [hw]
  EXPECT_FALSE(t.getDescriptor(descriptor_type::kConfiguration, 1, 255));  // one configuration
  EXPECT_FALSE(t.getDescriptor(0x22, 0, 255));
  EXPECT_EQ(t.getDescriptor(descriptor_type::kDevice, 0, 0)->size(), 0u);
}

TEST(UsbDescriptors, ReadDescriptorRejectsShortOrMistypedBytes) {
  const Bytes device = bytesOf(UsbDescriptorTable::runtime(usb::UsbSpeed::kSuper), descriptor_type::kDevice);
  EXPECT_TRUE(readDescriptor<DeviceDescriptor>(device));
  EXPECT_FALSE(readDescriptor<DeviceDescriptor>(std::span(device).first(17)));
  EXPECT_FALSE(readDescriptor<ConfigurationDescriptor>(device));
  Bytes shortLength = device;
  shortLength[0] = 17;
  EXPECT_FALSE(readDescriptor<DeviceDescriptor>(shortLength));
}

TEST(UsbDescriptors, RuntimeEndpointTableMatchesTheConfiguration) {
  EXPECT_EQ(runtimeEndpoints().size(), 6u);
  EXPECT_EQ(bulkMaxPacket(usb::UsbSpeed::kSuper), 1024);
  EXPECT_EQ(bulkMaxPacket(usb::UsbSpeed::kHigh), 512);
}

}  // namespace
}  // namespace coralsim::sim::usb_descriptors_test
