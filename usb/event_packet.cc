#include "usb/event_packet.h"

#include <stdexcept>
#include <string>

namespace coralsim::usb {

std::array<uint8_t, kEventPacketBytes> encodeEventPacket(const EventPacket& event) {
  std::array<uint8_t, kEventPacketBytes> p{};
  for (size_t i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(event.address >> (8 * i));
  for (size_t i = 0; i < 4; ++i) p[8 + i] = static_cast<uint8_t>(event.length >> (8 * i));
  p[12] = event.tag & kRecordTagMask;
  return p;
}

EventPacket decodeEventPacket(std::span<const uint8_t> packet) {
  if (packet.size() != kEventPacketBytes) {
    throw std::invalid_argument("event packet of " + std::to_string(packet.size()) +
                                " bytes (an event is exactly 16 bytes)");
  }
  EventPacket d;
  for (size_t i = 0; i < 8; ++i) d.address |= uint64_t{packet[i]} << (8 * i);
  for (size_t i = 0; i < 4; ++i) d.length |= uint32_t{packet[8 + i]} << (8 * i);
  d.tag = packet[12] & kRecordTagMask;
  return d;
}

}  // namespace coralsim::usb
