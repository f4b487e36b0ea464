// Single-endpoint framing of the bulk-OUT stream (docs/usb-protocol.md §3.2): every DMA the host
// sends is one record, an 8-byte header [u32 LE payload length][tag in the low nibble][3 zero
// bytes] followed by the payload. Like libedgetpu, the header goes out as its own transfer and the
// payload in pieces of at most 1 MiB; the device parses a byte stream, so the split is ours.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "driver/transport/transport.h"
#include "usb/record_header.h"

namespace coralsim::driver {

// Record tags: usb::RecordTag (usb/record_header.h), shared with the device.
using usb::RecordTag;

inline constexpr size_t kMaxOutTransferBytes = 1 << 20;  // libedgetpu's 1 MiB payload pieces

// Sends one record on EP 0x01: the header (usb/record_header.h) transfer, then the payload in ≤ 1 MiB transfers.
// A payload longer than 4 GiB - 1 cannot be framed and throws std::length_error.
void sendRecord(Transport& transport, uint8_t tag, std::span<const uint8_t> payload);

}  // namespace coralsim::driver
