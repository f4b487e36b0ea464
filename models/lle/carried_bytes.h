// The bytes a ring send carries from a sent read, with which of them are undefined (docs/decoding-log.md "convx",
// "trkrun" §A): a byte no packet of this run wrote -- or one a packet wrote with a value not decoded, such as the lanes a
// one-lane max pass leaves in its 4-byte output element -- is carried as undefined and lands unwritten, so definedness
// moves with the data byte by byte (the max pass's maximum is lane 0 of a unit whose lanes 1-3 are undefined: a unit-wise
// mark, mesh_stream.h's, would lose it). Plain C++.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "models/lle/addressed_memory.h"

namespace coralsim::lle {

struct CarriedBytes {
  std::vector<uint8_t> bytes;
  std::vector<bool> undefined;  // one a byte; empty when every byte is defined

  [[nodiscard]] bool isUndefined(uint64_t k) const { return k < undefined.size() && undefined[k]; }

  // `groups` 4-byte groups `strideUnits` units apart from byte `address` of `narrow`; none when a group leaves the memory.
  [[nodiscard]] static std::optional<CarriedBytes> gather(const AddressedMemory& narrow, uint64_t address, uint64_t groups,
                                                          int64_t strideUnits) {
    CarriedBytes carried;
    carried.bytes.reserve(4 * groups);
    for (uint64_t g = 0; g < groups; ++g) {
      const int64_t at = static_cast<int64_t>(address) + 4 * static_cast<int64_t>(g) * strideUnits;
      if (at < 0 || static_cast<uint64_t>(at) + 4 > narrow.capacity()) return std::nullopt;
      const std::vector<uint8_t> group = narrow.readAnyway(static_cast<uint64_t>(at), 4);  // an undefined byte's value never matters
      for (uint64_t b = 0; b < 4; ++b) {
        if (narrow.firstUnwritten(static_cast<uint64_t>(at) + b, 1)) {
          carried.undefined.resize(4 * groups, false);
          carried.undefined[4 * g + b] = true;
        }
      }
      carried.bytes.insert(carried.bytes.end(), group.begin(), group.end());
    }
    return carried;
  }

  // Bytes [from, from + length) landed at `address` of `narrow`: defined ones written, undefined ones left unwritten (forgotten
  // over whatever the bytes held). False when the range leaves the memory.
  bool writeInto(AddressedMemory& narrow, uint64_t address, uint64_t from, uint64_t length) const {
    if (address > narrow.capacity() || length > narrow.capacity() - address) return false;
    if (undefined.empty()) return narrow.write(address, std::span<const uint8_t>(bytes).subspan(from, length));
    for (uint64_t k = 0; k < length; ++k) {
      if (isUndefined(from + k)) {
        narrow.forget(address + k, 1);
      } else {
        (void)narrow.write(address + k, std::span<const uint8_t>(bytes).subspan(from + k, 1));
      }
    }
    return true;
  }
};

}  // namespace coralsim::lle
