// The DFU 1.1 vocabulary (USB Device Firmware Upgrade, docs/usb-protocol.md §1.3-§1.4) both sides
// of the seam speak: the host's firmware download (driver/transport/dfu_download.*) sends these
// requests and reads these states, the bootloader personality's engine (sim/dfu_state_machine.*)
// answers them. Declared once, as tables, so a request code, a state or a name cannot drift
// between the two.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace coralsim::usb {

// bmRequestType of every DFU request: class, interface recipient (DFU 1.1 §3).
inline constexpr uint8_t kDfuHostToDevice = 0x21;
inline constexpr uint8_t kDfuDeviceToHost = 0xA1;

// bRequest codes (DFU 1.1 §3, table 3.2).
namespace dfu_request {
inline constexpr uint8_t kDetach = 0;
inline constexpr uint8_t kDnload = 1;
inline constexpr uint8_t kUpload = 2;
inline constexpr uint8_t kGetStatus = 3;
inline constexpr uint8_t kClrStatus = 4;
inline constexpr uint8_t kGetState = 5;
inline constexpr uint8_t kAbort = 6;
}  // namespace dfu_request

// The requests with their direction and name: dispatch, logs and tests use this table.
struct DfuRequestInfo {
  uint8_t bRequest;
  uint8_t bmRequestType;  // kDfuHostToDevice or kDfuDeviceToHost
  std::string_view name;
};
inline constexpr DfuRequestInfo kDfuRequests[] = {
    {dfu_request::kDetach, kDfuHostToDevice, "DFU_DETACH"},
    {dfu_request::kDnload, kDfuHostToDevice, "DFU_DNLOAD"},
    {dfu_request::kUpload, kDfuDeviceToHost, "DFU_UPLOAD"},
    {dfu_request::kGetStatus, kDfuDeviceToHost, "DFU_GETSTATUS"},
    {dfu_request::kClrStatus, kDfuHostToDevice, "DFU_CLRSTATUS"},
    {dfu_request::kGetState, kDfuDeviceToHost, "DFU_GETSTATE"},
    {dfu_request::kAbort, kDfuHostToDevice, "DFU_ABORT"},
};
// The row of `bRequest`; nullptr for a code DFU does not define.
[[nodiscard]] const DfuRequestInfo* findDfuRequest(uint8_t bRequest);

// bState values (DFU 1.1 §6.1.2), in the order of kDfuStateNames.
enum class DfuState : uint8_t {
  kAppIdle = 0,
  kAppDetach = 1,
  kIdle = 2,
  kDnloadSync = 3,
  kDnBusy = 4,
  kDnloadIdle = 5,
  kManifestSync = 6,
  kManifest = 7,
  kManifestWaitReset = 8,
  kUploadIdle = 9,
  kError = 10,
};
inline constexpr std::array<std::string_view, 11> kDfuStateNames = {
    "appIDLE",          "appDETACH",   "dfuIDLE",     "dfuDNLOAD-SYNC",         "dfuDNBUSY",     "dfuDNLOAD-IDLE",
    "dfuMANIFEST-SYNC", "dfuMANIFEST", "dfuMANIFEST-WAIT-RESET", "dfuUPLOAD-IDLE", "dfuERROR"};

// bStatus values (DFU 1.1 §6.1.2), in the order of kDfuStatusNames.
enum class DfuStatus : uint8_t {
  kOk = 0x00,
  kErrTarget = 0x01,
  kErrFile = 0x02,
  kErrWrite = 0x03,
  kErrErase = 0x04,
  kErrCheckErased = 0x05,
  kErrProg = 0x06,
  kErrVerify = 0x07,
  kErrAddress = 0x08,     // a block beyond the image region
  kErrNotDone = 0x09,     // end of image without any data
  kErrFirmware = 0x0A,
  kErrVendor = 0x0B,
  kErrUsbReset = 0x0C,
  kErrPowerOnReset = 0x0D,
  kErrUnknown = 0x0E,
  kErrStalledPkt = 0x0F,  // a request the current state does not allow
};
inline constexpr std::array<std::string_view, 16> kDfuStatusNames = {
    "OK",         "errTARGET",  "errFILE",     "errWRITE",  "errERASE", "errCHECK_ERASED", "errPROG",    "errVERIFY",
    "errADDRESS", "errNOTDONE", "errFIRMWARE", "errVENDOR", "errUSBR",  "errPOR",          "errUNKNOWN", "errSTALLEDPKT"};

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
