// The ring send between tiles (lle_fields.def Dma10RingTiles / Dma10RingBeats, docs/decoding-log.md
// "bright10"): a 0x10 with neither Dma10ToOutfeed nor Dma10WeightFeed. The send comes first; the 0x13
// read of its stream tag next on its tile says which bytes it carries; each tile it names has armed an
// execution-only 0x11 receive, and before it a 0x14 staging write, which places them. Or (Dma10RingSource 0,
// "c10w0") the send carries its tile's wide rows into the named tiles' weight streams (ringWeightFeed). The LibrEdgeTPU
// tracker templates gather their image slices onto tile 0 this way and scatter tile 0's results back;
// Dense's all-gather is the same form (every tile sends its slice to every tile, itself included).

#include <bit>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/isa/number_text.h"
#include "models/lle/carried_bytes.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"

namespace coralsim::lle {

namespace {

constexpr uint64_t kBeatBytes = 256;  // one iteration of the send's beat nest (lle_fields.def Dma10RingBeats)
// Dma10RingSource's two executed values (lle_fields.def).
constexpr uint64_t kRingSourceRead = 3;      // the 0x13 read next on the sending tile
constexpr uint64_t kRingSourceWideRows = 0;  // the sending tile's wide rows from Dma10Channel
constexpr uint64_t kRingSourceBroadcast = 1;  // the read next on the sending tile, broadcast to full-thermometer writes ("dense10")
// The kind marks every ring send carries (Dma10RingKindCode, Dma10RingKindBit83): the broadcast's, and every other's.
constexpr uint64_t kBroadcastKindCode = 3, kBroadcastKindBit83 = 0;
constexpr uint64_t kOtherKindCode = 4, kOtherKindBit83 = 1;
// Stage14WordThreeLevels of a write whose thermometer w3[100:97] is full (docs/decoding-log.md "dense" §A).
constexpr uint64_t kFullThermometerLevels = 7;

std::string tilesNamed(uint16_t mask) {
  std::string text;
  for (unsigned t = 0; t < 16; ++t) {
    if (!(mask & (1u << t))) continue;
    text += (text.empty() ? "" : ",") + std::to_string(t);
  }
  return text;
}

}  // namespace

// The execution-only receive's rows, as the ring send's beats must count them: (Run + 1) x the repeats,
// less what its last repetition drops (lastRepetitionShortfall).
void LleRung::noteExecutionReceive(const models::DecodedPacket& packet, uint64_t lastDrops) {
  uint64_t rows = readField(packet.words, LleField::Recv11ExecRun) + 1;
  for (unsigned i = 0; i < 3; ++i) rows *= readField(packet.words, LleField::Recv11ExecRepeat, i) + 1;
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (packet.tileMask & (1u << t)) lastExecReceive_[t] = ExecReceive{packet.pc, rows - lastDrops};
  }
}

