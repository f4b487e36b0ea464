// The USB/IP messages (PDUs) as values: the fixed blocks of usbip/pdu_layouts.h plus the variable
// parts (device lists, transfer buffers). Serialise with usbip/pdu_serializer.h, parse with
// usbip/stream_decoder.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "usbip/pdu_layouts.h"
#include "usbip/protocol_constants.h"

namespace coralsim::usbip {

// ---- operation messages ----

struct OpReqDevlist {
  OpCommon common{kProtocolVersion, op_code::kReqDevlist, 0};
  friend bool operator==(const OpReqDevlist&, const OpReqDevlist&) = default;
};

struct ExportedDeviceEntry {
  UsbDeviceRecord device;
  std::vector<UsbInterfaceRecord> interfaces;  // exactly device.bNumInterfaces of them
  friend bool operator==(const ExportedDeviceEntry&, const ExportedDeviceEntry&) = default;
};

struct OpRepDevlist {
  OpCommon common{kProtocolVersion, op_code::kRepDevlist, op_status::kOk};
  std::vector<ExportedDeviceEntry> devices;  // sent only when status is OK
  friend bool operator==(const OpRepDevlist&, const OpRepDevlist&) = default;
};

struct OpReqImport {
  OpCommon common{kProtocolVersion, op_code::kReqImport, 0};
  ImportRequestBody body;
  friend bool operator==(const OpReqImport&, const OpReqImport&) = default;
};

struct OpRepImport {
  OpCommon common{kProtocolVersion, op_code::kRepImport, op_status::kOk};
  std::optional<UsbDeviceRecord> device;  // present exactly when status is OK
  friend bool operator==(const OpRepImport&, const OpRepImport&) = default;
};

// ---- URB messages ----

struct CmdSubmit {
  UrbBasicHeader header{urb_command::kCmdSubmit, 0, 0, 0, 0};
  CmdSubmitParams params;
  // OUT: exactly transferBufferLength bytes. IN: empty (transferBufferLength is the capacity).
  std::vector<uint8_t> transferBuffer;
  friend bool operator==(const CmdSubmit&, const CmdSubmit&) = default;
};

struct RetSubmit {
  UrbBasicHeader header{urb_command::kRetSubmit, 0, 0, 0, 0};
  RetSubmitParams params;
  // Answer to an IN URB: exactly actualLength bytes. Answer to an OUT URB: empty.
  std::vector<uint8_t> transferBuffer;
  friend bool operator==(const RetSubmit&, const RetSubmit&) = default;
};

struct CmdUnlink {
  UrbBasicHeader header{urb_command::kCmdUnlink, 0, 0, 0, 0};
  CmdUnlinkParams params;
  friend bool operator==(const CmdUnlink&, const CmdUnlink&) = default;
};

struct RetUnlink {
  UrbBasicHeader header{urb_command::kRetUnlink, 0, 0, 0, 0};
  RetUnlinkParams params;
  friend bool operator==(const RetUnlink&, const RetUnlink&) = default;
};

// What a client sends (the server decodes these) and what a server sends (the client decodes).
using Request = std::variant<OpReqDevlist, OpReqImport, CmdSubmit, CmdUnlink>;
using Reply = std::variant<OpRepDevlist, OpRepImport, RetSubmit, RetUnlink>;

// ---- fixed-size text fields (path, busid): NUL-padded, not necessarily NUL-terminated ----

template <size_t N>
[[nodiscard]] std::array<uint8_t, N> fixedText(std::string_view text) {
  std::array<uint8_t, N> out{};
  for (size_t i = 0; i < text.size() && i < N; ++i) out[i] = static_cast<uint8_t>(text[i]);
  return out;
}

template <size_t N>
[[nodiscard]] std::string textOf(const std::array<uint8_t, N>& field) {
  std::string out;
  for (uint8_t c : field) {
    if (c == 0) break;
    out.push_back(static_cast<char>(c));
  }
  return out;
}

// The devid every URB header of an imported device carries: busnum << 16 | devnum.
[[nodiscard]] inline uint32_t devidOf(const UsbDeviceRecord& record) {
  return (record.busnum << 16) | (record.devnum & 0xFFFF);
}

}  // namespace coralsim::usbip
