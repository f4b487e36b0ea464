#include "usbip/stream_decoder.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace coralsim::usbip {
namespace {

std::string hex(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), kDigits[value & 0xF]);
    value >>= 4;
  } while (value != 0);
  return "0x" + out;
}

std::string_view pduName(uint32_t command, std::string_view fallback) {
  const std::string_view name = urbCommandName(command);
  return name.empty() ? fallback : name;
}

bool isNonIsoPacketCount(uint32_t numberOfPackets) {
  return numberOfPackets == 0 || numberOfPackets == kNoIsoPackets;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// StreamDecoderCore

size_t StreamDecoderCore::feed(std::span<const uint8_t> input) {
  if (failure_) throw *failure_;
  size_t used = 0;
  try {
    while (state_ != State::kReady) {
      if (state_ == State::kIdle) {
        if (used == input.size()) break;
        beginMessage();
      }
      if (state_ == State::kFixed) {
        if (used == input.size()) break;
        const size_t n = std::min(fixedNeed_ - fixedHave_, input.size() - used);
        std::memcpy(fixed_.data() + fixedHave_, input.data() + used, n);
        fixedHave_ += n;
        used += n;
        position_ += n;
        if (fixedHave_ == fixedNeed_) completeFixed();
      } else if (state_ == State::kPayload) {
        if (used == input.size()) break;
        const size_t n = std::min(payload_->size() - payloadHave_, input.size() - used);
        std::memcpy(payload_->data() + payloadHave_, input.data() + used, n);
        payloadHave_ += n;
        used += n;
        position_ += n;
        if (payloadHave_ == payload_->size()) completePayload();
      }
    }
  } catch (const CodecError& e) {
    failure_ = e;
    throw;
  }
  return used;
}

std::span<uint8_t> StreamDecoderCore::payloadSpace() {
  if (state_ != State::kPayload) return {};
  return std::span<uint8_t>(*payload_).subspan(payloadHave_);
}

void StreamDecoderCore::commitPayload(size_t bytes) {
  if (state_ != State::kPayload || bytes > payload_->size() - payloadHave_) {
    throw std::logic_error("usbip: commitPayload beyond the transfer buffer being received");
  }
  payloadHave_ += bytes;
  position_ += bytes;
  if (payloadHave_ == payload_->size()) completePayload();
}

void StreamDecoderCore::completeFixed() {
  state_ = State::kIdle;  // onFixed() sets what comes next
  onFixed();
}

void StreamDecoderCore::completePayload() {
  state_ = State::kIdle;
  payload_ = nullptr;
  onPayload();
}

void StreamDecoderCore::expectFixed(size_t bytes, size_t firstFieldOffset) {
  if (bytes == 0 || bytes > fixed_.size()) throw std::logic_error("usbip: fixed segment size out of range");
  state_ = State::kFixed;
  fixedNeed_ = bytes;
  fixedHave_ = 0;
  segmentFirstOffset_ = firstFieldOffset;
  segmentStart_ = position_;
}

void StreamDecoderCore::expectPayload(std::vector<uint8_t>& into, size_t bytes) {
  // Sized up front (bounded by DecoderLimits) so a reader can receive straight into it.
  into.resize(bytes);
  payload_ = &into;
  payloadHave_ = 0;
  state_ = bytes == 0 ? State::kIdle : State::kPayload;
  if (bytes == 0) onPayload();
}

void StreamDecoderCore::fail(std::string_view pdu, const FieldRef& field, const std::string& detail) const {
  throw CodecError(pdu, field.name, segmentStart_ + field.offset - segmentFirstOffset_, detail);
}

// ---------------------------------------------------------------------------------------------
// RequestDecoder (server side)

void RequestDecoder::beginMessage() {
  if (phase() == StreamPhase::kOperation) {
    step_ = Step::kOpHeader;
    expectFixed(OpCommon::kSize, OpCommon::kBase);
  } else {
    step_ = Step::kUrbHeader;
    expectFixed(kUrbHeaderBytes, UrbBasicHeader::kBase);
  }
}

void RequestDecoder::onFixed() {
  switch (step_) {
    case Step::kOpHeader: onOpHeader(); return;
    case Step::kImportBody: {
      auto& message = std::get<OpReqImport>(current_);
      decodeFields(fixedBytes(), message.body);
      finishMessage();
      return;
    }
    case Step::kUrbHeader: onUrbHeader(); return;
  }
}

void RequestDecoder::onOpHeader() {
  OpCommon common;
  decodeFields(fixedBytes(), common);
  const std::string_view known = opCodeName(common.code);
  const std::string_view pdu = known.empty() ? "OP request" : known;
  if (common.version != kProtocolVersion) {
    fail(pdu, field::OpCommon::version, "protocol version " + hex(common.version) + ", expected 0x0111");
  }
  if (common.code == op_code::kReqDevlist) {
    current_ = OpReqDevlist{common};
    finishMessage();
  } else if (common.code == op_code::kReqImport) {
    current_ = OpReqImport{common, {}};
    step_ = Step::kImportBody;
    expectFixed(ImportRequestBody::kSize, ImportRequestBody::kBase);
  } else {
    fail(pdu, field::OpCommon::code,
         "operation code " + hex(common.code) +
             (known.empty() ? " is unknown" : " is a reply") +
             "; a client sends OP_REQ_DEVLIST (0x8005) or OP_REQ_IMPORT (0x8003)");
  }
}

void RequestDecoder::onUrbHeader() {
  UrbBasicHeader header;
  decodeFields(fixedBytes(), header);
  const std::span<const uint8_t> params = fixedBytes().subspan(CmdSubmitParams::kBase);
  const std::string_view pdu = pduName(header.command, "URB request");
  if (header.command == urb_command::kCmdUnlink) {
    CmdUnlink message{header, {}};
    decodeFields(params, message.params);
    current_ = std::move(message);
    finishMessage();
    return;
  }
  if (header.command != urb_command::kCmdSubmit) {
    fail(pdu, field::UrbBasicHeader::command,
         "command " + hex(header.command) +
             (header.command == urb_command::kRetSubmit || header.command == urb_command::kRetUnlink
                  ? " is a reply"
                  : " is unknown") +
             "; a client sends USBIP_CMD_SUBMIT (1) or USBIP_CMD_UNLINK (2)");
  }
  CmdSubmit message{header, {}, {}};
  decodeFields(params, message.params);
  if (header.direction != urb_direction::kOut && header.direction != urb_direction::kIn) {
    fail(pdu, field::UrbBasicHeader::direction, "direction " + std::to_string(header.direction) + " is neither 0 (OUT) nor 1 (IN)");
  }
  if (header.ep > kMaxEndpointNumber) {
    fail(pdu, field::UrbBasicHeader::ep, "endpoint number " + std::to_string(header.ep) + " is above 15");
  }
  const uint32_t length = message.params.transferBufferLength;
  if (length > limits_.maxTransferLength) {
    fail(pdu, field::CmdSubmitParams::transferBufferLength,
         std::to_string(length) + " bytes exceeds the limit of " + std::to_string(limits_.maxTransferLength));
  }
  if (!isNonIsoPacketCount(message.params.numberOfPackets)) {
    fail(pdu, field::CmdSubmitParams::numberOfPackets,
         std::to_string(message.params.numberOfPackets) +
             " isochronous packets: this device has no isochronous endpoints (expected 0 or 0xffffffff)");
  }
  if (header.ep == 0) {
    const bool setupIn = (message.params.setup[0] & 0x80) != 0;
    if (setupIn != (header.direction == urb_direction::kIn)) {
      fail(pdu, field::UrbBasicHeader::direction,
           "control direction " + std::to_string(header.direction) + " disagrees with bmRequestType " +
               hex(message.params.setup[0]));
    }
  }
  current_ = std::move(message);
  auto& stored = std::get<CmdSubmit>(current_);
  if (header.direction == urb_direction::kOut && length > 0) {
    expectPayload(stored.transferBuffer, length);
  } else {
    finishMessage();
  }
}

Request RequestDecoder::take() {
  if (!hasMessage()) throw std::logic_error("usbip: RequestDecoder::take() without a complete message");
  consumedMessage();
  return std::move(current_);
}

// ---------------------------------------------------------------------------------------------
// ReplyDecoder (client side)

void ReplyDecoder::beginMessage() {
  if (phase() == StreamPhase::kOperation) {
    step_ = Step::kOpHeader;
    expectFixed(OpCommon::kSize, OpCommon::kBase);
  } else {
    step_ = Step::kUrbHeader;
    expectFixed(kUrbHeaderBytes, UrbBasicHeader::kBase);
  }
}

void ReplyDecoder::onFixed() {
  switch (step_) {
    case Step::kOpHeader: onOpHeader(); return;
    case Step::kDevlistHead: {
      DevlistReplyHead head;
      decodeFields(fixedBytes(), head);
      if (head.numDevices > limits_.maxDevices) {
        fail("OP_REP_DEVLIST", field::DevlistReplyHead::numDevices,
             std::to_string(head.numDevices) + " devices exceeds the limit of " + std::to_string(limits_.maxDevices));
      }
      devicesLeft_ = head.numDevices;
      std::get<OpRepDevlist>(current_).devices.reserve(head.numDevices);
      nextDeviceOrFinish();
      return;
    }
    case Step::kDeviceRecord: {
      auto& devices = std::get<OpRepDevlist>(current_).devices;
      devices.emplace_back();
      decodeFields(fixedBytes(), devices.back().device);
      interfacesLeft_ = devices.back().device.bNumInterfaces;
      if (interfacesLeft_ > 0) {
        step_ = Step::kInterfaceRecord;
        expectFixed(UsbInterfaceRecord::kSize, UsbInterfaceRecord::kBase);
      } else {
        nextDeviceOrFinish();
      }
      return;
    }
    case Step::kInterfaceRecord: {
      auto& entry = std::get<OpRepDevlist>(current_).devices.back();
      entry.interfaces.emplace_back();
      decodeFields(fixedBytes(), entry.interfaces.back());
      if (--interfacesLeft_ > 0) {
        expectFixed(UsbInterfaceRecord::kSize, UsbInterfaceRecord::kBase);
      } else {
        nextDeviceOrFinish();
      }
      return;
    }
    case Step::kImportRecord: {
      UsbDeviceRecord record;
      decodeFields(fixedBytes(), record);
      std::get<OpRepImport>(current_).device = record;
      finishMessage();
      return;
    }
    case Step::kUrbHeader: onUrbHeader(); return;
  }
}

void ReplyDecoder::nextDeviceOrFinish() {
  if (devicesLeft_ == 0) {
    finishMessage();
    return;
  }
  --devicesLeft_;
  step_ = Step::kDeviceRecord;
  expectFixed(UsbDeviceRecord::kSize, UsbDeviceRecord::kBase);
}

void ReplyDecoder::onOpHeader() {
  OpCommon common;
  decodeFields(fixedBytes(), common);
  const std::string_view known = opCodeName(common.code);
  const std::string_view pdu = known.empty() ? "OP reply" : known;
  if (common.version != kProtocolVersion) {
    fail(pdu, field::OpCommon::version, "protocol version " + hex(common.version) + ", expected 0x0111");
  }
  const bool ok = common.status == op_status::kOk;
  if (common.code == op_code::kRepDevlist) {
    current_ = OpRepDevlist{common, {}};
    if (!ok) {
      finishMessage();
      return;
    }
    step_ = Step::kDevlistHead;
    expectFixed(DevlistReplyHead::kSize, DevlistReplyHead::kBase);
  } else if (common.code == op_code::kRepImport) {
    current_ = OpRepImport{common, std::nullopt};
    if (!ok) {
      finishMessage();
      return;
    }
    step_ = Step::kImportRecord;
    expectFixed(UsbDeviceRecord::kSize, UsbDeviceRecord::kBase);
  } else {
    fail(pdu, field::OpCommon::code,
         "operation code " + hex(common.code) + (known.empty() ? " is unknown" : " is a request") +
             "; a server sends OP_REP_DEVLIST (0x0005) or OP_REP_IMPORT (0x0003)");
  }
}

void ReplyDecoder::onUrbHeader() {
  UrbBasicHeader header;
  decodeFields(fixedBytes(), header);
  const std::span<const uint8_t> params = fixedBytes().subspan(RetSubmitParams::kBase);
  const std::string_view pdu = pduName(header.command, "URB reply");
  if (header.command == urb_command::kRetUnlink) {
    RetUnlink message{header, {}};
    decodeFields(params, message.params);
    current_ = std::move(message);
    finishMessage();
    return;
  }
  if (header.command != urb_command::kRetSubmit) {
    fail(pdu, field::UrbBasicHeader::command,
         "command " + hex(header.command) +
             (header.command == urb_command::kCmdSubmit || header.command == urb_command::kCmdUnlink
                  ? " is a request"
                  : " is unknown") +
             "; a server sends USBIP_RET_SUBMIT (3) or USBIP_RET_UNLINK (4)");
  }
  RetSubmit message{header, {}, {}};
  decodeFields(params, message.params);
  const std::optional<PendingSubmit> pending = lookup_ ? lookup_(header.seqnum) : std::nullopt;
  if (!pending) {
    fail(pdu, field::UrbBasicHeader::seqnum,
         "seqnum " + std::to_string(header.seqnum) + " answers no pending USBIP_CMD_SUBMIT");
  }
  const uint32_t actual = message.params.actualLength;
  if (actual > pending->transferBufferLength) {
    fail(pdu, field::RetSubmitParams::actualLength,
         std::to_string(actual) + " bytes exceeds the transfer_buffer_length " +
             std::to_string(pending->transferBufferLength) + " of seqnum " + std::to_string(header.seqnum));
  }
  if (actual > limits_.maxTransferLength) {
    fail(pdu, field::RetSubmitParams::actualLength,
         std::to_string(actual) + " bytes exceeds the limit of " + std::to_string(limits_.maxTransferLength));
  }
  if (!isNonIsoPacketCount(message.params.numberOfPackets)) {
    fail(pdu, field::RetSubmitParams::numberOfPackets,
         std::to_string(message.params.numberOfPackets) +
             " isochronous packets: this device has no isochronous endpoints (expected 0 or 0xffffffff)");
  }
  current_ = std::move(message);
  auto& stored = std::get<RetSubmit>(current_);
  if (pending->in && actual > 0) {
    expectPayload(stored.transferBuffer, actual);
  } else {
    finishMessage();
  }
}

Reply ReplyDecoder::take() {
  if (!hasMessage()) throw std::logic_error("usbip: ReplyDecoder::take() without a complete message");
  consumedMessage();
  return std::move(current_);
}

}  // namespace coralsim::usbip
