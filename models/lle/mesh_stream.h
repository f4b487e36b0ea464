// The bytes one mesh send carries to its neighbour (mesh_sides.h), with which of its 4-byte units are
// undefined (docs/decoding-log.md "convx"): a unit the sending tile's packets never wrote this run is
// sent as undefined and lands unwritten on the receiving tile, so definedness moves with the data and
// only an undefined byte reaching the host is refused (conv_undefined_outputs.h). Plain C++.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "models/lle/addressed_memory.h"
#include "models/lle/loop_nest.h"

namespace coralsim::lle {

struct MeshStream {
  std::vector<uint8_t> bytes;
  std::vector<bool> undefinedUnits;  // one a 4-byte unit; empty when every unit is defined
  // The sending tile's unit each undefined unit was read from, in the stream's order, and the tile: a later packet of
  // the same sync window may still write them (lle_rung_mesh_late_units.cc). Unset on a stream a tile forwarded.
  std::optional<unsigned> sourceTile;
  std::vector<int64_t> undefinedSourceUnits;

  [[nodiscard]] uint64_t size() const { return bytes.size(); }
  [[nodiscard]] bool undefined(uint64_t unit) const { return unit < undefinedUnits.size() && undefinedUnits[unit]; }

  // The units `nest` walks in `narrow`, in its order; units nobody wrote this run are carried as undefined.
  [[nodiscard]] static MeshStream read(const AddressedMemory& narrow, const LoopNest<4>& nest) {
    MeshStream stream;
    stream.bytes.reserve(nest.units() * 4);
    uint64_t k = 0;
    nest.forEachUnit([&](int64_t unit) {
      const auto address = static_cast<uint64_t>(unit) * 4;
      if (narrow.firstUnwritten(address, 4)) {
        // Its value never matters (the receiver leaves the unit unwritten): zeros, so a never-allocated memory is not read.
        stream.bytes.insert(stream.bytes.end(), 4, 0);
        stream.undefinedUnits.resize(nest.units(), false);
        stream.undefinedUnits[k] = true;
        stream.undefinedSourceUnits.push_back(unit);
      } else {
        const auto unitBytes = narrow.read(address, 4);
        stream.bytes.insert(stream.bytes.end(), unitBytes.begin(), unitBytes.end());
      }
      ++k;
    });
    return stream;
  }

  // Lands the stream along `nest` in `narrow` (the caller checked the sizes agree): defined units written,
  // undefined ones left unwritten over whatever the units held.
  void writeInto(AddressedMemory& narrow, const LoopNest<4>& nest) const {
    uint64_t k = 0;
    nest.forEachUnit([&](int64_t unit) {
      const auto address = static_cast<uint64_t>(unit) * 4;
      if (undefined(k)) {
        narrow.forget(address, 4);
      } else {
        (void)narrow.write(address, std::span<const uint8_t>(bytes).subspan(4 * k, 4));
      }
      ++k;
    });
  }
};

}  // namespace coralsim::lle
