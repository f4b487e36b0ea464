#pragma once
// The 4-byte identity copy (docs/decoding-log.md "ring4copy" §C): the RingCanary convolutions' identity
// computes copy their tile's block of the image, C channels a position read as C / 4 four-byte K
// groups, out of the passes of a staging window into the interior of the padded grid. The walk:
// Nest37 level 0 the K groups (4 bytes apart), level 1 the row's T positions (C bytes apart), level 2
// the rows (stride 0: each row reads the window's next pass, as the one-byte copy's level 3 does).
// Each K group is one output unit: lane c = sum_g x_g b[4c + g] over the kept 16-byte block b (the
// prologue's 4 x 4 identity), requantised. The output nest (Output37) then has an implicit innermost
// level over the K groups, one unit apart: its level-0 step becomes the carry applied when a
// position ends (stride step + C/4 - 1 units), and slot 0's carry takes the row's last group to the
// next grid row (3 C/4 - (C/4 - 1) = 17 units in 12 x 128 x 32: a grid row of G = T + 2 positions,
// 272 units, after 32 positions of 8 groups). The rung checks the packet before it runs this.

#include <cstdint>
#include <span>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/addressed_memory.h"
#include "models/lle/lle_fields.h"
#include "models/lle/loop_nest.h"
#include "models/lle/requantizer.h"
#include "models/lle/staging_window.h"

namespace coralsim::lle {

// Output37 with the K groups as an extra innermost level (level 0 here, the packet's levels 1-7).
using GroupedOutputNest = LoopNest<isa::kComputeNestLevels + 1>;

// `firstUnit` from ComputeOutputAt / 4; `groups` = C / 4 K groups a position.
[[nodiscard]] GroupedOutputNest groupedOutputNest(std::span<const isa::Word128> words, int64_t firstUnit, uint64_t groups);

struct GroupIdentityCopy {
  uint64_t groups = 1;   // C / 4: K groups a position (ComputeK4W1 + 1)
  uint64_t columns = 0;  // T: positions a row (ComputeNest37Limit1 + 1)
  uint64_t rows = 0;     // R: rows (ComputePositions + 1, Nest37 level 2)

  // Preconditions (checked by the caller): `firstPass` + rows passes exist and each holds 4 C T bytes
  // (C = 4 groups), `out` has groups x T x R units inside `narrow`, `block` holds at least 16 bytes.
  void run(const StagingWindow& window, uint64_t firstPass, std::span<const uint8_t> block, const Requantizer& requant,
           const GroupedOutputNest& out, AddressedMemory& narrow) const;
};

}  // namespace coralsim::lle
