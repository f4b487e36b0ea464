// The convolution that waits for its weight broadcast (docs/decoding-log.md "bcast" §B): a convolution compute whose
// weight stream is a 0x12 runs on the chip when the stream's rows arrive, and they arrive with the weight broadcast
// (a 0x10 between tiles with Dma10WeightFeed, "bcast10") that comes after it in program order. The rung used to run it
// at issue with the rows of whichever tile held rows 0.. of the stream -- the tile itself first. In the 16-channel
// PoseNet / BodyPix decoders tile 0 holds other parameters at those rows and the broadcast comes from the tile that
// cached this layer's rows. So the compute waits, like the 0x11 stream's ("split2", "c10w0"), and runs at the broadcast
// with the rows the sender reads from its wide row Dma10Channel on.
//
// A stream with more rows than one tile cached comes in several broadcasts, one after another, each from its own sender's
// wide rows (docs/decoding-log.md "halo" §B: the 1.0 224 embedding extractor's last pointwise layer, 2,064 rows = 1,976 from
// tile 12's row 5 on, then 88 from tile 11's row 29 on): the stream's rows are the broadcasts' rows in program order, and
// the convolution runs once they add up to its stream's rows (more is refused).

#include <bit>
#include <optional>
#include <string>

#include "models/isa/number_text.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/tile_list.h"

namespace coralsim::lle {

namespace {

constexpr uint64_t kBroadcastRowBytes = 256;  // the broadcast carries one 256-byte wide row a beat ("bcast10" §B)

}  // namespace

// Parks a convolution compute until the packet that brings its weights (what: "weight broadcast", "weight-feed send"),
// keeping its words: one waits a tile at a time, since the rung runs a waiting one when its weights come, whole.
LleRung::ConvolutionAwaitingFeed& LleRung::parkConvolution(std::deque<ConvolutionAwaitingFeed>& queue, const models::DecodedPacket& packet,
                                                           std::string_view what) {
  for (const ConvolutionAwaitingFeed& other : queue) {
    if (other.compute.packet.tileMask & packet.tileMask) {
      refuse(packet, "a second convolution waiting for its " + std::string(what) + " on tiles " +
                         tileList(other.compute.packet.tileMask & packet.tileMask) + " while the one at PC 0x" +
                         isa::formatAddress(other.compute.packet.pc) + " still waits");
    }
  }
  ConvolutionAwaitingFeed& waiting = queue.emplace_back();
  waiting.compute.words.assign(packet.words.begin(), packet.words.end());
  waiting.compute.packet = packet;
  return waiting;
}

void LleRung::awaitWeightBroadcast(const models::DecodedPacket& packet) {
  ConvolutionAwaitingFeed& waiting = parkConvolution(convolutionsAwaitingBroadcast_, packet, "weight broadcast");
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t)) || !weightStreams_[t]) continue;  // a tile without its stream is refused when the compute runs
    waiting.streams[t] = weightStreams_[t];
    weightStreams_[t].reset();
  }
}

// Runs, before the broadcast's own checks (LleRung::broadcastWeights), every convolution waiting on a tile the broadcast
// names, with the sender's rows: each must run on named tiles only (one broadcast feeds the whole compute).
void LleRung::runConvolutionsAwaitingBroadcast(const models::DecodedPacket& packet, unsigned sender, uint16_t tiles) {
  const uint64_t row = readField(packet.words, LleField::Dma10Channel);
  const uint64_t rows = readField(packet.words, LleField::Dma10BroadcastRows) + 1;
  for (auto waiting = convolutionsAwaitingBroadcast_.begin(); waiting != convolutionsAwaitingBroadcast_.end();) {
    const uint16_t computeTiles = waiting->compute.packet.tileMask;
    if ((computeTiles & tiles) == 0) {
      ++waiting;
      continue;
    }
    if ((computeTiles & ~tiles) != 0) {
      refuse(packet, "the weight broadcast goes to tiles " + tileList(tiles) + "; the convolution at PC 0x" +
                         isa::formatAddress(waiting->compute.packet.pc) + " waiting for it also runs on tiles " +
                         tileList(static_cast<uint16_t>(computeTiles & ~tiles)));
    }
    waiting->broadcastParts.push_back(BroadcastPart{sender, row, rows});
    uint64_t carried = 0;
    for (const BroadcastPart& part : waiting->broadcastParts) carried += part.rows;
    const auto first = static_cast<unsigned>(std::countr_zero(computeTiles));
    const std::optional<WeightStream>& stream = waiting->streams[first];
    if (stream && carried < stream->rows()) {  // the rest comes with the next broadcast
      ++waiting;
      continue;
    }
    if (stream && waiting->broadcastParts.size() > 1 && carried != stream->rows()) {
      refuse(packet, "the weight broadcasts since the convolution at PC 0x" + isa::formatAddress(waiting->compute.packet.pc) + " carry " +
                         std::to_string(carried) + " rows (Dma10BroadcastRows + 1 each), its weight stream armed at PC 0x" +
                         isa::formatAddress(stream->pc) + " takes " + std::to_string(stream->rows()) +
                         ": a broadcast that ends inside another stream is not decoded");
    }
    ConvolutionAwaitingFeed run = std::move(*waiting);
    waiting = convolutionsAwaitingBroadcast_.erase(waiting);
    run.compute.packet.words = run.compute.words;
    for (std::optional<WeightStream>& s : run.streams) {
      if (s) s->rowsBroadcastBefore = carried - rows;  // the broadcast's own check counts the parts before it
    }
    std::swap(weightStreams_, run.streams);
    FedWeights fed{sender, row, rows * kBroadcastRowBytes};
    if (run.broadcastParts.size() > 1) fed.broadcastParts = &run.broadcastParts;
    computeConvolution(run.compute.packet, fed);
    std::swap(weightStreams_, run.streams);
  }
}

bool LleRung::awaitsMoreBroadcastRows(unsigned t) const {
  for (const ConvolutionAwaitingFeed& waiting : convolutionsAwaitingBroadcast_) {
    if ((waiting.compute.packet.tileMask & (1u << t)) && !waiting.broadcastParts.empty()) return true;
  }
  return false;
}

// A compute on a tile whose convolution still waits for its broadcast: on the chip it would wait behind it; the rung
// runs packets in order and has no byte of the waiting one yet, so anything reading them would read old bytes.
void LleRung::refuseWhileAConvolutionAwaitsItsBroadcast(const models::DecodedPacket& packet) const {
  for (const ConvolutionAwaitingFeed& waiting : convolutionsAwaitingBroadcast_) {
    if (const uint16_t both = waiting.compute.packet.tileMask & packet.tileMask; both != 0) {
      refuse(packet, "a compute on tiles " + tileList(both) + ", where the convolution at PC 0x" + isa::formatAddress(waiting.compute.packet.pc) +
                         " still waits for its weight broadcast (a 0x12 stream's rows): in the corpus the broadcast comes first");
    }
  }
}

}  // namespace coralsim::lle
