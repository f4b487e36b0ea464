// The execution-only receive of one transfer: which form it is (one_transfer_stream.h, docs/decoding-log.md "trkrun" §B).
#include "models/lle/one_transfer_stream.h"

namespace coralsim::lle {

bool oneTransferReceiveArmsAStream(uint16_t mask, std::span<const TileState> tiles) {
  for (unsigned t = 0; t < tiles.size(); ++t) {
    if ((mask & (1u << t)) && tiles[t].stagedWriteAt) return false;
  }
  return true;
}

}  // namespace coralsim::lle
