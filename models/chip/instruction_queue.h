// InstructionQueue: tag-0 records from the host become instruction chunks for the scalar core.
//
// Each record is one chunk (docs/isa.md §2.1: chunks continue one logical program). The core runs
// a chunk only once all of it has arrived (it is predecoded whole, and branches go backwards), so
// the chunk the core needs next is always accepted in full; beyond it the queue buffers at most
// ChipConfig::instructionBufferBytes of later chunks and then stops accepting: the host's OUT
// transfer stays pending (docs/usb-protocol.md §3.2, ~28 KiB measured on hardware). A program sent
// while the core is idle is simply buffered (edgetpuxray simple.py order).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>

#include <systemc>

#include "models/chip/block_interfaces.h"
#include "models/chip/chip_ports.h"
#include "units/units.h"

namespace coralsim::models {

class InstructionQueue : public sc_core::sc_module, public ByteSinkIf, public InstructionFetchIf {
 public:
  explicit InstructionQueue(const sc_core::sc_module_name& name);

  void configure(units::Bytes buffer);
  // Drops every chunk, complete or not (GCB reset).
  void reset();

  // ByteSinkIf (the bridge)
  void beginRecord(uint32_t length) override;
  size_t tryWrite(std::span<const uint8_t> bytes) override;
  [[nodiscard]] const sc_core::sc_event& spaceEvent() const override { return spaceEvent_; }
  [[nodiscard]] uint32_t freeBytes() const override;

  // InstructionFetchIf (the scalar core)
  std::optional<InstructionChunk> tryTakeChunk() override;
  [[nodiscard]] const sc_core::sc_event& chunkEvent() const override { return chunkEvent_; }

 private:
  struct PendingChunk {
    InstructionChunk chunk;
    uint32_t length = 0;  // from the record header
    [[nodiscard]] bool complete() const { return chunk.bytes.size() >= length; }
  };

  // Bytes held in chunks after the one the core needs next (what flow control bounds).
  [[nodiscard]] uint64_t bytesAhead() const;

  std::deque<PendingChunk> chunks_;  // not yet taken by the core; back() may be incomplete
  uint64_t nextSequence_ = 0;
  uint32_t bufferBytes_ = 28 * 1024;
  sc_core::sc_event spaceEvent_;
  sc_core::sc_event chunkEvent_;
};

}  // namespace coralsim::models