// At the send: one sending tile, the tiles it names each with a receive armed since their last ring
// delivery whose rows are the send's beats, and a staging write before it; the destination writes are
// taken now (the receive is what they were armed for) and filled when the read comes.
void LleRung::ringSend(const models::DecodedPacket& packet) {
  if (!std::has_single_bit(packet.tileMask)) {
    refuse(packet, "ring send between tiles from tiles " + tilesNamed(packet.tileMask) + ": one sending tile in all 3,047 corpus ring sends");
  }
  const auto sender = static_cast<unsigned>(std::countr_zero(packet.tileMask));
  const auto tiles = static_cast<uint16_t>(readField(packet.words, LleField::Dma10RingTiles));
  if (tiles == 0 || (tiles >> tiles_.size()) != 0) {
    refuse(packet, "ring send to tiles " + isa::formatHex(tiles) + " (Dma10RingTiles, word 3 bits 98:83): none, or tiles this chip does not have");
  }
  // Where the bytes come from (Dma10RingSource, docs/decoding-log.md "c10w0" §B), with the two codes that go with it.
  const uint64_t source = readField(packet.words, LleField::Dma10RingSource);
  const uint64_t code0 = readField(packet.words, LleField::Dma10RingSourceForm, 0);
  const uint64_t code1 = readField(packet.words, LleField::Dma10RingSourceForm, 1);
  // The kind marks (docs/decoding-log.md "dense10" §A): 3, 0 exactly in the broadcast form, 4, 1 in every other ring send.
  const bool broadcast = source == kRingSourceBroadcast;
  const uint64_t kindCode = readField(packet.words, LleField::Dma10RingKindCode);
  const uint64_t kindBit83 = readField(packet.words, LleField::Dma10RingKindBit83);
  if (kindCode != (broadcast ? kBroadcastKindCode : kOtherKindCode) || kindBit83 != (broadcast ? kBroadcastKindBit83 : kOtherKindBit83)) {
    refuse(packet, "Dma10RingSource (word 2 bits 82:79) = " + std::to_string(source) + " with Dma10RingKindCode (word 2 bits 91:89) = " +
                       std::to_string(kindCode) + ", Dma10RingKindBit83 (word 2 bit 83) = " + std::to_string(kindBit83) +
                       ": 3, 0 in the broadcast form (source 1: 107 / 107 corpus sends), 4, 1 in every other (2,964 / 2,964)");
  }
  if (source == kRingSourceWideRows && code0 == 0 && code1 == 1) {
    ringWeightFeed(packet, sender, tiles);
    return;
  }
  const bool readNext = source == kRingSourceRead && code0 == 2 && code1 == 2;
  const bool broadcastNext = broadcast && code0 == 0 && code1 == 1;
  if (!readNext && !broadcastNext) {
    refuse(packet, "Dma10RingSource (word 2 bits 82:79) = " + std::to_string(source) + " with Dma10RingSourceForm (word 2 bits 93:92, 85:84) = " +
                       std::to_string(code1) + ", " + std::to_string(code0) +
                       ": a ring send carries the read next on its tile (3 with 2, 2: 2,721 corpus sends; the broadcast 1 with 1, 0: "
                       "107) or its tile's wide rows (0 with 1, 0: 243)");
  }
  if (ringSendsWaiting_[sender]) {
    refuse(packet, "a second ring send from tile " + std::to_string(sender) + " while the one at PC 0x" +
                       isa::formatAddress(ringSendsWaiting_[sender]->pc) +
                       " still waits for its read: in the corpus each ring send's 0x13 is the next packet on its tile");
  }
  // The send names the form of the read it carries (Dma10ReadForm, "pad13" §D): both set for a sent read, both clear
  // for a kept one -- only in the broadcast (model_dense_2x2x3's 100: tile 0 keeps the vector and sends it on).
  const uint64_t form86 = readField(packet.words, LleField::Dma10ReadForm, 0);
  const uint64_t form88 = readField(packet.words, LleField::Dma10ReadForm, 1);
  const bool keptForm = form86 == 0 && form88 == 0;
  if (!(form86 == 1 && form88 == 1) && !(broadcast && keptForm)) {
    refuse(packet, "Dma10ReadForm (word 1 bits 88, 86) = " + std::to_string(form88) + ", " + std::to_string(form86) +
                       " in a ring send between tiles of Dma10RingSource " + std::to_string(source) +
                       ": a sent read (1, 1), or in the broadcast (source 1) a kept one (0, 0: 100 / 107 corpus broadcasts)");
  }
  uint64_t beats = 1;
  for (unsigned level = 0; level < fieldDef(LleField::Dma10RingBeats).count && beats <= kMaxRingSendBeats; ++level) {
    beats *= readField(packet.words, LleField::Dma10RingBeats, level) + 1;
  }
  RingSend send{packet.pc, readField(packet.words, LleField::Dma10Channel), beats, keptForm, {}};
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(tiles & (1u << t))) continue;
    const std::optional<ExecReceive>& receive = lastExecReceive_[t];
    if (!receive) {
      refuse(packet, "ring send to tile " + std::to_string(t) + ", which armed no execution-only receive (0x11) since its last "
                     "delivery: every corpus destination did, just before the send");
    }
    if (receive->rows != beats) {
      refuse(packet, "the ring send's nest counts " + std::string(beats > kMaxRingSendBeats ? "at least " : "") + std::to_string(beats) +
                         " beats (Dma10RingBeats); the receive at PC 0x" + isa::formatAddress(receive->pc) + " on tile " +
                         std::to_string(t) + " takes " + std::to_string(receive->rows) + " rows: equal in all 3,664 corpus destinations");
    }
    TileState& dest = tiles_[t];
    if (!dest.stagedWriteAt) {
      refuse(packet, "ring send to tile " + std::to_string(t) + ", which has no staging write (0x14) armed: where the bytes land is not decoded");
    }
    // The broadcast goes exactly to writes with the full thermometer ("dense" §C: 107 / 107 such writes take one).
    const std::span<const isa::Word128> writeWords(dest.stagedWriteWords);
    const bool fullThermometer = fieldPresent(LleField::Stage14WordThreeLevels, writeWords) &&
                                 readField(writeWords, LleField::Stage14WordThreeLevels) == kFullThermometerLevels;
    if (fullThermometer != broadcast) {
      refuse(packet, "ring send of Dma10RingSource " + std::to_string(source) + " to tile " + std::to_string(t) +
                         ", whose staging write's thermometer (Stage14WordThreeLevels, word 3 bits 100:98) is " +
                         (fullThermometer ? "" : "not ") + "full: the broadcast (source 1) and the full thermometer go together in the corpus");
    }
    if (dest.stagedWriteSkipUnits != 0 || dest.stagedWriteRowForm || dest.stagedWriteSliced || dest.stagedWriteNest.revisitsAUnit()) {
      refuse(packet, "ring send to tile " + std::to_string(t) + ", whose staging write skips part of its source, keeps a row form "
                     "or a slice, or writes a unit twice: only a plain nest is seen taking a ring send");
    }
    send.writes.push_back({t, *dest.stagedWriteAt, dest.stagedWriteNest});
    dest.stagedWriteAt.reset();
    lastExecReceive_[t].reset();
  }
  ringSendsWaiting_[sender] = std::move(send);
}

