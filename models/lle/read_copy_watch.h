// The partner of a read routed (0, 1) with the copy marks (lle_fields.def Stage13TakenByCopy / Stage13TakenByCopyHigh,
// w4 bits 36 / 38 beside bit 35; docs/decoding-log.md "mnv1b"): on each of its tiles the next packet (fences aside) is
// a 0x14 whose Stage14CopyStream is the read's Stage13Channel (130 / 130 corpus tile-reads). A read so marked is taken
// by that 0x14, not by a compute and not by a send: the watch checks the pairing per tile wherever the marks are read,
// as PartnerCopyWatch (partner_copy.h) checks a 0x14's 0x11 partner. Anything else next on a tile (another packet, a
// 0x14 naming another stream, the end of the chunk) refuses the read naming the fields, the tile and both PCs.
// The other side: a staging 0x14 (Stage14SourceSideOn set, Stage14FeedsCompute clear) says in w4 bits 103 / 104
// (Stage14TakesTileRead / Stage14TakesDelivered, one-hot) whether its bytes are those of the 0x13 just before it on
// every one of its tiles naming its Stage14CopyStream (88 / 88 corpus writes) or not (3,513 / 3,513): checked here too.
// A compute-feeding 0x14 (Stage14FeedsCompute) takes such a read too where its w0 bit 78 (Stage14CopyInnerLevel) is
// clear: its w0 / w1 then copy the read, not a stream prefix (docs/decoding-log.md "mnv1c" §A: 9 / 9 corpus writes
// after a copy-marked read of their stream, bit 78 set in the 2,052 others); such a write must be the copy a
// marked read waits for on every one of its tiles.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

// True for a 0x14 whose bytes are those of the read just before it on its tiles: the staging form with
// Stage14TakesTileRead, or the compute-feeding form with Stage14CopyInnerLevel clear (its copy is that read's).
[[nodiscard]] bool takesTheReadBeforeIt(std::span<const isa::Word128> words);

class ReadCopyWatch {
 public:
  static constexpr unsigned kTiles = 16;

  // Called for every issued packet in program order: "" when it may come where it does, else why not.
  [[nodiscard]] std::string observe(const models::DecodedPacket& packet);
  // The refusal of a marked read whose 0x14 never came on some tile ("" when none waits).
  [[nodiscard]] std::string finish() const;
  void clear();

  // True when `write` (a 0x14) is the copy a marked read on its tiles waited for; set by observe(), valid until the
  // next call.
  [[nodiscard]] bool lastWasCopy() const { return lastWasCopy_; }

 private:
  struct Pending {
    uint32_t pc = 0;
    isa::Word128 word0;  // for the location in a refusal
    uint64_t channel = 0;
  };
  // The write's source bits against what came just before it on its tiles; "" when they agree.
  [[nodiscard]] std::string checkSource(const models::DecodedPacket& write) const;
  // A compute-feeding write's Stage14CopyInnerLevel against whether it is the copy a marked read waited for
  // on every one of its tiles; "" when they agree.
  [[nodiscard]] std::string checkFeedingCopy(const models::DecodedPacket& write, bool copiesOnEveryTile) const;

  std::array<std::optional<Pending>, kTiles> pending_;
  // Per tile, the stream of the last tile packet (fences aside) when it was a 0x13, else nothing.
  std::array<std::optional<uint64_t>, kTiles> lastReadStream_;
  bool lastWasCopy_ = false;
};

}  // namespace coralsim::lle
