// The 16-byte event packet of EP 0x82 (docs/usb-protocol.md §4.2): [u64 LE address][u32 LE
// length][tag in the low nibble of byte 12][3 ignored bytes]. Completion of an executable run is
// the event {address 0, length 0, tag 4}.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "driver/device_introspection.h"

namespace coralsim::driver {

inline constexpr size_t kEventPacketBytes = 16;
inline constexpr uint8_t kCompletionTag = 4;  // sc host interrupt 0

// Decodes one event. Throws std::invalid_argument when `packet` is not exactly 16 bytes (libedgetpu
// treats any other size as data loss).
DeviceDescriptor decodeEventPacket(std::span<const uint8_t> packet);
std::array<uint8_t, kEventPacketBytes> encodeEventPacket(const DeviceDescriptor& event);

}  // namespace coralsim::driver
