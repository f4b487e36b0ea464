// Opcode 0x03, the softmax's sum (docs/decoding-log.md "sum03"): read through 0x01's fields, all 23 corpus 0x03s (the 14
// tracker templates, MobileNet v1 x5 compiles, the ensemble x3, nin_cnn) are 0x01 compute packets of the softmax max pass's
// form (bright's first 0x02: beats of ComputeK4W0 + 1 four-byte groups, Nest29 repeating the w0 nest, the w10 nest's level 0
// counting the groups, an idle input nest) over a stream of 16-bit elements (ComputeWideWeights) with the tile's table applied
// (ComputeNluApply) into 16-bit results (ComputeSixteenBitResults). The one bit outside 0x01's fields that no 0x01 carries is
// w15 bit 27 (23 / 23 0x03s, 0 / 11,409 0x01s), pinned by the envelope. So the envelope and the relations read the packet
// with 0x01's layout (as the max pool's 0x02, max_pool_form.h).
#pragma once

#include <cstdint>

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

inline constexpr uint8_t kSumOpcode = 0x03;

// The opcode whose field table lays out a 0x03: 0x01's, every corpus one (no other form of 0x03 is seen).
[[nodiscard]] constexpr bool isSumOpcode(uint8_t opcode) { return opcode == kSumOpcode; }

}  // namespace coralsim::lle
