// The kept-operand read (docs/decoding-log.md "trk15" §C): a read routed (0, 1) with Stage13TakenByCompute whose taker is
// the NEXT compute on its tiles, not one issued just before it and waiting ("loom35"'s streamed operand). In the corpus
// programs scanned (the 18 LibrEdgeTPU ones) 224 reads have this shape -- the trackers' one read a tile of the tile's
// exponentials before the normalisation @ 0x09cb / 0x0aec, which names their Stage13Channel as its ComputeStreamTag and
// weighs by them as 16-bit weights -- and every one carries Stage13FeedsReduction; the 16 streamed-operand reads carry
// it clear. Declared for the static check (the pairing is checked: mark, channel, the next compute on every tile of
// the mask, its wide weights); the read's gather (a (0, 2, 1, 3) unit order) and the compute are not executed.
#pragma once

#include <cstddef>
#include <span>

#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

// True when packets[index] is a read taken by a compute (routed_read_mark.h) with Stage13FeedsReduction set, and on
// every tile of its mask the next issued compute (opcode 0x01) names its Stage13Channel as ComputeStreamTag and reads
// 16-bit weights (ComputeWideWeights).
[[nodiscard]] bool nextComputeTakesKeptOperand(std::span<const models::DecodedPacket> packets, size_t index);

}  // namespace coralsim::lle
