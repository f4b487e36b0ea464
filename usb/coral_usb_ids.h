// The two USB identities of a Coral USB Accelerator (docs/usb-protocol.md §1): the ROM bootloader
// a powered-on device shows until firmware is downloaded over DFU, and the runtime personality the
// driver talks to. Host code that finds, flashes or opens a Coral uses these and nothing else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace coralsim::usb {

enum class CoralPersonality : uint8_t {
  kRuntime,     // 18d1:9302 (Google), firmware loaded
  kBootloader,  // 1a6e:089a (Global Unichip), DFU mode
};

struct CoralUsbId {
  CoralPersonality personality;
  uint16_t vendorId;
  uint16_t productId;
  std::string_view name;
};

inline constexpr CoralUsbId kCoralUsbIds[] = {
    {CoralPersonality::kRuntime, 0x18D1, 0x9302, "runtime"},
    {CoralPersonality::kBootloader, 0x1A6E, 0x089A, "bootloader"},
};

// The personality a VID:PID pair names; nullopt for any other device.
[[nodiscard]] constexpr std::optional<CoralPersonality> coralPersonalityOf(uint16_t vendorId, uint16_t productId) {
  for (const CoralUsbId& id : kCoralUsbIds) {
    if (id.vendorId == vendorId && id.productId == productId) return id.personality;
  }
  return std::nullopt;
}

[[nodiscard]] constexpr const CoralUsbId& coralUsbId(CoralPersonality personality) {
  return personality == CoralPersonality::kRuntime ? kCoralUsbIds[0] : kCoralUsbIds[1];
}

// "18d1:9302"
[[nodiscard]] std::string vidPidText(uint16_t vendorId, uint16_t productId);

}  // namespace coralsim::usb
