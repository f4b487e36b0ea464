// The 8-byte header of every record on the single-endpoint bulk-OUT stream (docs/usb-protocol.md
// §3.2): [u32 LE payload length][tag in the low nibble][3 zero bytes]. Declared once here because
// the host's framing, the device's parser, the USB log's record tracker and the link model's byte
// count must all agree on it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace coralsim::usb {

inline constexpr size_t kRecordHeaderBytes = 8;

// Descriptor / record tags (docs/usb-protocol.md §3.2, docs/isa.md §3.8): the tag of a bulk-OUT
// record says which stream its payload feeds; the same numbers tag the descriptors the device
// reports as events on EP 0x82 (usb/event_packet.h).
enum class RecordTag : uint8_t {
  kInstructions = 0,
  kInputActivations = 1,
  kParameters = 2,
  kOutputActivations = 3,
  kScalarCoreInterrupt0 = 4,  // 4..7 = sc host interrupt 0..3
};

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

// What a record header says: the payload length and the tag (masked as the device does).
struct RecordHeader {
  uint32_t payloadLength = 0;
  uint8_t tag = 0;
};

[[nodiscard]] constexpr RecordHeader decodeRecordHeader(std::span<const uint8_t, kRecordHeaderBytes> header) {
  return {static_cast<uint32_t>(header[0]) | static_cast<uint32_t>(header[1]) << 8 |
              static_cast<uint32_t>(header[2]) << 16 | static_cast<uint32_t>(header[3]) << 24,
          static_cast<uint8_t>(header[4] & kRecordTagMask)};
}

}  // namespace coralsim::usb
