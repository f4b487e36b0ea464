#pragma once
// The identity copy's arithmetic (docs/decoding-log.md "identcopy"): the T x R positions of a compute
// with one-byte input elements, C channels each, from the passes of a staging window into the units of
// its output nest. Row r takes pass `firstPass` + r; position n of the output nest's walk (level 0
// fastest) is row n / T, column n % T, and its channels are bytes C (n % T) .. C (n % T) + C - 1 of the
// pass after its first `firstByte` bytes. The position's 4-byte group is its channels followed by zero bytes (zero point 0); lane c of
// the output unit is sum_g x_g b[4c + g] over the 16-byte block b (the prologue's 4 x 4 identity),
// requantised. The rung checks the packet (fields, passes left, bounds) before it runs this; the
// corpus test runs it on the corpus's own packets.

#include <cstdint>
#include <span>

#include "models/lle/addressed_memory.h"
#include "models/lle/output_nest.h"
#include "models/lle/requantizer.h"
#include "models/lle/staging_window.h"

namespace coralsim::lle {

struct IdentityCopy {
  uint64_t columns = 0;   // T: positions a row (ComputeLimitW0[0] + 1)
  uint64_t rows = 0;      // R: rows (ComputeLimitW0[2] + 1)
  uint64_t channels = 1;  // C: one-byte channels a position (ComputeK4W0 + 1), at most 4
  uint64_t firstByte = 0; // byte of each pass the row starts at (ComputeInputByte, 0 ... 3)

  // Preconditions (checked by the caller): `firstPass` + rows passes exist and each holds firstByte + C T bytes,
  // `out` has T R units inside `narrow`, `block` holds at least 16 bytes.
  void run(const StagingWindow& window, uint64_t firstPass, std::span<const uint8_t> block, const Requantizer& requant,
           const OutputNest& out, AddressedMemory& narrow) const;
};

}  // namespace coralsim::lle
