// The consumer marks of a read routed (0, 1) -- w3 bit 107 without bit 105, the stream beats in word 2
// (lle_fields.def Stage13TakenByCompute, w4 bit 35, and Stage13LeavesTile, w4 bit 39; docs/decoding-log.md
// "loomgab"). One-hot in the 878 corpus reads of the form that set either alone: bit 39 where the bytes leave
// the tile (a 0x10 send or a 0x14 moves them: the rung's sent-read path), bit 35 where a compute on the
// read's tiles takes them as the stream its ComputeStreamTag names -- the next compute, or one issued just
// before the read and waiting for it (looming 64^2 @ 0x0122). The second is executed (streamed_product.h,
// docs/decoding-log.md "loom35"): the read feeds the compute of one-byte elements issued just before it on its
// tiles; a read taken by a compute issued after it is refused by name rather than run as a send (at run time; the static
// check accepts the kept-operand form of kept_operand_read.h, "trk15"). A third form, bits
// 35, 36 and 38 (Stage13TakenByCopy / Stage13TakenByCopyHigh, "mnv1b"), is a read a 0x14 next on its tiles copies.
#pragma once

#include <string>

#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

// True for a read routed (0, 1) with bit 35 alone: a compute on its tiles takes its bytes.
[[nodiscard]] bool isTakenByCompute(const models::DecodedPacket& packet);

// True for a read routed (0, 1) with bits 35, 36 and 38 (w4[42:35] = 0x0b, docs/decoding-log.md "mnv1b"): the 0x14 next
// on its tiles takes its bytes and names it (Stage14CopyStream = Stage13Channel; read_copy_watch.h checks that).
[[nodiscard]] bool isTakenByCopy(const models::DecodedPacket& packet);

// "" for a packet that is not a read routed (0, 1), one whose bytes leave the tile (bit 39 alone), or one taken
// by a compute when `computeWaits` (the compute issued just before it on its tiles waits for the stream); else
// why the rung does not run it (both marks, neither, or the bytes taken by a compute issued after it).
[[nodiscard]] std::string routedReadMarkProblem(const models::DecodedPacket& packet, bool computeWaits);

}  // namespace coralsim::lle
