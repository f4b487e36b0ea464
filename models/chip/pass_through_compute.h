// Whether a compute packet is a pass-through: its epilogue leaves the accumulator as it is —
// multiplier 1.0, no clamp (ClampHi +inf, ClampLo -inf) and zero points 0 (the ComputeEpilogue
// fields of models/isa/packet_fields.def). Every layer output the compiler writes is requantised into
// its 8-bit range (finite clamps: 255 - zp_out or the activation bound), so a packet without a clamp
// computes no layer's output: it moves bytes for a layer (the identity copies that stage an input in
// its padded grid, the element-wise passes through the kept 4 x 4 identity block, model_dense's
// copies of its 12 input bytes before its first Dense) or feeds a later pass. The layer map
// (sim/profile/layer_mapping.h) keeps these off the MAC axis: their loop iterations are copy steps,
// not the MAC work of a layer.
//
// Corpus (docs/decoding-log.md "dense44" §A): 1,797 of 11,409 compute packets have clamps +-inf;
// 1,788 of them the whole identity epilogue (the identity copies, one-byte and 4-byte ring, the
// unrequantised element-wise passes, MobileNet v1's passes after its last pointwise layer); none
// carries a parameter prefix (no bias, no per-lane scale: no layer's weights). The 9 with clamps
// +-inf and another multiplier or zero point (ComputeInputBytes 0: the average-pool form) are not
// pass-throughs here.
#pragma once

#include <span>

#include "models/isa/opcodes.h"
#include "models/isa/word128.h"

namespace coralsim::models {

// True for a 0x01 compute packet with the identity epilogue above; false for every other packet
// (the 0x02 / 0x03 computes and the DMA packets are not classified).
[[nodiscard]] bool isPassThroughCompute(isa::Opcode opcode, std::span<const isa::Word128> words);

}  // namespace coralsim::models
