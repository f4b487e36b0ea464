// The 4-byte interrupt packet of EP 0x83 (docs/usb-protocol.md §4.3): a u32 LE bitmap, silent in
// normal operation; bit 0 is the fatal-error interrupt. The device encodes it (sim/usb_function),
// every host transport decodes it to fail transfers at once on a fault.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace coralsim::usb {

inline constexpr size_t kInterruptPacketBytes = 4;

namespace interrupt_bit {
inline constexpr uint32_t kFatalError = 1u << 0;
}  // namespace interrupt_bit

[[nodiscard]] constexpr std::array<uint8_t, kInterruptPacketBytes> encodeInterruptPacket(uint32_t bits) {
  return {static_cast<uint8_t>(bits), static_cast<uint8_t>(bits >> 8), static_cast<uint8_t>(bits >> 16),
          static_cast<uint8_t>(bits >> 24)};
}

// The bitmap of one interrupt packet; nullopt when `packet` is not exactly 4 bytes (a transport
// ignores such a completion, as libedgetpu does).
[[nodiscard]] constexpr std::optional<uint32_t> decodeInterruptPacket(std::span<const uint8_t> packet) {
  if (packet.size() != kInterruptPacketBytes) return std::nullopt;
  return uint32_t{packet[0]} | uint32_t{packet[1]} << 8 | uint32_t{packet[2]} << 16 | uint32_t{packet[3]} << 24;
}

}  // namespace coralsim::usb
