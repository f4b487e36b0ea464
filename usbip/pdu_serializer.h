// Serialising USB/IP messages to wire bytes. Every function checks the message is consistent
// (codes match the type, OUT payload size == transfer_buffer_length, interface count ==
// bNumInterfaces, ...) and throws CodecError naming the field otherwise, so this side never emits
// a PDU that usbip/stream_decoder.h would reject.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "usbip/pdus.h"

namespace coralsim::usbip {

using UrbHeaderBytes = std::array<uint8_t, kUrbHeaderBytes>;

[[nodiscard]] std::vector<uint8_t> serialize(const OpReqDevlist& message);
[[nodiscard]] std::vector<uint8_t> serialize(const OpRepDevlist& message);
[[nodiscard]] std::vector<uint8_t> serialize(const OpReqImport& message);
[[nodiscard]] std::vector<uint8_t> serialize(const OpRepImport& message);
[[nodiscard]] std::vector<uint8_t> serialize(const CmdSubmit& message);
[[nodiscard]] std::vector<uint8_t> serialize(const RetSubmit& message);
[[nodiscard]] std::vector<uint8_t> serialize(const CmdUnlink& message);
[[nodiscard]] std::vector<uint8_t> serialize(const RetUnlink& message);
[[nodiscard]] std::vector<uint8_t> serialize(const Request& message);
[[nodiscard]] std::vector<uint8_t> serialize(const Reply& message);

// The 48-byte header alone (checked like serialize()), for gather writes that send the transfer
// buffer from where it already lies.
[[nodiscard]] UrbHeaderBytes encodeHeader(const CmdSubmit& message);
[[nodiscard]] UrbHeaderBytes encodeHeader(const RetSubmit& message);
[[nodiscard]] UrbHeaderBytes encodeHeader(const CmdUnlink& message);
[[nodiscard]] UrbHeaderBytes encodeHeader(const RetUnlink& message);

}  // namespace coralsim::usbip
