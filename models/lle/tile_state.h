// The functional state of one tile as the low-level datapath sees it: narrow memory (activations:
// the stream mirror the compute gathers from, and the memory as the staging packets and the
// compute address it), wide memory (parameters), the last NLU table. Plain C++: the SystemC Tile modules (models/chip/tile.h) account
// for time, this holds the numbers (docs/design-notes.md, "functional tile state").
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "models/lle/addressed_memory.h"
#include "models/lle/nlu_table.h"

namespace coralsim::lle {

// One tile memory. It holds one contiguous written range [base, base + valid): the rung writes a
// whole stream tail per pop (lle_rung.h), addressed like the stream ("mirror" addressing: stream
// byte o lands at address o), so the range says exactly which stream bytes the tile received.
class TileMemory {
 public:
  explicit TileMemory(uint32_t capacity = 0) : capacity_(capacity) {}

  [[nodiscard]] uint32_t capacity() const { return capacity_; }
  [[nodiscard]] uint64_t base() const { return base_; }
  [[nodiscard]] uint32_t valid() const { return valid_; }
  [[nodiscard]] bool holds(uint64_t address, uint64_t length) const {
    return valid_ > 0 && address >= base_ && address + length <= base_ + valid_;
  }
  // The bytes at [address, address + length); the caller checked holds().
  [[nodiscard]] const uint8_t* at(uint64_t address) const { return bytes_.data() + (address - base_); }

  // Writes `bytes` at `address`, clipped to the capacity (a tile memory holds at most `capacity`
  // bytes, whatever the stream length); replaces what the memory held. Returns the bytes written.
  uint32_t write(uint64_t address, std::span<const uint8_t> bytes) {
    const auto n = static_cast<uint32_t>(std::min<size_t>(bytes.size(), capacity_));
    if (bytes_.size() < n) bytes_.resize(n);  // allocated on first use: most tiles of most runs stay empty
    std::copy_n(bytes.begin(), n, bytes_.begin());
    base_ = address;
    valid_ = n;
    return n;
  }
  void clear() { valid_ = 0; }
  void release() {
    valid_ = 0;
    bytes_.clear();
    bytes_.shrink_to_fit();
  }

 private:
  uint32_t capacity_;
  uint64_t base_ = 0;
  uint32_t valid_ = 0;
  std::vector<uint8_t> bytes_;
};

struct TileState {
  TileMemory narrow;  // the stream mirror the compute gathers its activations from (design note 18)
  TileMemory wide;
  std::optional<NluTable> nlu;
  // Narrow memory as the staging packets address it (addressed_memory.h), and the staging DMAs
  // armed on this tile: where the next data popped to it lands (0x14), and where the next
  // outfeed send reads (0x13), with the bytes its group loop covers (0: a single line).
  AddressedMemory narrowSram;
  std::optional<uint64_t> stagedWriteAt;
  std::optional<uint64_t> stagedReadAt;
  uint64_t stagedReadBytes = 0;
};

}  // namespace coralsim::lle