// The ring send of wide rows (Dma10RingSource 0, docs/decoding-log.md "c10w0" §B-§C): the sending tile reads its beats'
// rows of wide memory from row Dma10Channel (the row its caching run received them at) into the weight stream each
// named tile armed (an execution-only 0x11 of those rows: its prefix arrays and transfers). The convolutions that took
// those streams came first on their tiles (243 / 243 corpus sends: model_conv, MobileNet v2 wo_fc, the PoseNet decoders)
// and waited; they run now with the rows the send reads. No 0x13 read is involved and no staging write takes bytes.
void LleRung::ringWeightFeed(const models::DecodedPacket& packet, unsigned sender, uint16_t tiles) {
  if (readField(packet.words, LleField::Dma10ReadForm, 0) != 0 || readField(packet.words, LleField::Dma10ReadForm, 1) != 0) {
    refuse(packet, "Dma10ReadForm (word 1 bits 88, 86) set in a ring send of wide rows (Dma10RingSource 0): clear in all 243 corpus such "
                   "sends (no 0x13 read is drained)");
  }
  uint64_t beats = 1;
  for (unsigned level = 0; level < fieldDef(LleField::Dma10RingBeats).count && beats <= kMaxRingSendBeats; ++level) {
    beats *= readField(packet.words, LleField::Dma10RingBeats, level) + 1;
  }
  const uint64_t row = readField(packet.words, LleField::Dma10Channel);
  uint16_t fed = 0;
  for (auto waiting = convolutionsAwaitingFeedSend_.begin(); waiting != convolutionsAwaitingFeedSend_.end();) {
    const uint16_t computeTiles = waiting->compute.packet.tileMask;
    if ((computeTiles & tiles) == 0) {
      ++waiting;
      continue;
    }
    if ((computeTiles & ~tiles) != 0) {
      refuse(packet, "the ring send of wide rows goes to tiles " + tilesNamed(tiles) + "; the convolution at PC 0x" +
                         isa::formatAddress(waiting->compute.packet.pc) + " waiting for its weights also runs on tiles " +
                         tilesNamed(static_cast<uint16_t>(computeTiles & ~tiles)));
    }
    for (unsigned t = 0; t < tiles_.size(); ++t) {
      const std::optional<WeightStream>& stream = waiting->streams[t];
      if (!(computeTiles & (1u << t)) || !stream) continue;
      if (stream->rows() != beats) {
        refuse(packet, "the ring send of wide rows counts " + std::string(beats > kMaxRingSendBeats ? "at least " : "") + std::to_string(beats) +
                           " beats (Dma10RingBeats); the weight stream armed at PC 0x" + isa::formatAddress(stream->pc) + " on tile " +
                           std::to_string(t) + " takes " + std::to_string(stream->rows()) +
                           " rows (its prefix arrays and transfers): equal in all 243 corpus such sends");
      }
    }
    ConvolutionAwaitingFeed run = std::move(*waiting);
    waiting = convolutionsAwaitingFeedSend_.erase(waiting);
    run.compute.packet.words = run.compute.words;
    std::swap(weightStreams_, run.streams);
    computeConvolution(run.compute.packet, FedWeights{sender, row, beats * kBeatBytes});
    std::swap(weightStreams_, run.streams);
    fed |= computeTiles;
  }
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(tiles & (1u << t))) continue;
    if (!(fed & (1u << t))) {
      refuse(packet, "the ring send of wide rows goes to tile " + std::to_string(t) +
                         ", where no convolution waits for its weights: in all 243 corpus such sends the convolution comes first");
    }
    streamsAwaitingFeed_[t].reset();  // fed by this send, not by a pop
    lastExecReceive_[t].reset();      // the stream's receive: what this send filled
  }
}

