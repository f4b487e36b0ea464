#include "sim/dfu_state_machine.h"

#include <algorithm>

#include "traces/sha256.h"

namespace coralsim::sim {
namespace {

constexpr uint8_t kRequestTypeMask = 0x60;
constexpr uint8_t kRequestTypeClass = 0x20;
constexpr uint8_t kRecipientMask = 0x1F;
constexpr uint8_t kRecipientInterface = 0x01;
constexpr uint16_t kDfuInterface = 0;

// The firmware images libedgetpu embeds (docs/usb-protocol.md §1.4): size and SHA-256 name them.
struct KnownFirmware {
  size_t size;
  std::string_view sha256;
  std::string_view name;
};
constexpr KnownFirmware kKnownFirmware[] = {
    {10783, "3b07311b174b81fd14fd2c887f40d646c0ebf2f140cc5ee5cf8befa0f3e3dc7f", "apex_latest_single_ep.bin"},
    {12117, "f95e0b348e3a38e1191ec81baa80c7c3c331556da6ca8be59c01d66769c3c415", "apex_latest_multi_ep.bin"},
};

usb::UrbResult ack() { return usb::UrbResult{}; }

usb::UrbResult inData(std::vector<uint8_t> bytes) {
  usb::UrbResult r;
  r.actualLength = static_cast<uint32_t>(bytes.size());
  r.data = std::move(bytes);
  return r;
}

usb::UrbResult stall() {
  usb::UrbResult r;
  r.status = usb::UrbStatus::kStall;
  return r;
}

}  // namespace

std::string_view DfuStateMachine::requestName(uint8_t bRequest) {
  const DfuRequestInfo* info = usb::findDfuRequest(bRequest);
  return info ? info->name : std::string_view{};
}

void DfuStateMachine::reset() {
  state_ = DfuState::kIdle;
  status_ = DfuStatus::kOk;
  image_.clear();
  dataBlocks_ = 0;
  completed_.reset();
}

usb::UrbResult DfuStateMachine::stallWithError(DfuStatus status) {
  state_ = DfuState::kError;
  status_ = status;
  return stall();
}

std::optional<usb::UrbResult> DfuStateMachine::handle(const usb::ControlSetup& setup, std::span<const uint8_t> outData) {
  if ((setup.bmRequestType & kRequestTypeMask) != kRequestTypeClass ||
      (setup.bmRequestType & kRecipientMask) != kRecipientInterface || setup.wIndex != kDfuInterface) {
    return std::nullopt;
  }
  const DfuRequestInfo* info = usb::findDfuRequest(setup.bRequest);
  if (info == nullptr) return stallWithError(DfuStatus::kErrStalledPkt);
  // The direction must be the request's own: a GETSTATUS sent host-to-device is not one.
  if (setup.bmRequestType != info->bmRequestType) return stallWithError(DfuStatus::kErrStalledPkt);

  switch (setup.bRequest) {
    case dfu_request::kDetach:
      return ack();  // already in DFU mode: nothing to do (§1.4)
    case dfu_request::kDnload:
      return download(setup, outData);
    case dfu_request::kUpload:
      return upload(setup);
    case dfu_request::kGetStatus:
      return getStatus(setup);
    case dfu_request::kClrStatus:
      state_ = DfuState::kIdle;
      status_ = DfuStatus::kOk;
      return ack();
    case dfu_request::kGetState: {
      std::vector<uint8_t> state{static_cast<uint8_t>(state_)};
      state.resize(std::min<size_t>(state.size(), setup.wLength));
      return inData(std::move(state));
    }
    case dfu_request::kAbort:
      // Abandons a download or upload in progress; a completed image stays.
      if (state_ == DfuState::kDnloadIdle) {
        image_.clear();
        dataBlocks_ = 0;
      }
      state_ = DfuState::kIdle;
      status_ = DfuStatus::kOk;
      return ack();
    default:
      return stallWithError(DfuStatus::kErrStalledPkt);
  }
}

usb::UrbResult DfuStateMachine::download(const usb::ControlSetup& setup, std::span<const uint8_t> data) {
  if (state_ != DfuState::kIdle && state_ != DfuState::kDnloadIdle) return stallWithError(DfuStatus::kErrStalledPkt);
  if (setup.wLength > kTransferSize || data.size() != setup.wLength) return stallWithError(DfuStatus::kErrStalledPkt);

  if (setup.wLength == 0) {
    // End of image. Only meaningful after data (DFU 1.1: errNOTDONE otherwise).
    if (state_ != DfuState::kDnloadIdle || dataBlocks_ == 0) return stallWithError(DfuStatus::kErrNotDone);
    FirmwareImage done;
    done.size = image_.size();
    done.sha256 = traces::Sha256::hex(image_);
    for (const KnownFirmware& known : kKnownFirmware) {
      if (known.size == done.size && known.sha256 == done.sha256) done.knownAs = known.name;
    }
    completed_ = std::move(done);
    // Manifestation-tolerant and immediate: straight back to dfuIDLE (libedgetpu requires state 2).
    state_ = DfuState::kIdle;
    return ack();
  }

  if (state_ == DfuState::kIdle) {
    // A new download starts from nothing (a previous completed image is replaced).
    image_.clear();
    dataBlocks_ = 0;
    completed_.reset();
  }
  // Blocks arrive in order from every known host; the block number is used only as the offset.
  const size_t offset = size_t{setup.wValue} * kTransferSize;
  if (offset + data.size() > kRegionBytes) return stallWithError(DfuStatus::kErrAddress);
  if (image_.size() < offset + data.size()) image_.resize(offset + data.size(), 0);
  std::copy(data.begin(), data.end(), image_.begin() + static_cast<ptrdiff_t>(offset));
  ++dataBlocks_;
  state_ = DfuState::kDnloadIdle;
  return ack();
}

usb::UrbResult DfuStateMachine::upload(const usb::ControlSetup& setup) {
  // Never STALLs: the view is the image followed by zeros up to kRegionBytes, 0 bytes after it.
  const size_t offset = size_t{setup.wValue} * kTransferSize;
  const size_t length = std::min<size_t>(setup.wLength, kTransferSize);
  std::vector<uint8_t> block;
  if (offset < kRegionBytes) {
    block.assign(std::min(length, kRegionBytes - offset), 0);
    for (size_t i = 0; i < block.size() && offset + i < image_.size(); ++i) block[i] = image_[offset + i];
  }
  if (state_ == DfuState::kIdle || state_ == DfuState::kUploadIdle) {
    // A short block ends the upload (DFU 1.1 §6.2).
    state_ = block.size() < length || length < kTransferSize ? DfuState::kIdle : DfuState::kUploadIdle;
  }
  return inData(std::move(block));
}

usb::UrbResult DfuStateMachine::getStatus(const usb::ControlSetup& setup) const {
  std::vector<uint8_t> status{static_cast<uint8_t>(status_),
                              static_cast<uint8_t>(kPollTimeoutMs),
                              static_cast<uint8_t>(kPollTimeoutMs >> 8),
                              static_cast<uint8_t>(kPollTimeoutMs >> 16),
                              static_cast<uint8_t>(state_),
                              0};  // iString
  status.resize(std::min<size_t>(status.size(), setup.wLength));
  return inData(std::move(status));
}

}  // namespace coralsim::sim
