// The transfer an input-class infeed 0x25 takes from the host (docs/decoding-log.md "infeed64k"):
// its ring of InfeedRingLimit + 1 eight-byte units fills InfeedWraps64K whole times, then once more
// with InfeedLines + 1 units when the line loop applies its wrap (InfeedLineWrapOn), or whole when it
// does not (the transfer is then a whole number of rings). The size equals the host's DMA hint for
// the infeed in 114 / 114 hinted corpus input infeeds (60 without a wrap, 54 with 1 .. 8), so the
// run's input stream is these transfers back to back, and an input pop's offset counts from the
// start of its infeed's transfer (split_concat and conv 1024^2 pop from offset 0 after each infeed).
#pragma once

#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct InputInfeedTransfer {
  uint64_t ringUnits = 0;      // InfeedRingLimit + 1 (8-byte units)
  uint64_t wholeRings = 0;     // InfeedWraps64K: fills of the whole ring before the last one
  uint64_t lastFillUnits = 0;  // the last fill: InfeedLines + 1, or the whole ring without the line wrap

  [[nodiscard]] static InputInfeedTransfer fromPacket(std::span<const isa::Word128> words) {
    InputInfeedTransfer t;
    t.ringUnits = readField(words, LleField::InfeedRingLimit) + 1;
    t.wholeRings = readField(words, LleField::InfeedWraps64K);
    t.lastFillUnits = readField(words, LleField::InfeedLineWrapOn) != 0 ? readField(words, LleField::InfeedLines) + 1 : t.ringUnits;
    return t;
  }

  [[nodiscard]] uint64_t bytes() const { return kUnitBytes * (wholeRings * ringUnits + lastFillUnits); }

  static constexpr uint64_t kUnitBytes = 8;
};

}  // namespace coralsim::lle
