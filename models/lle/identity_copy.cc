#include "models/lle/identity_copy.h"

#include "models/lle/kept_block_weighing.h"

namespace coralsim::lle {

void IdentityCopy::run(const StagingWindow& window, uint64_t firstPass, std::span<const uint8_t> block, const Requantizer& requant,
                       const OutputNest& out, AddressedMemory& narrow) const {
  uint64_t position = 0;
  out.forEachUnit([&](int64_t unit) {
    const uint64_t line = position / columns % lines;
    const uint64_t row = position / columns / lines;
    const uint8_t* elements =
        window.passBytes[firstPass + row].data() + firstByte + line * lineStrideBytes + channels * (position % columns);
    const auto lanes = weighByKeptBlock(elements, static_cast<unsigned>(channels), block, requant);
    (void)narrow.write(static_cast<uint64_t>(unit) * 4, lanes);  // the caller bounded the nest
    ++position;
  });
}

}  // namespace coralsim::lle
