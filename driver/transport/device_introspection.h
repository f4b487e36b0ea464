// DeviceIntrospection: what only a simulated device can tell the host — simulated cycles, the log
// of every descriptor the scalar core pushed (also those descr_ep keeps off EP 0x82), whether the
// outputs were really computed, the datapath rung used, the fault text, the device time of a run
// and when each transfer completed on the device's clock. Offered by transports that
// own a simulator in the same process (Transport::introspection()); results that depend on it say
// so, because a real Coral cannot provide them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "driver/transport/run_timing.h"
#include "usb/event_packet.h"
#include "usb/usb_types.h"

namespace coralsim::driver {

// One descriptor as the device pushed it (docs/isa.md §3.8), in the event packet's terms
// (docs/usb-protocol.md §4.2): the seam's type, so a device's log passes through unchanged.
using DeviceDescriptor = usb::EventPacket;

class DeviceIntrospection {
 public:
  virtual ~DeviceIntrospection() = default;

  // Simulated cycles since the device was created (monotonic).
  [[nodiscard]] virtual uint64_t simulatedCycles() const = 0;
  // Every descriptor pushed since the device was created, in order.
  [[nodiscard]] virtual std::vector<DeviceDescriptor> descriptorLog() const = 0;
  // Whether the output bytes of the last run were computed by a datapath model; false on the
  // protocol rung (right sizes and timing, no numbers). nullopt when the device does not say.
  [[nodiscard]] virtual std::optional<bool> outputsComputed() const = 0;
  // The datapath rung the device used for the last run ("protocol", "lle", "hle"); nullopt when
  // the device does not say.
  [[nodiscard]] virtual std::optional<std::string> executionModeUsed() const = 0;
  // Why the last run did not use a higher rung (auto mode dropped it: the packet or program it
  // could not compute); nullopt when nothing was dropped or the device does not say.
  [[nodiscard]] virtual std::optional<std::string> executionModeNote() const { return std::nullopt; }
  // Oddities the device tolerated in the last run, as hardware does (docs/refusal-rules.md): a
  // tile packet addressed to no tile, a HALT without its drain NOPs, ... Empty when none or when
  // the device does not say.
  [[nodiscard]] virtual std::vector<std::string> deviceNotes() const { return {}; }
  // The output bytes of the last executable run the datapath computed from memory no packet wrote (docs/decoding-log.md
  // "raw25"): their values mean nothing, so a reader reports them undefined. Each: the run's output window (0, 1, ...: its
  // tag-3 descriptors of non-zero length, in push order) and the byte's offset in it. Empty when none or when the device
  // does not say.
  struct UndefinedOutputByte {
    uint32_t window = 0;
    uint32_t offset = 0;
  };
  [[nodiscard]] virtual std::vector<UndefinedOutputByte> undefinedOutputBytes() const { return {}; }
  // The device time of the last executable run, from the device's own clock: compute, USB link
  // and idle (sim/device_clock.h). nullopt when the device does not say.
  [[nodiscard]] virtual std::optional<RunTiming> lastRunTiming() const { return std::nullopt; }
  // When the transfer this transport completed last (the call that just returned) finished on the
  // device's clock. nullopt when the device does not say.
  [[nodiscard]] virtual std::optional<usb::SimulatedInstant> lastTransferInstant() const { return std::nullopt; }
  // The device's own description of a fault, when it has one.
  [[nodiscard]] virtual std::optional<std::string> faultText() const = 0;
};

}  // namespace coralsim::driver
