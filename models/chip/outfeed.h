// Outfeed: output windows towards the host (EP 0x81).
//
// A tag-3 descriptor opens a window of `length` bytes. Stream words (store-slot op 4) fill it
// from the scalar core; whatever is left when the next descriptor is pushed, the chunk ends
// (HALT 0x04: the host may wait for these bytes before sending the next chunk) or the final HALT
// comes is produced by the tile outfeed — in protocol mode as zero bytes flagged "not computed"
// (docs/ARCHITECTURE.md §3). Each window leaves as one OutputDma, byte-exact (no padding), in
// program order. A stream word with no open window is a fault.
//
// Cost model (chip cycles): stream words cost their bundle's issue cycle in the core. A window
// emitted at cycle c leaves at  max(c, previous window's departure) + outfeedCycles(length)
// = ceil(length / outfeedBytesPerCycle) (models/chip/cost_model.h); the final HALT waits for the
// last departure (readyCycle).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <systemc>

#include "models/chip/block_interfaces.h"
#include "models/chip/chip_ports.h"
#include "models/chip/cost_model.h"

namespace coralsim::models {

class Outfeed : public sc_core::sc_module, public OutfeedIf {
 public:
  sc_core::sc_port<OutputStreamIf> hostOut;
  sc_core::sc_port<DatapathIf> datapath;  // the tile-produced tail of each window

  explicit Outfeed(const sc_core::sc_module_name& name);

  // Power-on: no window, counters 0.
  void reset();
  void setTiming(const TimingModel& timing) { timing_ = timing; }
  // GCB reset: the open window is dropped without producing anything.
  void dropWindow() { window_.reset(); }

  // OutfeedIf
  void openWindow(uint32_t length, uint64_t cycle) override;
  void streamWord(uint32_t word, uint64_t cycle) override;
  void closeWindow(uint64_t cycle) override;
  [[nodiscard]] uint64_t readyCycle() const override { return readyCycle_; }
  [[nodiscard]] uint64_t outputBytes() const override { return outputBytes_; }
  [[nodiscard]] uint64_t notComputedBytes() const override { return notComputedBytes_; }

 private:
  struct Window {
    uint32_t length = 0;
    std::vector<uint8_t> bytes;
  };
  void emit(uint64_t cycle);

  TimingModel timing_;
  uint64_t readyCycle_ = 0;
  std::optional<Window> window_;
  uint64_t outputBytes_ = 0;
  uint64_t notComputedBytes_ = 0;
};

}  // namespace coralsim::models
