// The USB descriptors of both personalities of the Coral USB Accelerator, as tables:
//   runtime    18d1:9302, interface 0 class FF/FF/FF with six endpoints (docs/usb-protocol.md §1.1,
//              §1.2 for high speed);
//   bootloader 1a6e:089a, interface 0 class FE/01/02 (DFU mode) with no endpoints and a DFU
//              functional descriptor (§1.3).
// Both exist at SuperSpeed and at high speed, because a USB/IP import has one fixed speed (§10.5
// item 9). Field layouts come from sim/usb_descriptors.def; values marked [choice] in the document
// are chosen in usb_descriptors.cc (no driver checks them).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "usb/coral_usb_ids.h"
#include "usb/dfu_protocol.h"
#include "usb/usb_types.h"

namespace coralsim::sim {

namespace descriptor_type {
inline constexpr uint8_t kDevice = 1;
inline constexpr uint8_t kConfiguration = 2;
inline constexpr uint8_t kString = 3;
inline constexpr uint8_t kInterface = 4;
inline constexpr uint8_t kEndpoint = 5;
inline constexpr uint8_t kDeviceQualifier = 6;
inline constexpr uint8_t kBos = 0x0F;
inline constexpr uint8_t kDeviceCapability = 0x10;
inline constexpr uint8_t kDfuFunctional = usb::kDfuFunctionalDescriptorType;
inline constexpr uint8_t kSsEndpointCompanion = 0x30;
}  // namespace descriptor_type

// DFU block size (wTransferSize): the Coral bootloader's (usb/dfu_protocol.h).
inline constexpr uint16_t kDfuTransferSize = usb::kCoralDfuTransferSize;

// ---- descriptor structs, generated from usb_descriptors.def ----

template <size_t Bytes>
struct DescriptorFieldType;
template <>
struct DescriptorFieldType<1> {
  using type = uint8_t;
};
template <>
struct DescriptorFieldType<2> {
  using type = uint16_t;
};
template <>
struct DescriptorFieldType<4> {
  using type = uint32_t;
};

#define USB_DESCRIPTOR(Type, descriptorType) \
  struct Type {                              \
    static constexpr uint8_t kDescriptorType = descriptorType;
#define USB_DESCRIPTOR_FIELD(Type, member, bytes) DescriptorFieldType<bytes>::type member = 0;
#define USB_DESCRIPTOR_END(Type) \
  friend bool operator==(const Type&, const Type&) = default; \
  };
#include "sim/usb_descriptors.def"
#undef USB_DESCRIPTOR
#undef USB_DESCRIPTOR_FIELD
#undef USB_DESCRIPTOR_END

// bLength of each descriptor: 2 + the sum of its rows.
template <typename Descriptor>
inline constexpr uint8_t kDescriptorLength = 0;
#define USB_DESCRIPTOR(Type, descriptorType) template <> inline constexpr uint8_t kDescriptorLength<Type> = 2
#define USB_DESCRIPTOR_FIELD(Type, member, bytes) +(bytes)
#define USB_DESCRIPTOR_END(Type) ;
#include "sim/usb_descriptors.def"
#undef USB_DESCRIPTOR
#undef USB_DESCRIPTOR_FIELD
#undef USB_DESCRIPTOR_END

// Appends the descriptor's wire bytes (bLength, bDescriptorType, fields little-endian).
#define USB_DESCRIPTOR(Type, descriptorType) void appendDescriptor(std::vector<uint8_t>& out, const Type& descriptor);
#include "sim/usb_descriptors.def"
#undef USB_DESCRIPTOR

// Reads a descriptor of that type from the start of `bytes`; nullopt when bytes are short or
// bLength / bDescriptorType do not match (bLength larger than the table is accepted, as USB allows).
template <typename Descriptor>
[[nodiscard]] std::optional<Descriptor> readDescriptor(std::span<const uint8_t> bytes);

// ---- the personalities ----

// One row of the endpoint table of the runtime interface.
struct EndpointInfo {
  uint8_t address = 0;
  uint8_t attributes = 0;  // 2 bulk, 3 interrupt
  uint16_t maxPacketSuper = 0;
  uint16_t maxPacketHigh = 0;
  uint8_t maxBurst = 0;           // SuperSpeed companion
  uint8_t interval = 0;           // interrupt endpoints
  uint16_t bytesPerInterval = 0;  // SuperSpeed companion of interrupt endpoints
};

// The six endpoints of the runtime interface 0 (§1.1), in the order the configuration lists them
// [choice]. The bootloader has none.
[[nodiscard]] std::span<const EndpointInfo> runtimeEndpoints();

// Bulk max packet size at `speed` (1024 SuperSpeed, 512 High speed).
[[nodiscard]] uint16_t bulkMaxPacket(usb::UsbSpeed speed);

struct UsbDescriptor {
  uint8_t type = 0;
  uint8_t index = 0;
  std::vector<uint8_t> bytes;
};

class UsbDescriptorTable {
 public:
  // The runtime personality (18d1:9302) at `speed`.
  [[nodiscard]] static UsbDescriptorTable runtime(usb::UsbSpeed speed);
  // The DFU bootloader personality (1a6e:089a) at `speed`.
  [[nodiscard]] static UsbDescriptorTable bootloader(usb::UsbSpeed speed);
  [[nodiscard]] static UsbDescriptorTable of(usb::CoralPersonality personality, usb::UsbSpeed speed);

  // The descriptor GET_DESCRIPTOR(type, index) returns; nullopt when there is none.
  [[nodiscard]] std::optional<std::span<const uint8_t>> find(uint8_t type, uint8_t index) const;
  // The answer to GET_DESCRIPTOR(type, index) with wLength: the descriptor truncated to wLength,
  // or nullopt (the request is STALLed) when there is none.
  [[nodiscard]] std::optional<std::vector<uint8_t>> getDescriptor(uint8_t type, uint8_t index, uint16_t wLength) const;
  [[nodiscard]] std::span<const UsbDescriptor> all() const { return rows_; }

  [[nodiscard]] usb::CoralPersonality personality() const { return personality_; }
  [[nodiscard]] usb::UsbSpeed speed() const { return speed_; }

 private:
  std::vector<UsbDescriptor> rows_;
  usb::CoralPersonality personality_ = usb::CoralPersonality::kRuntime;
  usb::UsbSpeed speed_ = usb::UsbSpeed::kSuper;
};

}  // namespace coralsim::sim
