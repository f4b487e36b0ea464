#include "models/lle/identity_copy.h"

#include <array>

namespace coralsim::lle {

void IdentityCopy::run(const StagingWindow& window, uint64_t firstPass, std::span<const uint8_t> block, const Requantizer& requant,
                       const OutputNest& out, AddressedMemory& narrow) const {
  constexpr unsigned kLanesAUnit = 4;
  uint64_t position = 0;
  out.forEachUnit([&](int64_t unit) {
    const uint64_t line = position / columns % lines;
    const uint64_t row = position / columns / lines;
    const uint8_t* elements =
        window.passBytes[firstPass + row].data() + firstByte + line * lineStrideBytes + channels * (position % columns);
    std::array<uint8_t, kLanesAUnit> lanes{};
    for (unsigned c = 0; c < kLanesAUnit; ++c) {
      int32_t acc = 0;
      for (unsigned g = 0; g < channels; ++g) acc += int32_t{elements[g]} * int32_t{static_cast<int8_t>(block[kLanesAUnit * c + g])};
      lanes[c] = requant(acc);
    }
    (void)narrow.write(static_cast<uint64_t>(unit) * 4, lanes);  // the caller bounded the nest
    ++position;
  });
}

}  // namespace coralsim::lle
