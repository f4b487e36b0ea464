#include "sim/usb_descriptors.h"

#include <algorithm>
#include <array>

#include "usb/coral_usb_ids.h"

namespace coralsim::sim {
namespace {

// ---- values (docs/usb-protocol.md §1.1-§1.3) ----

// What differs between the personalities.
struct PersonalityValues {
  uint16_t idVendor;
  uint16_t idProduct;
  uint16_t bcdDevice;
  uint8_t interfaceClass;
  uint8_t interfaceSubClass;
  uint8_t interfaceProtocol;
  bool hasEndpoints;      // the runtime's six endpoints
  bool hasDfuFunctional;  // the bootloader's DFU functional descriptor
};

// VID/PID of each personality: the seam's (usb/coral_usb_ids.h), the ones the driver looks for.
constexpr usb::CoralUsbId kRuntimeId = usb::coralUsbId(usb::CoralPersonality::kRuntime);
constexpr usb::CoralUsbId kBootloaderId = usb::coralUsbId(usb::CoralPersonality::kBootloader);

constexpr PersonalityValues kRuntimeValues{kRuntimeId.vendorId, kRuntimeId.productId, 0x0100, 0xFF, 0xFF, 0xFF,
                                           true, false};  // [hw]
// bcdDevice of the bootloader is unknown [choice]; VID/PID and FE/01/02 are [hw].
constexpr PersonalityValues kBootloaderValues{kBootloaderId.vendorId,
                                              kBootloaderId.productId,
                                              0x0100,
                                              usb::kDfuInterfaceClass,
                                              usb::kDfuInterfaceSubClass,
                                              0x02,
                                              false,
                                              true};

// What differs between the speeds.
struct SpeedValues {
  uint16_t bcdUSB;
  uint8_t bMaxPacketSize0;  // SuperSpeed: an exponent (2^9 = 512), as the kernel assumes
  uint8_t bMaxPower;        // SuperSpeed in 8 mA units, high speed in 2 mA units [choice]
  bool endpointCompanions;  // SuperSpeed endpoint companions
  bool deviceQualifier;     // high-speed devices describe their full-speed self
};

constexpr SpeedValues kSuperSpeedValues{0x0310, 9, 0x70, true, false};  // 896 mA
constexpr SpeedValues kHighSpeedValues{0x0210, 64, 0xFA, false, true};  // 500 mA

const SpeedValues& speedValues(usb::UsbSpeed speed) {
  return speed == usb::UsbSpeed::kSuper ? kSuperSpeedValues : kHighSpeedValues;
}

// bmAttributes: bit 7 is reserved-one; neither self-powered nor remote wakeup [choice].
constexpr uint8_t kConfigurationAttributes = 0x80;
constexpr uint8_t kConfigurationValue = 1;
constexpr uint16_t kLanguageEnglishUs = 0x0409;

// DFU functional: CanDnload | CanUpload (libedgetpu verifies by upload) | ManifestationTolerant
// (the device answers GETSTATUS/UPLOAD after the image is complete); WillDetach 0 [choice].
constexpr DfuFunctionalDescriptor kDfuFunctional{0x07, 100, kDfuTransferSize, 0x0110};

// BOS capabilities [choice]: LPM supported; SuperSpeed capability listing full/high/super speed,
// full speed as the lowest fully functional, U1 exit 10 µs, U2 exit 2047 µs.
constexpr Usb2ExtensionCapability kUsb2Extension{0x02, 0x00000002};
constexpr SuperSpeedUsbCapability kSuperSpeedCapability{0x03, 0x00, 0x000E, 0x01, 0x0A, 0x07FF};

constexpr std::array<EndpointInfo, 6> kEndpoints{{
    {usb::endpoint::kBulkOut, 2, 1024, 512, 15, 0, 0},        // OUT: framed records (single-EP mode)
    {usb::endpoint::kBulkOutInput, 2, 1024, 512, 15, 0, 0},   // OUT: input activations (multi-EP mode)
    {usb::endpoint::kBulkOutParams, 2, 1024, 512, 15, 0, 0},  // OUT: parameters (multi-EP mode)
    {usb::endpoint::kOutputIn, 2, 1024, 512, 15, 0, 0},       // IN: output activations
    {usb::endpoint::kEventIn, 2, 1024, 512, 15, 0, 0},        // IN: 16-byte events (bulk, not interrupt)
    {usb::endpoint::kInterruptIn, 3, 64, 64, 0, 4, 64},       // IN: 4-byte interrupt bitmaps; interval [choice]
}};

// ---- building the descriptors ----

std::vector<uint8_t> deviceDescriptor(const PersonalityValues& p, const SpeedValues& s) {
  DeviceDescriptor d;
  d.bcdUSB = s.bcdUSB;
  d.bMaxPacketSize0 = s.bMaxPacketSize0;  // class 0/0/0: defined at the interface
  d.idVendor = p.idVendor;
  d.idProduct = p.idProduct;
  d.bcdDevice = p.bcdDevice;
  d.bNumConfigurations = 1;  // no strings: iManufacturer/iProduct/iSerialNumber 0 [hw]
  std::vector<uint8_t> out;
  appendDescriptor(out, d);
  return out;
}

std::vector<uint8_t> deviceQualifier(const SpeedValues& s) {
  DeviceQualifierDescriptor q;
  q.bcdUSB = s.bcdUSB;
  q.bMaxPacketSize0 = s.bMaxPacketSize0;
  q.bNumConfigurations = 1;
  std::vector<uint8_t> out;
  appendDescriptor(out, q);
  return out;
}

std::vector<uint8_t> configurationDescriptor(const PersonalityValues& p, usb::UsbSpeed speed) {
  const SpeedValues& s = speedValues(speed);
  std::vector<uint8_t> out;
  ConfigurationDescriptor config;
  config.bNumInterfaces = 1;
  config.bConfigurationValue = kConfigurationValue;
  config.bmAttributes = kConfigurationAttributes;
  config.bMaxPower = s.bMaxPower;
  appendDescriptor(out, config);  // wTotalLength patched below

  InterfaceDescriptor interface;
  interface.bNumEndpoints = p.hasEndpoints ? static_cast<uint8_t>(kEndpoints.size()) : 0;
  interface.bInterfaceClass = p.interfaceClass;
  interface.bInterfaceSubClass = p.interfaceSubClass;
  interface.bInterfaceProtocol = p.interfaceProtocol;
  appendDescriptor(out, interface);

  if (p.hasDfuFunctional) appendDescriptor(out, kDfuFunctional);
  if (p.hasEndpoints) {
    for (const EndpointInfo& ep : kEndpoints) {
      const bool super = speed == usb::UsbSpeed::kSuper;
      appendDescriptor(out, EndpointDescriptor{ep.address, ep.attributes, super ? ep.maxPacketSuper : ep.maxPacketHigh,
                                               ep.interval});
      // Bulk companions: no streams, wBytesPerInterval 0 (§1.1).
      if (s.endpointCompanions) appendDescriptor(out, SsEndpointCompanionDescriptor{ep.maxBurst, 0, ep.bytesPerInterval});
    }
  }
  const auto total = static_cast<uint16_t>(out.size());
  out[2] = static_cast<uint8_t>(total);
  out[3] = static_cast<uint8_t>(total >> 8);
  return out;
}

std::vector<uint8_t> bosDescriptor(usb::UsbSpeed speed) {
  const bool super = speed == usb::UsbSpeed::kSuper;
  BosDescriptor header;
  header.bNumDeviceCaps = super ? 2 : 1;
  header.wTotalLength = static_cast<uint16_t>(kDescriptorLength<BosDescriptor> + kDescriptorLength<Usb2ExtensionCapability> +
                                              (super ? kDescriptorLength<SuperSpeedUsbCapability> : 0));
  std::vector<uint8_t> out;
  appendDescriptor(out, header);
  appendDescriptor(out, kUsb2Extension);
  if (super) appendDescriptor(out, kSuperSpeedCapability);
  return out;
}

void putLittleEndian(std::vector<uint8_t>& out, uint32_t value, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

uint32_t getLittleEndian(const uint8_t* p, size_t bytes) {
  uint32_t value = 0;
  for (size_t i = 0; i < bytes; ++i) value |= uint32_t{p[i]} << (8 * i);
  return value;
}

}  // namespace

// ---- generated serialisers and readers ----

#define USB_DESCRIPTOR(Type, descriptorType)                              \
  void appendDescriptor(std::vector<uint8_t>& out, const Type& descriptor) { \
    out.push_back(kDescriptorLength<Type>);                               \
    out.push_back(Type::kDescriptorType);
#define USB_DESCRIPTOR_FIELD(Type, member, width) putLittleEndian(out, descriptor.member, width);
#define USB_DESCRIPTOR_END(Type) }
#include "sim/usb_descriptors.def"
#undef USB_DESCRIPTOR
#undef USB_DESCRIPTOR_FIELD
#undef USB_DESCRIPTOR_END

#define USB_DESCRIPTOR(Type, descriptorType)                                                        \
  template <>                                                                                        \
  std::optional<Type> readDescriptor<Type>(std::span<const uint8_t> input) {                         \
    if (input.size() < kDescriptorLength<Type> || input[0] < kDescriptorLength<Type> ||              \
        input[1] != Type::kDescriptorType) {                                                         \
      return std::nullopt;                                                                           \
    }                                                                                                \
    Type out;                                                                                        \
    size_t at = 2;
#define USB_DESCRIPTOR_FIELD(Type, member, width)                                                        \
  out.member = static_cast<DescriptorFieldType<width>::type>(getLittleEndian(input.data() + at, width)); \
  at += (width);
#define USB_DESCRIPTOR_END(Type) \
  return out;                    \
  }
#include "sim/usb_descriptors.def"
#undef USB_DESCRIPTOR
#undef USB_DESCRIPTOR_FIELD
#undef USB_DESCRIPTOR_END

// ---- personalities ----

std::span<const EndpointInfo> runtimeEndpoints() { return kEndpoints; }

uint16_t bulkMaxPacket(usb::UsbSpeed speed) { return speed == usb::UsbSpeed::kSuper ? 1024 : 512; }

UsbDescriptorTable UsbDescriptorTable::of(usb::CoralPersonality personality, usb::UsbSpeed speed) {
  const PersonalityValues& p = personality == usb::CoralPersonality::kRuntime ? kRuntimeValues : kBootloaderValues;
  const SpeedValues& s = speedValues(speed);
  UsbDescriptorTable table;
  table.personality_ = personality;
  table.speed_ = speed;
  table.rows_.push_back({descriptor_type::kDevice, 0, deviceDescriptor(p, s)});
  table.rows_.push_back({descriptor_type::kConfiguration, 0, configurationDescriptor(p, speed)});
  table.rows_.push_back({descriptor_type::kBos, 0, bosDescriptor(speed)});
  if (s.deviceQualifier) table.rows_.push_back({descriptor_type::kDeviceQualifier, 0, deviceQualifier(s)});
  std::vector<uint8_t> languages;
  appendDescriptor(languages, LanguageIdsDescriptor{kLanguageEnglishUs});
  table.rows_.push_back({descriptor_type::kString, 0, std::move(languages)});
  return table;
}

UsbDescriptorTable UsbDescriptorTable::runtime(usb::UsbSpeed speed) { return of(usb::CoralPersonality::kRuntime, speed); }
UsbDescriptorTable UsbDescriptorTable::bootloader(usb::UsbSpeed speed) { return of(usb::CoralPersonality::kBootloader, speed); }

std::optional<std::span<const uint8_t>> UsbDescriptorTable::find(uint8_t type, uint8_t index) const {
  for (const UsbDescriptor& row : rows_) {
    if (row.type == type && row.index == index) return std::span<const uint8_t>(row.bytes);
  }
  return std::nullopt;
}

std::optional<std::vector<uint8_t>> UsbDescriptorTable::getDescriptor(uint8_t type, uint8_t index,
                                                                      uint16_t wLength) const {
  const auto found = find(type, index);
  if (!found) return std::nullopt;
  const size_t n = std::min<size_t>(found->size(), wLength);
  return std::vector<uint8_t>(found->begin(), found->begin() + static_cast<ptrdiff_t>(n));
}

}  // namespace coralsim::sim
