// The execution-only receive of one transfer (docs/decoding-log.md "trkrun" §B). An execution-form 0x11 whose loop runs once
// (Recv11ExecRun 0) and writes no prefix is, in most corpus programs, the pop-fed single-transfer input form: the staging
// 0x14 its tiles armed just before it (a partner copy of its words) places the pop's bytes, and it arms no stream. Without
// such a write on any of its tiles it is a weight stream of one transfer: in the colour templates (@ 0x00a9, all 16 tiles,
// tag 2078) the pixel walk on its tag runs next, then a stream-feeding pop (PopStreamFeed 3) into the receive's tiles and a
// host-bound weight-feed send from tile 3 carry the one parameter row the caching run left there (the 1 x 1 colour
// filter), as "feed2"'s feeds do for the streams a convolution took (scripts/scan_run0_weight_receives.py).
#pragma once

#include <cstdint>
#include <span>

#include "models/lle/tile_state.h"

namespace coralsim::lle {

// Whether a one-transfer execution-only receive on the tiles of `mask` arms a weight stream: none of them holds a staging
// write armed for its pop (TileState::stagedWriteAt).
[[nodiscard]] bool oneTransferReceiveArmsAStream(uint16_t mask, std::span<const TileState> tiles);

}  // namespace coralsim::lle
