// The register sequences libedgetpu runs when it opens and closes a Coral USB Accelerator in its
// default single-endpoint mode (docs/usb-protocol.md §5.3 and §5.4, step for step), so that the
// same driver brings up the simulator and a real device. The chip is normally already in reset
// when the host opens it (scu_ctrl_3 force_sleep = 3); then EnableReset is skipped, exactly as
// real hardware's usbmon counts show (§5.5).
#pragma once

#include <chrono>
#include <cstdint>

#include "driver/transport/transport.h"

namespace coralsim::driver {

// The clock setting QuitReset writes into scu_ctrl_3 bits 28..31 (docs/usb-protocol.md §5.2).
enum class ClockPerformance : uint8_t { kMax, kHigh, kMedium, kLow };

// The setting a host asks for when the chip is simulated at `mhz` (500 / 250 / 125 / 63 MHz for
// max / high / medium / low): the fastest one not above `mhz`, low below 125. One mapping for
// every front end that takes a clock (`coralsim run --clock-mhz`, libedgetpu's clock option).
[[nodiscard]] ClockPerformance clockPerformanceForMhz(uint64_t mhz);

struct OpenOptions {
  ClockPerformance performance = ClockPerformance::kMax;  // libedgetpu1-max
  // descr_ep: 0xF0 (interrupt events only, libedgetpu's default) or 0xFF (every descriptor).
  uint64_t descriptorEventMask = 0xF0;
  // outfeed_chunk_length in 8-byte units: 0x80 (1 KiB) on SuperSpeed, 0x20 (256 B) on High speed.
  bool highSpeedLink = false;
  std::chrono::milliseconds pollTimeout{5000};
};

// §5.3 steps 1..51 (the IN URBs of steps 52..54 are the transport's business).
void openChip(Transport& transport, const OpenOptions& options);

// §5.4 steps 0..39: cancels the transport's own URBs, disables interrupts, halts the scalar core
// and the tiles and puts the GCB back into reset.
void closeChip(Transport& transport, std::chrono::milliseconds pollTimeout);

// scu_ctrl_3 fields (docs/usb-protocol.md §5.2).
namespace scu_ctrl_3 {
inline constexpr unsigned kCurPwrStateShift = 8;  // bits 8..9, read-only status
inline constexpr unsigned kForceSleepShift = 22;  // bits 22..23
inline constexpr unsigned kClockShift = 28;       // bits 28..31: clkdiv, axi_125m, 8051_250m
inline constexpr uint32_t kForceSleepReset = 3;   // GCB held in reset
inline constexpr uint32_t kForceSleepRun = 2;
inline constexpr uint32_t kPwrStateReset = 2;
inline constexpr uint32_t kPwrStateRun = 0;
}  // namespace scu_ctrl_3

}  // namespace coralsim::driver
