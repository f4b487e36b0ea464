// A tile memory addressed the way the tile DMA packets address it: bytes at absolute addresses,
// and which of them some packet wrote in this run. The staging packets move data through it at
// their decoded addresses (0x14 Stage14NarrowAt64 writes, 0x13 Stage13NarrowAt4 reads;
// docs/decoding-log.md "xray"), so a wrongly decoded address reads bytes nobody wrote — refused —
// or the wrong bytes, instead of being absorbed by a placement rule. Plain C++ (no SystemC).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace coralsim::lle {

class AddressedMemory {
 public:
  explicit AddressedMemory(uint32_t capacity = 0) : capacity_(capacity) {}

  [[nodiscard]] uint32_t capacity() const { return capacity_; }

  // Writes `bytes` at `address`. False (nothing written) when the range leaves the memory.
  bool write(uint64_t address, std::span<const uint8_t> bytes) {
    if (address > capacity_ || bytes.size() > capacity_ - address) return false;
    if (bytes_.size() < capacity_) {  // allocated on first use: most tiles of most runs stay empty
      bytes_.resize(capacity_);
      written_.resize(capacity_);
    }
    std::copy(bytes.begin(), bytes.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(address));
    std::fill_n(written_.begin() + static_cast<std::ptrdiff_t>(address), bytes.size(), true);
    return true;
  }

  // The first address of [address, address + length) that no write of this run covered, or none.
  [[nodiscard]] std::optional<uint64_t> firstUnwritten(uint64_t address, uint64_t length) const {
    for (uint64_t a = address; a < address + length; ++a) {
      if (a >= written_.size() || !written_[a]) return a;
    }
    return std::nullopt;
  }

  // The bytes at [address, address + length); the caller checked firstUnwritten().
  [[nodiscard]] std::span<const uint8_t> read(uint64_t address, uint64_t length) const {
    return std::span<const uint8_t>(bytes_).subspan(address, length);
  }

  // The bytes at [address, address + length) whether written this run or not (0 where the memory was never
  // allocated): an undefined byte's value, read only by a compute whose results it reaches are then marked
  // undefined (undefined_outputs.h), so the value never matters.
  [[nodiscard]] std::vector<uint8_t> readAnyway(uint64_t address, uint64_t length) const {
    std::vector<uint8_t> out(length, 0);
    for (uint64_t k = 0; k < length && address + k < bytes_.size(); ++k) out[k] = bytes_[address + k];
    return out;
  }

  // [address, address + length) no longer holds bytes this run knows (a write whose data is not
  // decoded reached them): a later read is refused as if nobody had written them.
  void forget(uint64_t address, uint64_t length) {
    for (uint64_t a = address; a < address + length && a < written_.size(); ++a) written_[a] = false;
  }

  // A new run: the bytes stay (real memories keep them) but count as unwritten, so a read that
  // this run's packets did not feed is refused rather than served stale data.
  void forgetWrites() { std::fill(written_.begin(), written_.end(), false); }
  void release() {
    bytes_.clear();
    bytes_.shrink_to_fit();
    written_.clear();
    written_.shrink_to_fit();
  }

 private:
  uint32_t capacity_;
  std::vector<uint8_t> bytes_;
  std::vector<bool> written_;
};

}  // namespace coralsim::lle