// Whether a ring send issued on one of the read's tiles waits for it.
bool LleRung::ringSendWaitsFor(const models::DecodedPacket& read) const {
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if ((read.tileMask & (1u << t)) && ringSendsWaiting_[t]) return true;
  }
  return false;
}

// A ring send whose tile runs another packet (tile fences aside) before the read it waits for is a form not
// decoded: in the corpus the read is next in 2,824 sends, and the 217 others (a compute, a mesh packet or a 0x17
// next: model_conv, MobileNet v2 without its classifier, a PoseNet decoder) send what is not decoded here.
void LleRung::refuseAPacketBeforeARingSendsRead(const models::DecodedPacket& packet) const {
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t)) || !ringSendsWaiting_[t]) continue;
    refuse(packet, "the ring send at PC 0x" + isa::formatAddress(ringSendsWaiting_[t]->pc) + " from tile " + std::to_string(t) +
                       " waits for the 0x13 read of its stream, and this packet comes first on that tile: what such a send "
                       "carries is not decoded");
  }
}

namespace {

// The groups a sent read covers (Stage13Groups' run; one 4-byte group where its loop does not run), byte by byte defined
// or not; none when a group leaves the tile's narrow memory.
std::optional<CarriedBytes> sentReadCarriage(const TileState& source) {
  const uint64_t groups = source.stagedReadBytes == 0 ? 1 : source.stagedReadBytes / 4;
  return CarriedBytes::gather(source.narrowSram, *source.stagedReadAt, groups, source.stagedReadStride);
}

}  // namespace

