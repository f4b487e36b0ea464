// The max pool, opcode 0x02 with Max02Lanes 0 (docs/decoding-log.md "maxpool", max_pool_form.h): the graphs' MAX_POOL_2D
// (nin_cnn's two layers, one 0x02 a tile; ensemble's four; voice_commands'). Read through 0x01's fields it is the average
// pool's form ("pool4" §B) in every corpus one (81 / 81: ComputeInputBytes 0 and its code 0, ComputeCodeW9 0, zero points
// and bias 0, multiplier 1.0 or 1 - 2^-24, clamps the byte range or +-inf): the kept stream walked by Nest29 in windows of
// ComputeK4W10 + 1 taps, outputs along Output37. Two differences, both read from the packet: its input nest is idle (every
// Nest37 limit and ComputeInputAt4 0: no unit of ones is read, nothing weighs the taps), and the reduction is the largest
// tap. The epilogue follows the maximum, as the softmax passes' does (lle_rung_max_reduce.cc): with a positive multiplier
// it is monotone, so the order cannot be seen; another multiplier is refused.
#include <cmath>
#include <string>

#include "models/lle/compute_epilogue.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"

namespace coralsim::lle {

void LleRung::computeMaxPool(const models::DecodedPacket& packet) {
  const auto words = packet.words;
  const std::string form = "Max02Lanes = 0 (the max pool's form, read as 0x01's): ";
  // The taps are the stream's bytes alone: an input nest that counts (or an input address) would weigh them, not decoded.
  if (!isIdleInputNest(words)) {
    refuse(packet, form + "the input nest (Nest37, ComputeInputAt4, ComputeInputBytes) is not idle; every corpus max pool's is "
                          "(nothing weighs its taps), a weighed maximum is not decoded");
  }
  const float mult = readEpilogue(packet).mult;
  if (!std::isfinite(mult) || !(mult > 0.0f)) {
    refuse(packet, form + "ComputeMult (word 15 bits 60:29) = " + std::to_string(mult) +
                       ": only a finite positive multiplier keeps the maximum the maximum");
  }
  computeWindowPool(packet, PoolReduction::kMax);
}

}  // namespace coralsim::lle
