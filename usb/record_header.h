// The 8-byte header of every record on the single-endpoint bulk-OUT stream (docs/usb-protocol.md
// §3.2): [u32 LE payload length][tag in the low nibble][3 zero bytes]. Declared once here because
// the host's framing, the device's parser, the USB log's record tracker and the link model's byte
// count must all agree on it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace coralsim::usb {

inline constexpr size_t kRecordHeaderBytes = 8;

// libedgetpu masks the tag with 0xF; so does the device.
inline constexpr uint8_t kRecordTagMask = 0x0F;

[[nodiscard]] constexpr std::array<uint8_t, kRecordHeaderBytes> encodeRecordHeader(uint32_t payloadLength,
                                                                                  uint8_t tag) {
  return {static_cast<uint8_t>(payloadLength),
          static_cast<uint8_t>(payloadLength >> 8),
          static_cast<uint8_t>(payloadLength >> 16),
          static_cast<uint8_t>(payloadLength >> 24),
          static_cast<uint8_t>(tag & kRecordTagMask),
          0,
          0,
          0};
}

}  // namespace coralsim::usb
