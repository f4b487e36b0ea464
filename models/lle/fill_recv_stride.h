#pragma once
// The immediate 0x17's level-0 stride where its receive stride is not 1 (docs/decoding-log.md "trk15" §D): every corpus
// immediate fill with Mesh17RecvStride 2 (46 packets: the 0x03 chains' weight pairs 1 / 256 of the trackers, MobileNet v1,
// the ensemble, nin_cnn) writes two units, level 0 alone counting (Fill17Step = 1: the run mask of level 0, the slot the
// mesh sides' per-level run mask occupies) and level 1's carry = -limit x 2, which returns exactly the walk of a
// level-0 stride of 2 (as the 179 stride-1 fills' carry -limit returns a stride of 1). So the stride is the receive
// stride; the pair 1 / 256 lands on alternate units, (1, 256, 1, 256) from the first unit, the four units the read
// after them takes. Only this shape is accepted: another stride with another run mask or another carry stays refused.

#include <cstdint>
#include <optional>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

// The level-0 stride a non-1 receive stride gives an immediate fill of that shape, or nothing where the shape differs.
[[nodiscard]] inline std::optional<int64_t> fillRecvStrideAsLevelZero(std::span<const isa::Word128> words) {
  const auto stride = static_cast<int64_t>(readField(words, LleField::Mesh17RecvStride));
  const auto limit0 = static_cast<int64_t>(readField(words, LleField::Fill17Limit, 0));
  if (stride <= 1 || limit0 == 0 || readField(words, LleField::Fill17Step) != 1) return std::nullopt;
  for (unsigned level = 1; level < fieldDef(LleField::Fill17Limit).count; ++level) {
    if (readField(words, LleField::Fill17Limit, level) != 0) return std::nullopt;
  }
  if (readSigned(words, LleField::Fill17Carry, 0) != -limit0 * stride) return std::nullopt;
  return stride;
}

}  // namespace coralsim::lle
