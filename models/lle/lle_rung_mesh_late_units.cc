// A mesh send's units that no packet had written when it was issued take what the same sync window writes there later
// (docs/decoding-log.md "halo" §A). The halo exchanges of the 4 x 4 tile grid fill a padded grid's borders with four
// mesh packets between two tile fences (0x1a): the columns from the left / right neighbours (0x18 / 0x16) over all rows,
// the padding or halo rows from the neighbour above / below (0x15 / 0x17) over the inner columns. The corners -- the
// padding row of the neighbour's column, or the diagonal tile's row -- reach the grid only through the neighbour's own
// border, which its 0x15 fill / 0x17 receive writes. Some compiles issue the column exchange first (the edgetpu
// test_data PoseNet 353 x 481: every tile's 0x16 / 0x18 before its 0x17 / 0x15), so in program order the send reads the
// neighbour's corner units before they are written; the chip's result only holds if the window's transfers complete as
// a whole, each send seeing the window's writes. The rung runs packets in order, so a send reads at issue and carries
// such units as undefined ("convx"); at the window's fence each of them that the sender's memory now holds, and that
// nothing wrote on the receiving tile since, takes the sender's bytes -- again until none moves, as a corner reaches
// the grid in two hops (diagonal tile -> neighbour's border -> this grid). A unit written before the send is never
// re-read, so nothing that ran before changes.
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include "models/lle/lle_rung.h"

namespace coralsim::lle {

void LleRung::noteLateMeshUnits(const MeshStream& stream, unsigned tile, const LoopNest<4>& nest) {
  if (!stream.sourceTile || stream.undefinedSourceUnits.empty()) return;
  uint64_t k = 0;
  size_t next = 0;
  nest.forEachUnit([&](int64_t unit) {
    if (stream.undefined(k) && next < stream.undefinedSourceUnits.size()) {
      lateMeshUnits_.push_back(LateMeshUnit{*stream.sourceTile, stream.undefinedSourceUnits[next++], tile, unit});
    }
    ++k;
  });
}

void LleRung::settleLateMeshUnits() {
  constexpr uint64_t kUnitBytes = 4;
  bool moved = true;
  while (moved && !lateMeshUnits_.empty()) {
    moved = false;
    for (auto it = lateMeshUnits_.begin(); it != lateMeshUnits_.end();) {
      const AddressedMemory& source = tiles_[it->sourceTile].narrowSram;
      AddressedMemory& target = tiles_[it->tile].narrowSram;
      const auto from = static_cast<uint64_t>(it->sourceUnit) * kUnitBytes;
      const auto to = static_cast<uint64_t>(it->unit) * kUnitBytes;
      if (!target.firstUnwritten(to, kUnitBytes)) {  // a later packet wrote the unit: it stands
        it = lateMeshUnits_.erase(it);
        continue;
      }
      if (source.firstUnwritten(from, kUnitBytes)) {
        ++it;
        continue;
      }
      const std::span<const uint8_t> read = source.read(from, kUnitBytes);
      std::array<uint8_t, kUnitBytes> bytes{};
      std::copy(read.begin(), read.end(), bytes.begin());
      (void)target.write(to, bytes);
      it = lateMeshUnits_.erase(it);
      moved = true;
    }
  }
  lateMeshUnits_.clear();  // what no packet of the window wrote stays undefined
}

}  // namespace coralsim::lle
