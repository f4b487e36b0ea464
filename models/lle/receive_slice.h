// A staging write's copy read as its tile's slice of the receive next on its tiles (docs/decoding-log.md
// "prefix14" §A). The execution-only 0x11 receive of a distribution walks its stream's 256-byte rows from
// its tag on: (Recv11ExecRun + 1) x the repeats' counts, less Recv11ExecLastShort. Where the tiles of its
// mask each keep a part of those rows, the 0x14 before it on each tile copies not the receive but the
// receive *as its tile takes it*: the tag of its first row (the receive's tag + the rows before it), its
// own run (its rows - 1, wraps -run), no repeats, no shorter last repetition, no wait (count 0, flag 0).
// The LibrEdgeTPU bright templates deal a receive of 4 / 16 rows to four tiles, one / four rows each.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

struct ReceiveSlice {
  uint64_t firstRow = 0;  // rows of the receive before the tile's (copied tag - receive tag)
  uint64_t rows = 0;      // the tile's rows (its copy's run + 1)
  uint64_t receiveRows = 0;  // all the receive's rows
};

// 256 bytes: a receive row (64 lanes x 4 bytes, as the parameter form's rows).
inline constexpr uint64_t kReceiveSliceRowBytes = 256;

// The slice `copy` (a 0x14's words) names of `receive` (an execution-only 0x11's), or nullopt with
// `whyNot` saying which condition fails. Checks the copy's own nest (one level, wraps -run, step 1 or
// idle, no wait), its rows inside the receive's, the rest of its w0[94:74] as the receive's, and that
// the write's nest holds exactly its rows.
[[nodiscard]] std::optional<ReceiveSlice> sliceOfReceive(std::span<const isa::Word128> copy,
                                                         std::span<const isa::Word128> receive, std::string* whyNot = nullptr);

}  // namespace coralsim::lle
