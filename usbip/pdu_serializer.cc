#include "usbip/pdu_serializer.h"

#include <string>

#include "usbip/codec_error.h"

namespace coralsim::usbip {
namespace {

// Serialising checks report the offset inside the message being built.
[[noreturn]] void inconsistent(std::string_view pdu, const FieldRef& field, const std::string& detail) {
  throw CodecError(pdu, field.name, field.offset, "cannot serialise: " + detail);
}

template <typename Block>
void append(std::vector<uint8_t>& out, const Block& block) {
  const size_t at = out.size();
  out.resize(at + Block::kSize);
  encodeFields(block, std::span<uint8_t>(out).subspan(at));
}

void checkOpHeader(std::string_view pdu, const OpCommon& common, uint16_t code) {
  if (common.version != kProtocolVersion) {
    inconsistent(pdu, field::OpCommon::version, "version " + std::to_string(common.version) + " is not 0x0111");
  }
  if (common.code != code) inconsistent(pdu, field::OpCommon::code, "code " + std::to_string(common.code));
}

void checkUrbCommand(std::string_view pdu, const UrbBasicHeader& header, uint32_t command) {
  if (header.command != command) {
    inconsistent(pdu, field::UrbBasicHeader::command, "command " + std::to_string(header.command));
  }
}

template <typename Params>
UrbHeaderBytes headerBytes(const UrbBasicHeader& header, const Params& params) {
  UrbHeaderBytes out{};
  encodeFields(header, out);
  encodeFields(params, std::span<uint8_t>(out).subspan(Params::kBase));
  return out;
}

std::vector<uint8_t> withPayload(const UrbHeaderBytes& header, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> out;
  out.reserve(header.size() + payload.size());
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

}  // namespace

std::vector<uint8_t> serialize(const OpReqDevlist& message) {
  checkOpHeader("OP_REQ_DEVLIST", message.common, op_code::kReqDevlist);
  std::vector<uint8_t> out;
  append(out, message.common);
  return out;
}

std::vector<uint8_t> serialize(const OpRepDevlist& message) {
  constexpr std::string_view kPdu = "OP_REP_DEVLIST";
  checkOpHeader(kPdu, message.common, op_code::kRepDevlist);
  std::vector<uint8_t> out;
  append(out, message.common);
  if (message.common.status != op_status::kOk) {
    if (!message.devices.empty()) inconsistent(kPdu, field::OpCommon::status, "a failed reply carries no devices");
    return out;
  }
  append(out, DevlistReplyHead{static_cast<uint32_t>(message.devices.size())});
  for (const ExportedDeviceEntry& entry : message.devices) {
    if (entry.interfaces.size() != entry.device.bNumInterfaces) {
      inconsistent(kPdu, field::UsbDeviceRecord::bNumInterfaces,
                   "bNumInterfaces " + std::to_string(entry.device.bNumInterfaces) + " but " +
                       std::to_string(entry.interfaces.size()) + " interface records");
    }
    append(out, entry.device);
    for (const UsbInterfaceRecord& interface : entry.interfaces) append(out, interface);
  }
  return out;
}

std::vector<uint8_t> serialize(const OpReqImport& message) {
  checkOpHeader("OP_REQ_IMPORT", message.common, op_code::kReqImport);
  std::vector<uint8_t> out;
  append(out, message.common);
  append(out, message.body);
  return out;
}

std::vector<uint8_t> serialize(const OpRepImport& message) {
  constexpr std::string_view kPdu = "OP_REP_IMPORT";
  checkOpHeader(kPdu, message.common, op_code::kRepImport);
  if ((message.common.status == op_status::kOk) != message.device.has_value()) {
    inconsistent(kPdu, field::OpCommon::status, "the device record is sent exactly when status is 0");
  }
  std::vector<uint8_t> out;
  append(out, message.common);
  if (message.device) append(out, *message.device);
  return out;
}

UrbHeaderBytes encodeHeader(const CmdSubmit& message) {
  constexpr std::string_view kPdu = "USBIP_CMD_SUBMIT";
  checkUrbCommand(kPdu, message.header, urb_command::kCmdSubmit);
  const bool in = message.header.direction == urb_direction::kIn;
  if (!in && message.header.direction != urb_direction::kOut) {
    inconsistent(kPdu, field::UrbBasicHeader::direction, "direction " + std::to_string(message.header.direction));
  }
  const size_t expected = in ? 0 : message.params.transferBufferLength;
  if (message.transferBuffer.size() != expected) {
    inconsistent(kPdu, field::CmdSubmitParams::transferBufferLength,
                 "transfer_buffer_length " + std::to_string(message.params.transferBufferLength) + " with " +
                     std::to_string(message.transferBuffer.size()) + " payload bytes (direction " +
                     (in ? "IN" : "OUT") + ")");
  }
  return headerBytes(message.header, message.params);
}

UrbHeaderBytes encodeHeader(const RetSubmit& message) {
  constexpr std::string_view kPdu = "USBIP_RET_SUBMIT";
  checkUrbCommand(kPdu, message.header, urb_command::kRetSubmit);
  if (!message.transferBuffer.empty() && message.transferBuffer.size() != message.params.actualLength) {
    inconsistent(kPdu, field::RetSubmitParams::actualLength,
                 "actual_length " + std::to_string(message.params.actualLength) + " with " +
                     std::to_string(message.transferBuffer.size()) + " payload bytes");
  }
  return headerBytes(message.header, message.params);
}

UrbHeaderBytes encodeHeader(const CmdUnlink& message) {
  checkUrbCommand("USBIP_CMD_UNLINK", message.header, urb_command::kCmdUnlink);
  return headerBytes(message.header, message.params);
}

UrbHeaderBytes encodeHeader(const RetUnlink& message) {
  checkUrbCommand("USBIP_RET_UNLINK", message.header, urb_command::kRetUnlink);
  return headerBytes(message.header, message.params);
}

std::vector<uint8_t> serialize(const CmdSubmit& message) {
  return withPayload(encodeHeader(message), message.transferBuffer);
}
std::vector<uint8_t> serialize(const RetSubmit& message) {
  return withPayload(encodeHeader(message), message.transferBuffer);
}
std::vector<uint8_t> serialize(const CmdUnlink& message) {
  const UrbHeaderBytes h = encodeHeader(message);
  return {h.begin(), h.end()};
}
std::vector<uint8_t> serialize(const RetUnlink& message) {
  const UrbHeaderBytes h = encodeHeader(message);
  return {h.begin(), h.end()};
}

std::vector<uint8_t> serialize(const Request& message) {
  return std::visit([](const auto& m) { return serialize(m); }, message);
}
std::vector<uint8_t> serialize(const Reply& message) {
  return std::visit([](const auto& m) { return serialize(m); }, message);
}

}  // namespace coralsim::usbip
