#include "models/lle/identity_copy4.h"

#include <array>

#include "models/lle/kept_block_weighing.h"

namespace coralsim::lle {

GroupedOutputNest groupedOutputNest(std::span<const isa::Word128> words, int64_t firstUnit, uint64_t groups) {
  const isa::ComputeNestDef& def = isa::computeNestDef(isa::ComputeNest::Output37);
  const auto packetLimits = isa::readComputeNestLimits(isa::ComputeNest::Output37, words);
  std::array<uint64_t, GroupedOutputNest::kLevels> limits{};
  std::array<int64_t, GroupedOutputNest::kLevels - 1> carries{};
  limits[0] = groups - 1;
  // The packet's level-0 step is what its level 0 adds when it counts: here, after the group level
  // has run, i.e. that level's carry.
  carries[0] = static_cast<int64_t>(readField(words, LleField::ComputeOut37Step));
  const uint64_t sign = uint64_t{1} << (def.wrapWidth - 1);
  for (unsigned i = 0; i < isa::kComputeNestLevels; ++i) {
    limits[i + 1] = packetLimits[i];
    if (i + 1 < isa::kComputeNestLevels) {
      const uint64_t raw = isa::readPacketBits(words, def.wrapLsb(i), def.wrapWidth);
      carries[i + 1] = static_cast<int64_t>((raw ^ sign) - sign);  // sign-extended
    }
  }
  return GroupedOutputNest::fromCarries(firstUnit, limits, 1, carries);
}

void GroupIdentityCopy::run(const StagingWindow& window, uint64_t firstPass, std::span<const uint8_t> block, const Requantizer& requant,
                            const GroupedOutputNest& out, AddressedMemory& narrow) const {
  const uint64_t perRow = groups * columns;
  uint64_t element = 0;  // the k-th K group of the walk: groups fastest, then positions, then rows
  out.forEachUnit([&](int64_t unit) {
    const uint8_t* group = window.passBytes[firstPass + element / perRow].data() + kLanesAUnit * (element % perRow);
    const auto lanes = weighByKeptBlock(group, kLanesAUnit, block, requant);
    (void)narrow.write(static_cast<uint64_t>(unit) * 4, lanes);  // the caller bounded the nest
    ++element;
  });
}

}  // namespace coralsim::lle
