// The host side of the device's address space for one executable run. On USB the device never
// touches host memory: the 64-bit addresses linked into the instruction stream are opaque tags
// that come back in descriptors (docs/usb-protocol.md §6.3). Like libedgetpu's no-op address space
// we give every buffer (each input and output activation by layer name and batch, the parameters,
// the scratch area) its own 4 KiB-aligned base, so a descriptor's address names a buffer and an
// offset in it. Bases are deterministic: the same executable always gets the same addresses.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "driver/model/executable.h"
#include "driver/model/linker.h"

namespace coralsim::driver {

// One host buffer. Inputs, outputs and scratch own their bytes; parameters are read in place from
// the executable (`external`), they can be megabytes.
struct HostBuffer {
  BufferKind kind = BufferKind::Input;
  std::string name;  // layer name for activations, empty for parameters and scratch
  int32_t batch = 0;
  uint64_t address = 0;
  uint64_t sizeBytes = 0;
  std::vector<uint8_t> bytes;                      // owned storage (size == sizeBytes)
  const std::vector<uint8_t>* external = nullptr;  // read-only storage instead of `bytes`

  [[nodiscard]] std::span<const uint8_t> view() const { return external ? std::span<const uint8_t>(*external) : bytes; }
  // "IN 'input'", "OUT 'logits' batch 1", "PARAM", "SCRATCH".
  [[nodiscard]] std::string label() const;
  // `length` bytes from `offset`; bytes past the end read as zero (an input DMA may read a few
  // bytes past the tensor, docs/usb-protocol.md §6.1 — libedgetpu allows it within the page).
  [[nodiscard]] std::vector<uint8_t> readSlice(uint64_t offset, uint64_t length) const;
};

class HostAddressSpace {
 public:
  // Where the first buffer goes: above 4 GiB, so the upper 32-bit link points get a non-zero value.
  static constexpr uint64_t kFirstBase = 0x0000'0010'0000'0000;
  static constexpr uint64_t kPageBytes = 4096;

  HostAddressSpace() = default;
  HostAddressSpace(const HostAddressSpace&) = delete;
  HostAddressSpace& operator=(const HostAddressSpace&) = delete;

  // Adds a zero-filled buffer of `sizeBytes` (or one reading `external`, with an address window of
  // at least `sizeBytes`) at the next free base:
  // page aligned, one guard page after the previous buffer, never straddling a 4 GiB boundary (the
  // scalar core adds offsets to the low 32 bits). The reference stays valid.
  HostBuffer& add(BufferKind kind, const std::string& name, int32_t batch, uint64_t sizeBytes,
                  const std::vector<uint8_t>* external = nullptr);

  [[nodiscard]] HostBuffer* find(BufferKind kind, const std::string& name, int32_t batch);
  [[nodiscard]] const HostBuffer* find(BufferKind kind, const std::string& name, int32_t batch) const;

  struct Location {
    HostBuffer* buffer = nullptr;
    uint64_t offset = 0;
  };
  // The buffer whose window [address, next buffer's address) holds `address`.
  [[nodiscard]] std::optional<Location> resolve(uint64_t address);

  // Every buffer's base, for driver/linker.h.
  [[nodiscard]] BaseAddresses baseAddresses() const;

  [[nodiscard]] const std::deque<HostBuffer>& buffers() const { return buffers_; }
  [[nodiscard]] std::deque<HostBuffer>& buffers() { return buffers_; }

 private:
  std::deque<HostBuffer> buffers_;  // deque: references survive add()
  uint64_t nextBase_ = kFirstBase;
};

}  // namespace coralsim::driver
