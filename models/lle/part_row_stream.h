// The parameter stream a part-row caching pop spread over wide rows (docs/decoding-log.md "conv7" §C): a pop with
// PopRowQuarters < 3 puts (quarters + 1) x 64 bytes of its stream at lane 0 of each row of its receive, the upper
// lanes untouched (lle_rung.cc resolvePops). model_conv's 7 x 7 convolutions are cached so, 128 bytes a row: the
// bias array in the first row, then one 32-lane weight group a row (50 rows on tile 2 for the 3-channel layer). A
// weight-feed send of those rows carries them to the convolution, which reads the stream: the rows' parts in order.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "models/lle/tile_state.h"

namespace coralsim::lle {

// `bytes` of the stream read back from wide row `firstRow` on, each row's part in turn, where the pop that wrote
// `firstRow` was a part-row one (TileState::widePartRows) and every row up to `bytes` holds a part of that width;
// nullopt where `firstRow` was not written so (a whole-row caching keeps the stream contiguous: read it there).
[[nodiscard]] std::optional<std::vector<uint8_t>> partRowStream(const TileState& tile, uint64_t firstRow, uint64_t bytes,
                                                                uint64_t rowBytes);

}  // namespace coralsim::lle
