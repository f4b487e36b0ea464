// The interfaces between the Beagle chip and the USB bridge in front of it (sim/usb_function.h).
//
// Host → chip: the record parser writes the payload of tag-0/1/2 records into ByteSinkIf exports
// of the chip. Chip → host: the chip calls ports typed with the four "...If" interfaces below,
// which the bridge implements. Every call is non-blocking and costs no simulated time; a full
// sink accepts fewer bytes and notifies spaceEvent() later (the bridge then leaves the host's OUT
// transfer pending: backpressure, never an error).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <systemc>

#include "models/scalar/scalar_engine.h"

namespace coralsim::models {

// A byte stream into the chip, fed record by record.
class ByteSinkIf : public virtual sc_core::sc_interface {
 public:
  // A record of `length` payload bytes starts (the bridge calls this once per record header).
  virtual void beginRecord(uint32_t length) = 0;
  // Accepts a prefix of `bytes` and returns its length: 0 when the sink is full.
  virtual size_t tryWrite(std::span<const uint8_t> bytes) = 0;
  // Notified whenever tryWrite may accept more than it did last time.
  [[nodiscard]] virtual const sc_core::sc_event& spaceEvent() const = 0;
  // Free space in bytes, for ep_status_credit (saturated to 32 bits).
  [[nodiscard]] virtual uint32_t freeBytes() const = 0;
};

// One outfeed DMA: one output window, in program order, exactly as long as the descriptor said:
// `bytes` (what the program produced), then `notComputedBytes` zero bytes the datapath did not
// compute (protocol mode). The zeros are not materialised: the length comes from a descriptor the
// host's program chose (up to 4 GiB), so they are produced only as a host reads them.
struct OutputDma {
  std::vector<uint8_t> bytes;
  uint64_t notComputedBytes = 0;
  [[nodiscard]] uint64_t size() const { return bytes.size() + notComputedBytes; }
};

class OutputStreamIf : public virtual sc_core::sc_interface {
 public:
  virtual void pushOutput(OutputDma dma) = 0;
};

// Every descriptor the scalar core pushes, in order (the bridge filters by descr_ep).
class EventStreamIf : public virtual sc_core::sc_interface {
 public:
  virtual void pushEvent(const Descriptor& descriptor) = 0;
};

// Interrupt bitmaps for EP 0x83 (bit 0 = fatal error).
class InterruptStreamIf : public virtual sc_core::sc_interface {
 public:
  virtual void pushInterrupt(uint32_t bits) = 0;
};

// The chip's clock and its run boundaries, read by the bridge's device clock (sim/device_clock.h):
// every bulk transfer is charged to the executable run it belongs to and stamped in device time.
class ChipClockIf : public virtual sc_core::sc_interface {
 public:
  // Chip cycles since power-on, advanced only by modelled work (never while waiting for the host).
  [[nodiscard]] virtual uint64_t cycles() const = 0;
  // Executable runs begun since power-on (the index the next run will get).
  [[nodiscard]] virtual uint64_t runsBegun() const = 0;
  // True from a run's first chunk up to its final HALT (or the fault or reset that ends it).
  [[nodiscard]] virtual bool runInProgress() const = 0;
};

// The chip asks the bridge to drop its queued events and outputs and its OUT parser state
// (GCB reset on force_sleep = 3, gcbb_credit0 pulse).
class BridgeResetIf : public virtual sc_core::sc_interface {
 public:
  virtual void flushBridge() = 0;
};

}  // namespace coralsim::models
