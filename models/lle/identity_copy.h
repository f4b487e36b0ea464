#pragma once
// The identity copy's arithmetic (docs/decoding-log.md "identcopy"): the T x R positions of a compute
// with one-byte input elements, C channels each, from the passes of a staging window into the units of
// its output nest. Row r takes pass `firstPass` + r and reads M lines of it, line m from byte
// firstByte + m S (the input nest's level 2: M image rows of a pass, S = W C bytes apart in the stride-2
// PoseNet / DeepLab copies; M = 1 elsewhere, docs/decoding-log.md "level2copy"); position n of the output
// nest's walk (level 0 fastest) is row n / (T M), line n / T % M, column n % T, and its channels are bytes
// C (n % T) .. C (n % T) + C - 1 of that line. The position's 4-byte group is its channels followed by zero bytes (zero point 0); lane c of
// the output unit is sum_g x_g b[4c + g] over the 16-byte block b (the prologue's 4 x 4 identity),
// requantised. The rung checks the packet (fields, passes left, bounds) before it runs this; the
// corpus test runs it on the corpus's own packets.

#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/addressed_memory.h"
#include "models/lle/input_byte_walk.h"
#include "models/lle/lle_fields.h"
#include "models/lle/output_nest.h"
#include "models/lle/requantizer.h"
#include "models/lle/staging_window.h"

namespace coralsim::lle {

struct IdentityCopy {
  uint64_t columns = 0;   // T: positions a row (ComputeLimitW0[0] + 1)
  uint64_t rows = 0;      // R: rows (ComputeLimitW0[2] + 1)
  uint64_t channels = 1;  // C: one-byte channels a position (ComputeK4W0 + 1), at most 4
  uint64_t firstByte = 0; // byte of each pass the row starts at (ComputeInputByte, 0 ... 3)
  uint64_t lines = 1;     // M: lines a pass (ComputeLimitW0[1] + 1, the input nest's level 2)
  uint64_t lineStrideBytes = 0;  // S: bytes between two lines of a pass (the input nest's level-2 stride)

  // The bytes a row reads of its pass: up to the last line's last channel.
  [[nodiscard]] uint64_t rowSpanBytes() const { return firstByte + (lines - 1) * lineStrideBytes + channels * columns; }

  // The copy a one-byte-element compute describes: C from the K loop, T, M, R from the w0 nest's levels
  // 1-3, S from the input nest's level-2 stride (meaningful where M > 1). The caller checks that the
  // input nest walks this copy (lle_rung.cc refuseOtherIdentityWalk).
  [[nodiscard]] static IdentityCopy fromPacket(std::span<const isa::Word128> words) {
    const InputByteWalk walk = InputByteWalk::fromPacket(words, 1);
    const uint64_t lines = readField(words, LleField::ComputeLimitW0, 1) + 1;
    return {.columns = readField(words, LleField::ComputeLimitW0, 0) + 1,
            .rows = readField(words, LleField::ComputeLimitW0, 2) + 1,
            .channels = readField(words, LleField::ComputeK4W0) + 1,
            .firstByte = readField(words, LleField::ComputeInputByte),
            .lines = lines,
            .lineStrideBytes = lines > 1 && walk.strideBytes[2] > 0 ? static_cast<uint64_t>(walk.strideBytes[2]) : 0};
  }

  // Preconditions (checked by the caller): `firstPass` + rows passes exist and each holds rowSpanBytes(),
  // `out` has T M R units inside `narrow`, `block` holds at least 16 bytes.
  void run(const StagingWindow& window, uint64_t firstPass, std::span<const uint8_t> block, const Requantizer& requant,
           const OutputNest& out, AddressedMemory& narrow) const;
};

}  // namespace coralsim::lle
