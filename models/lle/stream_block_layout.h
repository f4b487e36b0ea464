// Where the output blocks of a host weight stream (an execution-only 0x11 with a prefix) lie in the wide bytes the
// convolution reads (docs/decoding-log.md "dec17").
//
// The compute-feeding write after the receive names the stream's blocks (Stage14StreamPrefixBlocks + 1), and they are
// either the receive's levels 2-3 or its levels 1-3 ("bias14" §A). The two readings are two layouts:
//   - blocks at the receive's levels 2-3 (its level 1 idle, or counting K parts): each repetition of those levels is
//     one block, its prefix arrays, then its K groups -- one block after another. Seen in bytes: the 16-channel
//     PoseNet / BodyPix decoders' depthwise layers (6 and 12 blocks of 4 lanes; each 192-byte block is its scale,
//     bias and offset arrays then its 9 tap groups, the biases and taps the CPU twin's, and with it every byte of
//     Conv2d_1_depthwise equals the twin's);
//   - blocks at the receive's level 1 (levels 1-3): one prefix covers every block's lanes and each group row every
//     block's group -- side by side ("bias14" §D, MobileNet v2 wo_fc 224's Conv1 parameter blob; no corpus run has
//     compared its bytes yet).
// So the level that counts the blocks says the layout; the write's count says which level that is.
#pragma once

#include <cstdint>

namespace coralsim::lle {

// `levelOneRepeats` = Recv11ExecRepeat[0] + 1, `levelsTwoThreeRepeats` = (Recv11ExecRepeat[1] + 1)(Recv11ExecRepeat[2] + 1),
// `blocks` = the write's Stage14StreamPrefixBlocks + 1. True where the blocks include the receive's level 1.
[[nodiscard]] constexpr bool hostStreamBlocksLieSideBySide(uint64_t levelOneRepeats, uint64_t levelsTwoThreeRepeats, uint64_t blocks) {
  return levelOneRepeats > 1 && blocks > 1 && blocks == levelOneRepeats * levelsTwoThreeRepeats;
}

}  // namespace coralsim::lle
