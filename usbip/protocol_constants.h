// USB/IP protocol constants (Linux Documentation/usb/usbip_protocol.rst, version 0x0111;
// docs/usb-protocol.md §10): message codes, URB commands, speeds, import status codes and
// transfer flags. Field layouts live in usbip/pdu_layouts.def.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace coralsim::usbip {

inline constexpr uint16_t kProtocolVersion = 0x0111;  // the Linux tool rejects any other value
inline constexpr uint16_t kDefaultPort = 3240;

inline constexpr size_t kOpHeaderBytes = 8;
inline constexpr size_t kUrbHeaderBytes = 48;
inline constexpr size_t kBusIdBytes = 32;
inline constexpr size_t kPathBytes = 256;

// OP_* message codes (the "code" field of the OP header).
namespace op_code {
inline constexpr uint16_t kReqDevlist = 0x8005;
inline constexpr uint16_t kRepDevlist = 0x0005;
inline constexpr uint16_t kReqImport = 0x8003;
inline constexpr uint16_t kRepImport = 0x0003;
}  // namespace op_code

// OP reply status (tools/usbip/src/usbip_network.h): any non-zero value fails `usbip attach`.
namespace op_status {
inline constexpr uint32_t kOk = 0;
inline constexpr uint32_t kNotAvailable = 1;
inline constexpr uint32_t kDeviceBusy = 2;
inline constexpr uint32_t kDeviceError = 3;
inline constexpr uint32_t kNoSuchDevice = 4;
inline constexpr uint32_t kError = 5;
}  // namespace op_status

// URB message commands (the "command" field of the URB header).
namespace urb_command {
inline constexpr uint32_t kCmdSubmit = 1;
inline constexpr uint32_t kCmdUnlink = 2;
inline constexpr uint32_t kRetSubmit = 3;
inline constexpr uint32_t kRetUnlink = 4;
}  // namespace urb_command

// The "direction" field of URB messages.
namespace urb_direction {
inline constexpr uint32_t kOut = 0;
inline constexpr uint32_t kIn = 1;
}  // namespace urb_direction

inline constexpr uint32_t kMaxEndpointNumber = 15;

// number_of_packets values that mean "not isochronous": Linux sends 0, the protocol document
// shows 0xFFFFFFFF; this device has no isochronous endpoints, so nothing else is accepted.
inline constexpr uint32_t kNoIsoPackets = 0xFFFFFFFF;

// enum usb_device_speed, as the "speed" field of the device record carries it.
namespace usb_speed_code {
inline constexpr uint32_t kUnknown = 0;
inline constexpr uint32_t kLow = 1;
inline constexpr uint32_t kFull = 2;
inline constexpr uint32_t kHigh = 3;
inline constexpr uint32_t kWireless = 4;
inline constexpr uint32_t kSuper = 5;
inline constexpr uint32_t kSuperPlus = 6;
}  // namespace usb_speed_code

// transfer_flags bits (USBIP_URB_*). Test bits individually; unknown bits are ignored.
namespace transfer_flag {
inline constexpr uint32_t kShortNotOk = 0x0001;
inline constexpr uint32_t kIsoAsap = 0x0002;
inline constexpr uint32_t kZeroPacket = 0x0040;
inline constexpr uint32_t kNoInterrupt = 0x0080;
inline constexpr uint32_t kDirIn = 0x0200;
inline constexpr uint32_t kDmaMapSg = 0x00040000;
}  // namespace transfer_flag

// Printable names for diagnostics ("OP_REQ_IMPORT", "USBIP_RET_SUBMIT"); "" for unknown values.
[[nodiscard]] std::string_view opCodeName(uint16_t code);
[[nodiscard]] std::string_view urbCommandName(uint32_t command);

}  // namespace coralsim::usbip
