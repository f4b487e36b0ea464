// The max pool's form of opcode 0x02 (docs/decoding-log.md "maxpool"): a 0x02 whose Max02Lanes is 0 walks no groups of
// its own; the whole packet is an 0x01 compute's layout -- read through 0x01's fields, the 81 corpus ones (nin_cnn,
// ensemble, voice_commands: every MAX_POOL_2D) are the average pool's form ("pool4": ComputeInputBytes 0, a kept stream
// walked by Nest29 in windows, Output37 positions) with an idle input nest, every bit outside 0x01's fields one of the
// pool marks ("gabp4" §A). So the envelope reads its decoded bits and relations as 0x01's, and the rung executes it as
// the pool with a maximum for the sum (lle_rung_average_pool.cc). The softmax form (Max02Lanes 1 or 4) keeps its Max02*
// fields.
#pragma once

#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/exp_sum_form.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

[[nodiscard]] inline bool isMaxPoolForm(uint8_t opcode, std::span<const isa::Word128> words) {
  constexpr uint8_t kMaxReduction = fieldDef(LleField::Max02Lanes).opcode;
  return opcode == kMaxReduction && words.size() > fieldDef(LleField::Max02Lanes).lsb / 128 && readField(words, LleField::Max02Lanes) == 0;
}

// The opcode whose field table lays out this packet: 0x01's for the max pool and the sum (exp_sum_form.h), the packet's
// own otherwise.
[[nodiscard]] inline uint8_t layoutOpcode(uint8_t opcode, std::span<const isa::Word128> words) {
  return isMaxPoolForm(opcode, words) || isSumOpcode(opcode) ? fieldDef(LleField::ComputeInputBytes).opcode : opcode;
}

}  // namespace coralsim::lle
