// The DFU 1.1 vocabulary (USB Device Firmware Upgrade, docs/usb-protocol.md §1.3-§1.4) both sides
// of the seam speak: the host's firmware download (driver/transport/dfu_download.*) sends these
// requests and reads these states, the bootloader personality's engine (sim/dfu_state_machine.*)
// answers them. Declared once, as tables, so a request code, a state or a name cannot drift
// between the two. The rows are in usb/dfu_protocol.def.
#pragma once

#include <cstdint>
#include <string_view>

namespace coralsim::usb {

// bmRequestType of every DFU request: class, interface recipient (DFU 1.1 §3).
inline constexpr uint8_t kDfuHostToDevice = 0x21;
inline constexpr uint8_t kDfuDeviceToHost = 0xA1;

// bRequest codes (DFU 1.1 §3, table 3.2), from usb/dfu_protocol.def.
namespace dfu_request {
#define CORAL_DFU_REQUEST(Id, bRequest, bmRequestType, name) inline constexpr uint8_t Id = bRequest;
#include "usb/dfu_protocol.def"
#undef CORAL_DFU_REQUEST
}  // namespace dfu_request

// The requests with their direction and name: dispatch, logs and tests use this table.
struct DfuRequestInfo {
  uint8_t bRequest;
  uint8_t bmRequestType;  // kDfuHostToDevice or kDfuDeviceToHost
  std::string_view name;
};
inline constexpr DfuRequestInfo kDfuRequests[] = {
#define CORAL_DFU_REQUEST(Id, bRequest, bmRequestType, name) {bRequest, bmRequestType, name},
#include "usb/dfu_protocol.def"
#undef CORAL_DFU_REQUEST
};
// The row of `bRequest`; nullptr for a code DFU does not define.
[[nodiscard]] const DfuRequestInfo* findDfuRequest(uint8_t bRequest);

// bState values (DFU 1.1 §6.1.2) and their names, indexed by value.
enum class DfuState : uint8_t {
#define CORAL_DFU_STATE(Id, bState, name) Id = bState,
#include "usb/dfu_protocol.def"
#undef CORAL_DFU_STATE
};
inline constexpr std::string_view kDfuStateNames[] = {
#define CORAL_DFU_STATE(Id, bState, name) name,
#include "usb/dfu_protocol.def"
#undef CORAL_DFU_STATE
};

// bStatus values (DFU 1.1 §6.1.2) and their names, indexed by value.
enum class DfuStatus : uint8_t {
#define CORAL_DFU_STATUS(Id, bStatus, name) Id = bStatus,
#include "usb/dfu_protocol.def"
#undef CORAL_DFU_STATUS
};
inline constexpr std::string_view kDfuStatusNames[] = {
#define CORAL_DFU_STATUS(Id, bStatus, name) name,
#include "usb/dfu_protocol.def"
#undef CORAL_DFU_STATUS
};

// The name of a bState / bStatus byte ("dfuDNLOAD-IDLE", "errTARGET"); "" for a value DFU does
// not define.
[[nodiscard]] std::string_view dfuStateName(uint8_t state);
[[nodiscard]] std::string_view dfuStatusName(uint8_t status);

// DFU_GETSTATUS answers exactly 6 bytes: bStatus, bwPollTimeout (3 bytes LE), bState, iString.
inline constexpr uint16_t kDfuStatusBytes = 6;

// The DFU interface (class 0xFE application specific, subclass 0x01 DFU) and its functional
// descriptor (type 0x21) in the bootloader's configuration.
inline constexpr uint8_t kDfuInterfaceClass = 0xFE;
inline constexpr uint8_t kDfuInterfaceSubClass = 0x01;
inline constexpr uint8_t kDfuFunctionalDescriptorType = 0x21;

// The Coral bootloader's block size (wTransferSize), confirmed on hardware (§1.3): libedgetpu
// sends 256-byte blocks.
inline constexpr uint16_t kCoralDfuTransferSize = 256;

}  // namespace coralsim::usb
