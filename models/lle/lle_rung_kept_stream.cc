// The rung's kept-stream write (kept_stream_write.h, docs/decoding-log.md "dma14"): a 0x14 with word 4
// zero puts back, along its write nest, the bytes the read kept on each of its tiles under its stream tag
// took when it ran. Its copied bits were compared with that read at issue (partner_copy.cc); here the
// form's own checks and the bytes.

#include <span>
#include <string>
#include <vector>

#include "models/isa/number_text.h"
#include "models/lle/kept_stream_write.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/write_nest.h"

namespace coralsim::lle {

namespace {

constexpr uint64_t kCopiedRowBytes = 256;  // a row of the copied level: 64 lanes x 4 bytes, as a receive's

}  // namespace

void LleRung::writeKeptStream(const models::DecodedPacket& packet) {
  const auto words = packet.words;
  // Words 4 and 5 zero are the form (Stage14SourceSideOn clear): a source side, a feed mark or a row position
  // in them would be another write.
  for (const unsigned k : kKeptStreamWriteZeroWords) {
    if (words[k].lo != 0 || words[k].hi != 0) {
      refuse(packet, "Stage14SourceSideOn (word 4 bit 99) clear with word " + std::to_string(k) + " = " + isa::formatHex(words[k].hi) + " " +
                         isa::formatHex(words[k].lo) + ": every corpus kept-stream write has words 4 and 5 zero");
    }
  }
  if (readField(words, LleField::Stage14KeptWriteW3Bit98) != 1) {
    refuse(packet, fieldText(LleField::Stage14KeptWriteW3Bit98, 0) +
                       " in a kept-stream write: set in all 154 corpus ones, what it says is not decoded");
  }
  const uint64_t address = readField(words, LleField::Stage14NarrowAt64) * 64 + readField(words, LleField::Stage14NarrowUnit) * 4;
  const WriteNest nest = WriteNest::fromPacket(words);
  const uint64_t capacityUnits = tiles_.empty() ? 0 : tiles_.front().narrowSram.capacity() / 4;
  if (!nest.staysInside(capacityUnits, static_cast<int64_t>(address / 4)) || nest.revisitsAUnit()) {
    refuse(packet, "a kept-stream write whose nest (Stage14Groups, Stage14OuterLimit, carries) from narrow address " +
                       std::to_string(address) + " leaves narrow memory or writes a unit twice");
  }
  // The copied level counts the read's rows of 256 bytes (Stage14CopyLimit[0] = the read's Stage13Repeats), the
  // last one short where the nest's bytes are not whole rows: 154 / 154 corpus kept-stream writes.
  const uint64_t bytes = 4 * nest.units();
  const uint64_t rows = readField(words, LleField::Stage14CopyLimit, 0) + 1;
  if (rows != (bytes + kCopiedRowBytes - 1) / kCopiedRowBytes) {
    refuse(packet, "Stage14CopyLimit[0] (word 0 bits 110:95) + 1 = " + std::to_string(rows) + " rows of " +
                       std::to_string(kCopiedRowBytes) + " bytes where the write nest writes " + std::to_string(bytes) +
                       " bytes: another relation between the kept read's rows and the write is not decoded");
  }
  const uint64_t stream = readField(words, LleField::Stage14CopyStream);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    const auto kept = tiles_[t].keptStreams.find(stream);
    if (kept == tiles_[t].keptStreams.end()) {
      refuse(packet, "tile " + std::to_string(t) + " holds no read kept under stream " + std::to_string(stream) + " (Stage14CopyStream)");
    }
    if (!kept->second) {
      refuse(packet, "tile " + std::to_string(t) + "'s read kept under stream " + std::to_string(stream) +
                         " took narrow bytes this run never wrote");
    }
    const std::vector<uint8_t>& from = *kept->second;
    if (from.size() != bytes) {
      refuse(packet, "tile " + std::to_string(t) + "'s read kept under stream " + std::to_string(stream) + " holds " +
                         std::to_string(from.size()) + " bytes where the write nest writes " + std::to_string(bytes));
    }
    // Unit k of the nest takes the kept bytes [4k, 4k + 4), as a staged write takes its pop's.
    uint64_t k = 0;
    nest.forEachUnit([&](int64_t unit) {
      tiles_[t].narrowSram.write(address + static_cast<uint64_t>(unit) * 4, std::span<const uint8_t>(from).subspan(4 * k, 4));
      ++k;
    });
  }
}

}  // namespace coralsim::lle
