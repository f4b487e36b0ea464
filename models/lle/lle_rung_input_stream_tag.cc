// The host's input stream and the kept read on its tag (docs/decoding-log.md "wait2"). Where the image is streamed in
// (MobileNet v2 wo_fc 512² / 1024×512, the PoseNet 481×641 decoders, edgetpuxray's div2 8 / 10 aarch64), the compile
// arms an execution-only 0x11 on the input's tiles and pops the input into them (PopIsInput): the pop places the
// activations (LleRung::resolvePops), the 0x11 names them by a stream tag. A 0x13 kept read (Stage13Route 0, 0) of a
// 16-byte block on the same tag comes next on those tiles, and the input copy computes after it name that tag. In the
// corpus those computes (30 / 30) have a kept read on their tag after the 0x11 on all their tiles and one 4-byte K group,
// no prefix: the walked element-wise form, the block its weights ("eltwise" §B, "conv1024"), the input its operand. No
// send or pop ever feeds them: read as weight streams they were the "second convolution waiting for its weight-feed send"
// of wo_fc 1024×512 @ 0x02a1 and PoseNet 481×641 @ 0x0616, which no corpus tile has otherwise (every host weight-feed
// send and every ring send of wide rows finds exactly one taker waiting on each tile it feeds: scan_waiting_takers.py).
// So the kept read takes the tag from the input stream; a kept read on the tag of a weight stream no input pop fed
// (0 corpus tile-reads) is refused by name.

#include <string>

#include "models/isa/number_text.h"
#include "models/lle/lle_rung.h"

namespace coralsim::lle {

// An input pop (PopIsInput, not a stream feed) into tiles whose armed stream is an execution-only 0x11's: that stream
// is the host's input, its bytes the activations the pop places, not a weight stream's rows.
void LleRung::markHostInputStreams(uint16_t tiles) {
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if ((tiles & (1u << t)) && weightStreams_[t] && weightStreams_[t]->opcode == 0x11) weightStreams_[t]->hostInput = true;
  }
}

// A kept read on tile t under stream tag `channel`: where the host's input stream holds that tag, the read takes it
// (the next compute on the tag takes the block, not the stream); a weight stream on the tag is refused.
void LleRung::keptReadTakesStreamTag(const models::DecodedPacket& packet, unsigned t, uint64_t channel) {
  if (!weightStreams_[t] || weightStreams_[t]->tag != channel) return;
  if (!weightStreams_[t]->hostInput) {
    refuse(packet, "a kept read (Stage13Route 0, 0) on stream tag " + std::to_string(channel) + " (Stage13Channel) on tile " + std::to_string(t) +
                       ", where the weight stream armed at PC 0x" + isa::formatAddress(weightStreams_[t]->pc) +
                       " holds the same tag and no input pop fed it: which one the next compute takes is not decoded (0 corpus tile-reads)");
  }
  weightStreams_[t].reset();
}

}  // namespace coralsim::lle
