// The weight stream the host's pop carries itself (docs/decoding-log.md "dense43b"). A looping execution-only 0x11
// arms a weight stream on its tiles; the convolution compute naming its tag takes it and waits (computeConvolution).
// In the convolutions of "split2" / "feed2" the stream's rows are a cached tile's wide rows, which a weight-feed send
// (0x10) after a stream-feeding pop (PopStreamFeed 3) carries. model_dense's K-split Dense layers cache nothing: in
// the execution run a parameter pop (PopStreamFeed 0, the rows form) follows the compute on its tiles, with no
// parameter-caching receive there to place it, and its ring bytes are exactly the stream's rows (1 prefix array + 25
// transfers = 26 x 256 = 6,656 per tile). Such a pop is read as the stream: row r of it is stream row r, and the
// waiting compute runs when its bytes are resolved (the chip's compute waits for its stream). Anything else -- a tile
// of the pop with a receive, or with no waiting stream, or a length that is not the stream's rows -- keeps the old
// placement or refusal (placeParameters). A part-row pop (PopRowQuarters < 3, "dense45") carries each row's first
// 64 x quarters bytes: the lanes the compute reads.

#include <bit>
#include <string>

#include "models/isa/number_text.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/tile_list.h"

namespace coralsim::lle {

using models::DecodedPacket;

namespace {
constexpr uint64_t kStreamRowBytes = 256;  // one wide row a stream beat, as the 0x12 stream's ("bcast10" §B)
}  // namespace

bool LleRung::popFeedsAWaitingStream(const DecodedPacket& packet, const PendingPop& pop) {
  bool any = false;
  bool all = true;
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(pop.tiles & (1u << t))) continue;
    bool waits = false;
    for (const ConvolutionAwaitingFeed& waiting : convolutionsAwaitingFeedSend_) {
      waits = waits || ((waiting.compute.packet.tileMask & (1u << t)) && waiting.streams[t] && waiting.streams[t]->opcode == 0x11);
    }
    // A receive on the tile places the pop as before: the caching form (placeParameters).
    waits = waits && pendingReceives_[t].empty();
    any = any || waits;
    all = all && waits;
  }
  if (!any) return false;
  if (!all) {
    refuse(packet, "a parameter pop into tiles " + tileList(pop.tiles) + " some of which have a convolution waiting for its weight "
                   "stream and no receive, some not: whether it is the stream's rows or a receive's is not decoded");
  }
  // A part-row pop (PopRowQuarters < 3) carries the first 64 x quarters bytes of each stream row ("dense45": 38 / 38 corpus
  // part-row pops into a waiting stream have the stream's rows at that width, and quarters = ceil(the compute's lanes / 16)):
  // the compute reads its groups from there (computeConvolution checks that they fit).
  if (pop.bytesPerRow == 0 || pop.bytesPerRow > kStreamRowBytes || pop.bytesPerRow % 64 != 0) {
    refuse(packet, "a parameter pop of " + std::to_string(pop.bytesPerRow) + " bytes a row (PopRowQuarters) into the weight stream "
                   "a waiting convolution took on tiles " + tileList(pop.tiles) + ": not 64, 128, 192 or 256");
  }
  for (const ConvolutionAwaitingFeed& waiting : convolutionsAwaitingFeedSend_) {
    for (unsigned t = 0; t < tiles_.size(); ++t) {
      if (!(pop.tiles & (1u << t)) || !(waiting.compute.packet.tileMask & (1u << t)) || !waiting.streams[t]) continue;
      if (waiting.hostFed & (1u << t)) {
        refuse(packet, "a second host pop into tile " + std::to_string(t) + "'s weight stream, which the convolution at PC 0x" +
                           isa::formatAddress(waiting.compute.packet.pc) + " took and a pop already fed");
      }
      const uint64_t rows = waiting.streams[t]->rows();
      if (pop.length != rows * pop.bytesPerRow) {
        refuse(packet, "a parameter pop of " + std::to_string(pop.length) + " bytes into tile " + std::to_string(t) +
                           ", whose weight stream (armed at PC 0x" + isa::formatAddress(waiting.streams[t]->pc) + ") the convolution at PC 0x" +
                           isa::formatAddress(waiting.compute.packet.pc) + " took and no receive is there: the stream's " +
                           std::to_string(rows) + " rows are " + std::to_string(rows * pop.bytesPerRow) + " bytes at " +
                           std::to_string(pop.bytesPerRow) + " a row (PopRowQuarters); what the length counts otherwise is not decoded");
      }
    }
  }
  return true;
}

void LleRung::feedWaitingStreamsFromHost(const PendingPop& pop, std::span<const uint8_t> bytes) {
  for (auto waiting = convolutionsAwaitingFeedSend_.begin(); waiting != convolutionsAwaitingFeedSend_.end();) {
    const uint16_t mine = waiting->compute.packet.tileMask & pop.tiles;
    for (unsigned t = 0; t < tiles_.size(); ++t) {
      if (!(mine & (1u << t)) || !waiting->streams[t]) continue;
      waiting->hostRows[t].assign(bytes.begin(), bytes.end());
      waiting->hostRowBytes = pop.bytesPerRow;
      waiting->hostFed = static_cast<uint16_t>(waiting->hostFed | (1u << t));
    }
    if ((waiting->compute.packet.tileMask & ~waiting->hostFed) != 0) {
      ++waiting;
      continue;
    }
    if (bytes.size() != pop.length) {
      refuse(waiting->compute.packet, "the host's pop into its weight stream brought " + std::to_string(bytes.size()) + " of its " +
                                          std::to_string(pop.length) + " bytes: the parameter stream ends before it");
    }
    ConvolutionAwaitingFeed run = std::move(*waiting);
    waiting = convolutionsAwaitingFeedSend_.erase(waiting);
    run.compute.packet.words = run.compute.words;
    std::swap(weightStreams_, run.streams);
    computeConvolution(run.compute.packet, FedWeights{0, 0, 0, &run.hostRows, run.hostRowBytes});
    std::swap(weightStreams_, run.streams);
    for (unsigned t = 0; t < tiles_.size(); ++t) {
      if (run.compute.packet.tileMask & (1u << t)) streamsAwaitingFeed_[t].reset();
    }
  }
}

}  // namespace coralsim::lle
