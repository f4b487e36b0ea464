// DescriptorUnit: where the scalar core's descriptor pushes (store-slot op 6) go.
//
// Every descriptor is logged and forwarded, in order, to the bridge's event path (the bridge
// sends it on EP 0x82 only if descr_ep enables its tag; tag 0 never leaves). Before that, the
// descriptor acts on the chip (docs/isa.md §3.8):
//   any tag   closes the open output window (its unfilled remainder is produced first)
//   tag 1/2   the input / parameter infeed must consume `length` bytes of that host stream
//   tag 3     opens an output window of `length` bytes
//   tag 4..7  host interrupts (the tag-4 event with length 0 ends every executable run)
//
// Cost model: 0 chip cycles beyond the pushing bundle's issue cycle [Stage A].
#pragma once

#include <vector>

#include <systemc>

#include "models/chip/block_interfaces.h"
#include "models/chip/chip_ports.h"

namespace coralsim::models {

class DescriptorUnit : public sc_core::sc_module, public DescriptorSinkIf {
 public:
  sc_core::sc_port<InfeedIf> infeed;
  sc_core::sc_port<OutfeedIf> outfeed;
  sc_core::sc_port<EventStreamIf> events;

  explicit DescriptorUnit(const sc_core::sc_module_name& name);

  void reset() { log_.clear(); }

  void push(const Descriptor& descriptor, uint64_t cycle) override;
  [[nodiscard]] const std::vector<Descriptor>& log() const override { return log_; }

 private:
  std::vector<Descriptor> log_;
};

}  // namespace coralsim::models
