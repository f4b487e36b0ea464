// The max pass's streamed read (docs/decoding-log.md "nin15"): a read routed (0, 1) with Stage13TakenByCompute whose taker
// is the NEXT compute on its tiles, an opcode-0x02 max pass of the softmax form (Max02Lanes 1 or 4) naming its
// Stage13Channel as Max02StreamTag -- not a compute issued just before it and waiting ("loom35"'s streamed operand), nor a
// compute of 16-bit weights after it ("trk15"'s kept operand, which carries Stage13FeedsReduction). In the corpus four reads
// have this shape (nin_cnn @ 0x0b48, ensemble @ 0x0cb9 / 0x139a / 0x1d8b: the classifier softmaxes' first pass over the
// class scores), all with Stage13FeedsReduction clear, and each names as many bytes in its 4-byte beats
// (Stage13SlotBeats + 1) as its pass walks (Max02Groups + 1 groups of Max02Lanes bytes). Read as: the bytes are the pass's
// stream, kept on the tile for it (the rung keeps them as the (1, 0) read kept for a pass, "bright13").
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

// True when `read` is of the form: taken by a compute (routed_read_mark.h), Stage13FeedsReduction clear. Whether a
// compute is waiting for it is the caller's (the streamed operand comes first where one is).
[[nodiscard]] bool isMaxPassStreamReadForm(const models::DecodedPacket& read);

// "" when packets[index] is of the form and on every tile of its mask the next issued compute (0x01 / 0x02 / 0x03) is
// one softmax-form 0x02 on the read's tiles naming its channel and walking exactly its bytes; otherwise why not (empty
// reason never for a read not of the form: the caller asks only of those).
[[nodiscard]] std::string maxPassStreamReadProblem(std::span<const models::DecodedPacket> packets, size_t index);

}  // namespace coralsim::lle
