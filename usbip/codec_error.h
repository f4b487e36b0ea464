// CodecError: malformed USB/IP bytes. The message names the PDU, the field and the byte offset in
// the stream, e.g. "usbip: USBIP_CMD_SUBMIT field transfer_buffer_length at stream offset 4120:
// 33554432 bytes exceeds the limit of 16777216". A peer that sends one is dropped; nothing
// else is affected.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace coralsim::usbip {

class CodecError : public std::runtime_error {
 public:
  CodecError(std::string_view pdu, std::string_view field, uint64_t streamOffset, std::string_view detail);

  [[nodiscard]] const std::string& pdu() const { return pdu_; }
  [[nodiscard]] const std::string& field() const { return field_; }
  [[nodiscard]] uint64_t streamOffset() const { return streamOffset_; }

 private:
  std::string pdu_;
  std::string field_;
  uint64_t streamOffset_;
};

}  // namespace coralsim::usbip
