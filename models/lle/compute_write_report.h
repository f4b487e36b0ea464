// reportComputeWrite: hands a compute observer (compute_observer.h) what one tile of a compute packet
// wrote, read back from its narrow memory at the addresses the packet's output nest names — the bytes
// the tile holds, whatever kernel wrote them. Called only where an observer is set (the rung's cost
// without one is the null check).
#pragma once

#include <cstdint>
#include <vector>

#include "models/lle/addressed_memory.h"
#include "models/lle/compute_observer.h"

namespace coralsim::lle {

// The narrow byte address of each position an output nest (loop_nest.h) writes, in its order:
// position n, the nest's n-th unit u, takes `unitsPerPosition` consecutive units from
// firstUnit + (u - firstUnit) x unitsPerPosition (conv_compute.cc: an 8-lane convolution's lane
// groups side by side, docs/decoding-log.md "bcast10" §C; 1 for every 4-lane form).
template <typename Nest>
[[nodiscard]] std::vector<uint64_t> positionAddresses(const Nest& nest, uint64_t unitsPerPosition) {
  std::vector<uint64_t> at;
  at.reserve(nest.units());
  nest.forEachUnit([&](int64_t unit) {
    const int64_t first = nest.firstUnit + (unit - nest.firstUnit) * static_cast<int64_t>(unitsPerPosition);
    at.push_back(static_cast<uint64_t>(first) * 4);
  });
  return at;
}

inline void reportComputeWrite(ComputeObserver& observer, const models::DecodedPacket& packet, unsigned tile, ComputeForm form,
                               unsigned bytesPerPosition, const std::vector<uint64_t>& positionAt, const AddressedMemory& narrow) {
  std::vector<uint8_t> bytes;
  bytes.reserve(positionAt.size() * bytesPerPosition);
  std::vector<uint8_t> undefined;  // filled only when some position is undefined
  for (size_t p = 0; p < positionAt.size(); ++p) {
    const uint64_t at = positionAt[p];
    if (narrow.firstUnwritten(at, bytesPerPosition)) {
      // An undefined position ("convx"): its bytes are whatever the memory held, marked so a checker skips them.
      undefined.resize(positionAt.size(), 0);
      undefined[p] = 1;
      const std::vector<uint8_t> any = narrow.readAnyway(at, bytesPerPosition);
      bytes.insert(bytes.end(), any.begin(), any.end());
      continue;
    }
    const auto written = narrow.read(at, bytesPerPosition);
    bytes.insert(bytes.end(), written.begin(), written.end());
  }
  observer.computed(packet, tile, ComputeWrite{form, bytesPerPosition, positionAt, bytes, undefined});
}

}  // namespace coralsim::lle
