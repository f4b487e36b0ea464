// The rung's read copy (read_copy_watch.h, docs/decoding-log.md "mnv1b", "mnv1c"): a 0x14 that takes the bytes of
// the read just before it on its tiles -- a read routed (0, 1) with the copy marks (Stage13TakenByCopy, w4 bits 35,
// 36, 38) or a read kept for the tile (route 0, 0) -- lays them along its own write nest, unit k of the nest taking
// the read's bytes [4k, 4k + 4) in the order the read's nest walked them, as a staged write takes its pop's. The
// pairing (the write next on every tile of the read, naming its stream) is checked before the run. Stage14RowOrder
// (w4[126:111] of the staging form, 2 in these writes) is read as the running row position it is in the receive
// form: don't-care for the bytes in a program-order model (lle_fields.def). Where the bytes go next is the
// packets' after it (a compute, or in the compute-feeding form a mesh 0x18).

#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/write_nest.h"

namespace coralsim::lle {

void LleRung::keepReadForCopy(const models::DecodedPacket& packet, const StagedNest& reach, uint64_t channel) {
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    auto bytes = gather(tile.narrowSram, reach);
    TileState::ReadForCopy copy;
    copy.channel = channel;
    if (const uint64_t* hole = std::get_if<uint64_t>(&bytes)) {
      copy.unwrittenByte = *hole;
    } else {
      copy.bytes = std::move(std::get<std::vector<uint8_t>>(bytes));
    }
    tile.readForCopy = std::move(copy);
  }
}

void LleRung::writeReadCopy(const models::DecodedPacket& packet) {
  const auto words = packet.words;
  if (readField(words, LleField::Stage14SourceOn) != 0 || readField(words, LleField::Stage14SourceRowForm) != 0) {
    refuse(packet, "a write taking the read before it (docs/decoding-log.md \"mnv1c\") with a source side (Stage14SourceOn / "
                   "Stage14SourceRowForm): never seen, not decoded");
  }
  const uint64_t address = readField(words, LleField::Stage14NarrowAt64) * 64 + readField(words, LleField::Stage14NarrowUnit) * 4;
  const WriteNest nest = WriteNest::fromPacket(words);
  const uint64_t capacityUnits = tiles_.empty() ? 0 : tiles_.front().narrowSram.capacity() / 4;
  if (!nest.staysInside(capacityUnits, static_cast<int64_t>(address / 4)) || nest.revisitsAUnit()) {
    refuse(packet, "a write taking the read before it whose nest (Stage14Groups, Stage14OuterLimit, carries) from narrow address " +
                       std::to_string(address) + " leaves narrow memory or writes a unit twice");
  }
  const uint64_t bytes = 4 * nest.units();
  const uint64_t stream = readField(words, LleField::Stage14CopyStream);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    // The copy-marked read's bytes, or a kept read's: the last one kept under the stream (the read just before the
    // write on the tile, checked before the run).
    std::optional<std::vector<uint8_t>> from;
    std::optional<uint64_t> unwritten;
    if (tile.readForCopy && tile.readForCopy->channel == stream) {
      from = std::move(tile.readForCopy->bytes);
      unwritten = tile.readForCopy->unwrittenByte;
      tile.readForCopy.reset();
    } else if (const auto kept = tile.keptStreams.find(stream); kept != tile.keptStreams.end() && tile.keptRead.has_value() == kept->second.has_value() &&
                                                               tile.keptReadChannel == stream) {
      from = kept->second;
      unwritten = tile.keptReadUnwrittenByte;
      tile.keptRead.reset();  // its consumer is this write, not the tile's next compute
      tile.keptReadSequence = 0;
    } else {
      refuse(packet, "tile " + std::to_string(t) + " holds no read of stream " + std::to_string(stream) +
                         " (Stage14CopyStream) for the write to take");
    }
    if (!from) {
      refuse(packet, "tile " + std::to_string(t) + "'s read of stream " + std::to_string(stream) + " took narrow byte " +
                         std::to_string(unwritten.value_or(0)) + ", which this run never wrote: copying unwritten bytes is not modelled");
    }
    if (from->size() != bytes) {
      refuse(packet, "tile " + std::to_string(t) + "'s read of stream " + std::to_string(stream) + " holds " + std::to_string(from->size()) +
                         " bytes where the write nest writes " + std::to_string(bytes) + ": another relation is not decoded");
    }
    uint64_t k = 0;
    nest.forEachUnit([&](int64_t unit) {
      tile.narrowSram.write(address + static_cast<uint64_t>(unit) * 4, std::span<const uint8_t>(*from).subspan(4 * k, 4));
      ++k;
    });
    tile.stagedWriteAt.reset();  // no pop lands on it
  }
}

}  // namespace coralsim::lle