// The bytes a ring send carries from the read next on its tile. A sent read (Stage13Route 1, 1): its nest's groups, ceil(bytes /
// 256) beats of the send; a read whose group loop does not run is one 4-byte group (its destinations' writes keep one unit:
// 360 / 360 corpus such sends). A kept read (Stage13Route 0, 0; the broadcast's Dma10ReadForm 0, 0): the bytes it copied, which
// the send consumes as a host-bound send does (sendKeptRead), so the tile's next compute reads its narrow memory as before.
std::vector<uint8_t> LleRung::ringSendBytes(const models::DecodedPacket& read, unsigned tile, const RingSend& send) {
  TileState& source = tiles_[tile];
  const std::string from = "the ring send at PC 0x" + isa::formatAddress(send.pc) + " from tile " + std::to_string(tile);
  if (send.carriesKeptRead) {
    if (source.stagedReadAt) {
      refuse(read, from + " names a kept read (Dma10ReadForm 0, 0); the read next on its tile is sent (Stage13Route[1] set)");
    }
    if (source.keptReadUnwrittenByte) {
      refuse(read, from + " carries the kept read of tile " + std::to_string(tile) + " over narrow byte " +
                       std::to_string(*source.keptReadUnwrittenByte) + ", which was not written in this run");
    }
    if (!source.keptRead || source.keptReadFeedsNormalise) {
      refuse(read, from + " names a kept read (Dma10ReadForm 0, 0); the read next on its tile is not kept for it (none, or kept for a "
                       "max / normalise pass)");
    }
    if (source.keptReadChannel != send.channel) {
      refuse(read, from + " takes stream " + std::to_string(send.channel) + " (Dma10Channel); the kept read entered stream " +
                       std::to_string(source.keptReadChannel) + " (Stage13Channel)");
    }
    if (source.keptReadRepeats != 0) {
      refuse(read, from + ": its kept read repeats (Stage13Repeats); where a repeated read goes is not decoded");
    }
    if ((source.keptRead->size() + kBeatBytes - 1) / kBeatBytes != send.beats) {
      refuse(read, from + " counts " + std::to_string(send.beats) + " beats of " + std::to_string(kBeatBytes) +
                       " bytes (Dma10RingBeats); its kept read holds " + std::to_string(source.keptRead->size()) + " bytes");
    }
    std::vector<uint8_t> carried = std::move(*source.keptRead);
    source.keptRead.reset();  // carried by its send
    source.keptReadSequence = 0;
    return carried;
  }
  if (!source.stagedReadAt) {
    refuse(read, from + " is followed on its tile by a read that is not sent (Stage13Route 1, 1 or 0, 1): not decoded");
  }
  if (source.stagedReadChannel != send.channel) {
    refuse(read, from + " takes stream " + std::to_string(send.channel) + " (Dma10Channel); this read enters stream " +
                     std::to_string(source.stagedReadChannel) + " (Stage13Channel): the same in 2,824 / 2,830 corpus pairs");
  }
  if (source.stagedReadRepeats != 0) {
    refuse(read, from + ": its read repeats (Stage13Repeats); where a repeated read goes is not decoded");
  }
  const uint64_t groups = source.stagedReadBytes == 0 ? 1 : source.stagedReadBytes / 4;
  const uint64_t bytes = 4 * groups;
  if ((bytes + kBeatBytes - 1) / kBeatBytes != send.beats) {
    refuse(read, from + " counts " + std::to_string(send.beats) + " beats of " + std::to_string(kBeatBytes) +
                     " bytes (Dma10RingBeats); its read covers " + std::to_string(bytes) + " bytes");
  }
  if (source.stagedReadForMaxPass) {
    refuse(read, from + " takes a read marked for a max pass (Stage13MaxPassMark, word 4 bit 35): never seen, not decoded");
  }
  // Bytes no packet wrote (or wrote with a value not decoded: a one-lane max pass's other lanes) go as undefined
  // (sentReadCarriage marks them for deliverRingSend) and land unwritten ("convx", "trkrun" §A): only a consumer that needs them refuses.
  std::optional<CarriedBytes> gathered = sentReadCarriage(source);
  if (!gathered) {
    refuse(read, from + " carries narrow bytes of tile " + std::to_string(tile) + " from " + std::to_string(*source.stagedReadAt) +
                     " (" + std::to_string(groups) + " groups " + std::to_string(source.stagedReadStride) + " units apart) that leave its narrow memory");
  }
  source.stagedReadAt.reset();  // carried by its send
  source.stagedReadBytes = 0;
  source.stagedReadMixedRoute = false;
  return std::move(gathered->bytes);
}

// At the read on the sending tile: its bytes into each destination write, unit k taking bytes [4k, 4k + 4).
void LleRung::deliverRingSend(const models::DecodedPacket& read, unsigned tile) {
  const RingSend send = std::move(*ringSendsWaiting_[tile]);
  ringSendsWaiting_[tile].reset();
  const std::string from = "the ring send at PC 0x" + isa::formatAddress(send.pc) + " from tile " + std::to_string(tile);
  // Which of a sent read's bytes are undefined, taken before ringSendBytes consumes the read (a kept read's are all defined).
  std::optional<CarriedBytes> marks = send.carriesKeptRead || !tiles_[tile].stagedReadAt ? std::nullopt : sentReadCarriage(tiles_[tile]);
  const CarriedBytes carried{ringSendBytes(read, tile, send), marks ? std::move(marks->undefined) : std::vector<bool>{}};
  const uint64_t bytes = carried.bytes.size();
  for (const RingDelivery& write : send.writes) {
    if (4 * write.nest.units() != bytes) {
      refuse(read, from + " carries " + std::to_string(bytes) + " bytes; tile " + std::to_string(write.tile) +
                       "'s staging write nest takes " + std::to_string(4 * write.nest.units()) +
                       " (Stage14Groups, Stage14OuterLimit): equal in all 3,664 corpus destinations");
    }
    uint64_t k = 0;
    write.nest.forEachUnit([&](int64_t unit) {
      const uint64_t at = write.address + static_cast<uint64_t>(unit) * 4;
      if (!carried.writeInto(tiles_[write.tile].narrowSram, at, 4 * k, 4)) {
        refuse(read, from + " lands at narrow address " + std::to_string(at) + " of tile " + std::to_string(write.tile) +
                         ", outside its narrow memory");
      }
      ++k;
    });
  }
}

}  // namespace coralsim::lle
