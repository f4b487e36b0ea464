// DfuStateMachine: the bootloader's DFU engine (DFU 1.1 class requests to interface 0) exactly as
// the Coral's host drivers need it (docs/usb-protocol.md §1.4, Appendix A):
//   * DNLOAD blocks of up to wTransferSize (256) bytes, stored at block × 256; state 5
//     (dfuDNLOAD-IDLE) after every data block;
//   * the zero-length DNLOAD completes the image at once (CO sends no GETSTATUS after it) and the
//     state returns to 2 (dfuIDLE) — state 5 there makes libedgetpu loop, anything else fails it;
//   * GETSTATUS is always exactly 6 bytes {bStatus, bwPollTimeout = 1 ms (3 bytes LE), bState,
//     iString 0};
//   * UPLOAD returns the 32 KiB view "image, then zeros" in 256-byte blocks and 0 bytes from block
//     128 on, and never STALLs (LibrEdgeTPU and edgetpuxray issue 129 uploads without a try);
//   * DETACH is an ACK, CLRSTATUS and ABORT return to dfuIDLE.
// The received image is kept with its size and SHA-256, which name the firmware (§1.4 table).
// Plain C++: no SystemC. Not thread-safe (the USB function calls it from one thread).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/usb_descriptors.h"
#include "usb/dfu_protocol.h"
#include "usb/usb_types.h"

namespace coralsim::sim {

// The DFU vocabulary (request codes and table, bState, bStatus) is the seam's, declared once in
// usb/dfu_protocol.h and spoken by the host's download too; sim:: names it unqualified.
namespace dfu_request = usb::dfu_request;
using usb::DfuRequestInfo;
using usb::DfuState;
using usb::DfuStatus;
using usb::kDfuRequests;

// A completed download.
struct FirmwareImage {
  size_t size = 0;
  std::string sha256;      // 64 lowercase hex digits
  std::string_view knownAs;  // "apex_latest_single_ep.bin" / "apex_latest_multi_ep.bin" / ""
};

class DfuStateMachine {
 public:
  static constexpr uint16_t kTransferSize = kDfuTransferSize;
  // The region UPLOAD reads back (128 blocks of 256), and so the largest image accepted [choice;
  // libedgetpu's images are 10,783 and 12,117 bytes].
  static constexpr size_t kRegionBytes = 32 * 1024;
  static constexpr uint32_t kPollTimeoutMs = 1;
  static constexpr size_t kStatusBytes = usb::kDfuStatusBytes;

  DfuStateMachine() = default;

  // Handles a DFU class request addressed to interface 0 (bmRequestType 0x21/0xA1, wIndex 0).
  // nullopt: not a DFU request (wrong type, recipient or interface) — the caller STALLs it.
  // A DFU request the state does not allow is STALLed here (status kStall) and, except for
  // UPLOAD which never fails, moves the engine to dfuERROR as DFU 1.1 says.
  [[nodiscard]] std::optional<usb::UrbResult> handle(const usb::ControlSetup& setup, std::span<const uint8_t> outData);

  [[nodiscard]] DfuState state() const { return state_; }
  [[nodiscard]] DfuStatus status() const { return status_; }
  // A zero-length DNLOAD ended a download of at least one data block (since the last reset).
  [[nodiscard]] bool downloadComplete() const { return completed_.has_value(); }
  [[nodiscard]] const std::optional<FirmwareImage>& completedImage() const { return completed_; }
  // The bytes received (the partial image while a download is in progress).
  [[nodiscard]] std::span<const uint8_t> image() const { return image_; }
  // Requests handled since the last reset, for logs and tests.
  [[nodiscard]] size_t dataBlocksReceived() const { return dataBlocks_; }

  // Power-on state: dfuIDLE, no image.
  void reset();

  // The name of a DFU request ("DFU_DNLOAD"), "" for others.
  [[nodiscard]] static std::string_view requestName(uint8_t bRequest);

 private:
  usb::UrbResult download(const usb::ControlSetup& setup, std::span<const uint8_t> data);
  usb::UrbResult upload(const usb::ControlSetup& setup);
  usb::UrbResult getStatus(const usb::ControlSetup& setup) const;
  usb::UrbResult stallWithError(DfuStatus status);

  DfuState state_ = DfuState::kIdle;
  DfuStatus status_ = DfuStatus::kOk;
  std::vector<uint8_t> image_;
  size_t dataBlocks_ = 0;
  std::optional<FirmwareImage> completed_;
};

}  // namespace coralsim::sim
