// The 16-byte event packet of EP 0x82 (docs/usb-protocol.md §4.2): [u64 LE address][u32 LE
// length][tag in the low nibble of byte 12][3 ignored bytes]. One packet reports one descriptor the
// scalar core pushed (docs/isa.md §3.8); completion of an executable run is the event
// {address 0, length 0, tag 4}. The device encodes it (sim/usb_function), the host decodes it
// (driver/, traces/), both with these functions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "usb/record_header.h"

namespace coralsim::usb {

inline constexpr size_t kEventPacketBytes = 16;
// Tag of the completion event: sc host interrupt 0.
inline constexpr uint8_t kCompletionTag = static_cast<uint8_t>(RecordTag::kScalarCoreInterrupt0);

// One descriptor as the device pushed it, in the event packet's terms.
struct EventPacket {
  uint8_t tag = 0;  // 0..7 (docs/isa.md §3.8)
  uint64_t address = 0;
  uint32_t length = 0;

  friend bool operator==(const EventPacket&, const EventPacket&) = default;
};

std::array<uint8_t, kEventPacketBytes> encodeEventPacket(const EventPacket& event);

// Decodes one event. Throws std::invalid_argument when `packet` is not exactly 16 bytes
// (libedgetpu treats any other size as data loss).
EventPacket decodeEventPacket(std::span<const uint8_t> packet);

}  // namespace coralsim::usb
