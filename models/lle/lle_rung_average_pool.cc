// The average pool's compute form (docs/decoding-log.md "pool4" §B): ComputeInputBytes 0 with ComputeInputBytesCode 0 and
// ComputeCodeW9 0, the form of the corpus's 42 AVERAGE_POOL_2D computes ("gabp4" §A). Its input nest walks units of
// ones (a 0x17 immediate fill: 01 00 00 00), so every product is a weight byte; its weights are the stream a 0x13 kept
// on its tag, the pooled layer's bytes. Each lane sums its taps and the epilogue requantises the sum with the packet's
// multiplier (1 / window) through the rounding every executed form uses (ChipConfig::requantRounding).
//
// Which stream byte a lane takes: the weight nest (Nest29, weight_byte_walk.h) walks each lane's byte address a; the
// kept stream holds rows of 4 K elements x the lanes (4 x lanes bytes a row), lane group-major -- a row is a lane group
// after the other, each 4 K elements of its 4 lanes -- so lane c's byte a lies at
//   (a / 4) x 4 x lanes + 16 x (c / 4) + 4 x (a % 4) + c % 4.
// That is the order gabor p4's kept read gathers (0x13 @ 0x0111 puts a chunk's four positions' channels 0-3, then
// their channels 4-7: read_nest.h, "gabp4" §B); the gather is only needed for that layout, and the walk then takes
// each 4 x 4 window's 16 positions per channel (docs/decoding-log.md "pool4" §B). The reduction is the w10 nest's lowest
// levels (level 0 where the compiler flattens the window into it, levels 0-1 where the levels above 3 count output
// blocks: "avgp") along consecutive iterations of the weight nest, all seven of its levels walked; the outputs follow
// Output37, lane groups side by side (output_nest.h). Zero points: the uint8 pools (ensemble, nin_cnn, DeepLab v3)
// carry ComputeZpWeight = ComputeZpOut = the tensor's zero point, summed as (w - ComputeZpWeight) like every weighed
// form ("avgp"; nin_cnn's device scores, "round18" §B, are this arithmetic); a prefix (per-lane scale), an addend, a
// ring input or a w0 nest level 7 is refused.

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "models/lle/compute_epilogue.h"
#include "models/lle/compute_observer.h"
#include "models/lle/input_byte_walk.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/output_nest.h"
#include "models/lle/requantizer.h"
#include "models/lle/weight_byte_walk.h"

namespace coralsim::lle {

using models::DecodedPacket;

namespace {

constexpr unsigned kUnitBytes = 4;       // a nest unit: 4 lanes, or 4 K elements of a lane

// Forms this executor does not take: each 0 in gabor p4's pool.
constexpr LleField kAbsentFields[] = {LleField::ComputeInputRingOn, LleField::ComputeNluApply, LleField::ComputeParamPrefix,
                                      LleField::ComputeUnrequantisedCopy, LleField::ComputeWideWeights, LleField::ComputeInputByte,
                                      LleField::ComputeKCountOfPackedElements};

}  // namespace

void LleRung::computeAveragePool(const DecodedPacket& packet) { computeWindowPool(packet, PoolReduction::kSum); }

// The window walk both pools share: the max pool (lle_rung_max_pool.cc) takes each lane's largest tap where the average
// sums the taps weighed by the input bytes; it reads no input (its input nest is idle, checked there).
void LleRung::computeWindowPool(const DecodedPacket& packet, PoolReduction reduction) {
  const auto words = packet.words;
  const bool sum = reduction == PoolReduction::kSum;
  const std::string form = sum ? "ComputeInputBytes = 0 (the average pool's form): " : "Max02Lanes = 0 (the max pool's form, read as 0x01's): ";
  const auto refuseUnless = [&](bool ok, const std::string& why) {
    if (!ok) refuse(packet, form + why);
  };
  refuseUnless(readField(words, LleField::ComputeCodeW9) == 0,
               "ComputeCodeW9 = " + std::to_string(readField(words, LleField::ComputeCodeW9)) +
                   ": only the pools' code 0 is executed (MobileNet v2 wo_fc's ComputeInputBytes-0 computes carry 4; not decoded)");
  for (const LleField field : kAbsentFields) {
    const uint64_t value = readField(words, field);
    refuseUnless(value == 0, std::string(fieldDef(field).name) + " = " + std::to_string(value) + ": not decoded in this form");
  }
  // The w0 nest's levels 4-6 repeat Nest29's (lle_fields.def ComputeLimitW0Level4 / Levels56); its level 7 (passes of the
  // whole walk, "w1b86b") is not the pools'.
  refuseUnless(readField(words, LleField::ComputeLimitW0Level7) == 0, "ComputeLimitW0Level7: a level above 6 counts; not executed in this form");
  refuseUnless(readField(words, LleField::ComputeLimitW0Level4) == readField(words, LleField::ComputeLimit29High, 0) &&
                   readField(words, LleField::ComputeLimitW0Levels56, 0) == readField(words, LleField::ComputeLimit29High, 1) &&
                   readField(words, LleField::ComputeLimitW0Levels56, 1) == readField(words, LleField::ComputeLimit29High, 2),
               "ComputeLimitW0Level4 / ComputeLimitW0Levels56 are not Nest29's levels 4-6 (ComputeLimit29High)");
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet);  // refuses an addend (ComputeBias)
  const auto zpWeight = static_cast<int32_t>(readField(words, LleField::ComputeZpWeight));
  // A zero-pointed (uint8) average pool sums (x - ComputeZpIn)(w - ComputeZpWeight) as every weighed form does: the input
  // bytes are ones, so each tap is the pooled byte less the tensor's zero point, and ComputeZpOut (the same zero point) is
  // added back after the multiplier. The compiled multiplier one float32 ulp below 1 / window then sends the sums' exact
  // ties toward the zero point, which is what nin_cnn's 300 device scores show ("round18" §B). The max pool reads no
  // input and takes no zero point (none in the corpus's 81): refused there.
  // Only the averages' pairing is executed: one tensor's zero point out as in (DeepLab v3's four multiplier-1 computes
  // carry 131 / 227: not averages, not decoded).
  refuseUnless(zpIn == 0 && (sum ? zpWeight == zpOut && zpWeight <= 255 : zpWeight == 0),
               "ComputeZpIn = " + std::to_string(zpIn) + ", ComputeZpWeight = " + std::to_string(zpWeight) + ", ComputeZpOut = " +
                   std::to_string(zpOut) +
                   (sum ? ": only an average of one uint8 tensor's bytes (ComputeZpIn 0, ComputeZpWeight = ComputeZpOut) is decoded"
                        : ": a zero point in the max pool; not decoded"));
  refuseAKeptReadOfUnwrittenBytes(packet);

  const WeightByteWalk::AllLevels walk = WeightByteWalk::fromPacket(words).allLevels(words);
  const uint64_t iterations = walk.iterations();
  // The w10 nest (the MAC loop) counts the same iterations; the reduction is its lowest levels -- the taps of one output
  // position of Output37 -- and the levels above them count the positions. Where the window fits one level the compiler
  // flattens it into level 0 (ComputeK4W10 + 1 = 16 in gabor p4's and nin_cnn's 4 x 4 pools); where the levels above 3
  // count output blocks it keeps the window's two levels (MobileNet v1 0.25 128's 4 x 4 over four blocks of 64 lanes: w10
  // counts 4, 4, 1, 1, 4; MobileNet v2's 7 x 7 over 20 blocks), docs/decoding-log.md "avgp".
  const std::array<uint64_t, 7> w10 = {readField(words, LleField::ComputeK4W10) + 1,
                                       readField(words, LleField::ComputeLimitW10, 0) + 1,
                                       readField(words, LleField::ComputeLimitW10, 1) + 1,
                                       readField(words, LleField::ComputeLimitW10Level3) + 1,
                                       readField(words, LleField::ComputeLimitW10High, 0) + 1,
                                       readField(words, LleField::ComputeLimitW10High, 1) + 1,
                                       readField(words, LleField::ComputeLimitW10High, 2) + 1};
  uint64_t w10Iterations = 1;
  for (const uint64_t count : w10) w10Iterations *= count;
  refuseUnless(w10Iterations == iterations, "the w10 nest counts " + std::to_string(w10Iterations) + " iterations, the weight nest (Nest29) " +
                                                std::to_string(iterations));
  const auto lanes = static_cast<unsigned>(kUnitBytes * (readField(words, LleField::ComputeLaneGroups) + 1));
  const uint64_t rowBytes = uint64_t{kUnitBytes} * lanes;

  // The input nest read over bytes (input_byte_walk.h) with level 0 stepping ComputeInputBytes = 0 bytes: the taps of a
  // position read one byte, the same for all of them (gabor p4: the 0x17's 01 of the position's unit, 4 bytes on a position).
  const InputByteWalk input = InputByteWalk::fromPacket(words, 0);
  uint64_t inputIterations = 1;
  for (const uint64_t limit : input.limits) inputIterations *= limit + 1;
  refuseUnless(!sum || inputIterations == iterations, "the input nest (Nest37) counts " + std::to_string(inputIterations) + " iterations, the weight nest " +
                                                  std::to_string(iterations));
  const OutputNest output = OutputNest::fromPacket(words, static_cast<int64_t>(readField(words, LleField::ComputeOutputAt) / kUnitBytes),
                                                   static_cast<int64_t>(lanes / kUnitBytes));
  const uint64_t outputs = output.units();
  refuseUnless(outputs > 0 && iterations % outputs == 0, "the output nest (Output37) writes " + std::to_string(outputs) +
                                                            " positions, which do not divide the weight nest's " + std::to_string(iterations) + " iterations");
  const uint64_t taps = outputs > 0 ? iterations / outputs : 1;
  {
    uint64_t lowest = 1;
    bool split = taps == 1;
    for (const uint64_t count : w10) {
      lowest *= count;
      split = split || lowest == taps;
    }
    refuseUnless(split, "the " + std::to_string(taps) + " taps of an output position (Nest29's " + std::to_string(iterations) +
                            " iterations over Output37's " + std::to_string(outputs) +
                            " positions) are no product of the w10 nest's lowest levels: not one reduction per output");
  }
  // Each iteration's weight byte address (level 0 fastest), the same for every lane.
  std::vector<int64_t> address;
  address.reserve(iterations);
  {
    std::array<uint64_t, WeightByteWalk::kSlots> count{};
    for (uint64_t n = 0; n < iterations; ++n) {
      int64_t a = 0;
      for (unsigned i = 0; i < WeightByteWalk::kSlots; ++i) a += static_cast<int64_t>(count[i]) * walk.strideBytes[i];
      refuseUnless(a >= 0, "the weight nest (Nest29) reaches byte " + std::to_string(a) + ", before the stream's first");
      address.push_back(a);
      for (unsigned level = 0; level < WeightByteWalk::kSlots && ++count[level] > walk.limits[level]; ++level) count[level] = 0;
    }
  }
  // Each iteration's input byte address, from ComputeInputAt4.
  std::vector<int64_t> inputAddress;
  inputAddress.reserve(iterations);
  {
    std::array<uint64_t, InputByteWalk::kLevels> count{};
    const auto first = static_cast<int64_t>(readField(words, LleField::ComputeInputAt4) * kUnitBytes);
    for (uint64_t n = 0; n < iterations; ++n) {
      int64_t a = first;
      for (unsigned i = 0; i < InputByteWalk::kLevels; ++i) a += static_cast<int64_t>(count[i]) * input.strideBytes[i];
      inputAddress.push_back(a);
      for (unsigned level = 0; level < InputByteWalk::kLevels && ++count[level] > input.limits[level]; ++level) count[level] = 0;
    }
  }
  int64_t lastByte = 0;
  for (const int64_t a : address) lastByte = std::max(lastByte, a);
  const auto streamRows = static_cast<uint64_t>(lastByte) / kUnitBytes + 1;
  std::vector<uint64_t> outputUnits;
  output.forEachUnit([&](int64_t unit) { outputUnits.push_back(static_cast<uint64_t>(unit)); });
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  const uint64_t tag = readField(words, LleField::ComputeStreamTag);

  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    refuseUnless(!(weightStreams_[t] && weightStreams_[t]->tag == tag),
                 "tile " + std::to_string(t) + " armed a weight stream on ComputeStreamTag = " + std::to_string(tag) + "; the form weighs a kept stream");
    const auto kept = tile.keptStreams.find(tag);
    if (kept == tile.keptStreams.end() || !kept->second) refuseAnotherStream(packet, t);
    // refuseAnotherStream returns where the tag is the tile's kept-read channel: nothing kept there is still no stream.
    refuseUnless(kept != tile.keptStreams.end() && kept->second,
                 "tile " + std::to_string(t) + " keeps no stream on ComputeStreamTag = " + std::to_string(tag));
    const std::vector<uint8_t>& stream = *kept->second;
    // The walk reads whole rows of the stream and every one of them: a stream of another length is laid out otherwise.
    refuseUnless(stream.size() == streamRows * rowBytes,
                 "tile " + std::to_string(t) + " keeps " + std::to_string(stream.size()) + " bytes on ComputeStreamTag = " + std::to_string(tag) +
                     "; the weight nest (Nest29) reads " + std::to_string(streamRows) + " rows of 4 K elements x " + std::to_string(lanes) +
                     " lanes (" + std::to_string(streamRows * rowBytes) + " bytes)");
    // The input bytes (one an iteration), written this run.
    std::vector<int32_t> x(sum ? iterations : 0);
    for (uint64_t n = 0; n < x.size(); ++n) {
      const int64_t at = inputAddress[n];
      const bool written = at >= 0 && static_cast<uint64_t>(at) < tile.narrowSram.capacity() &&
                           !tile.narrowSram.firstUnwritten(static_cast<uint64_t>(at), 1);
      refuseUnless(written, "tile " + std::to_string(t) + " input byte " + std::to_string(at) +
                                " (Nest37 over bytes from ComputeInputAt4) was not written this run or lies outside narrow memory");
      x[n] = int32_t{tile.narrowSram.read(static_cast<uint64_t>(at), 1)[0]};
    }
    std::vector<uint8_t> results(outputs * lanes);
    for (uint64_t o = 0; o < outputs; ++o) {
      for (unsigned c = 0; c < lanes; ++c) {
        int32_t acc = 0;
        for (uint64_t k = 0; k < taps; ++k) {
          const auto a = static_cast<uint64_t>(address[o * taps + k]);
          const uint64_t at = (a / kUnitBytes) * rowBytes + kUnitBytes * kUnitBytes * (c / kUnitBytes) + kUnitBytes * (a % kUnitBytes) + c % kUnitBytes;
          refuseUnless(at < stream.size(), "tile " + std::to_string(t) + " lane " + std::to_string(c) + " reads stream byte " + std::to_string(at) +
                                               "; the kept stream " + std::to_string(tag) + " holds " + std::to_string(stream.size()));
          acc = sum ? acc + (x[o * taps + k] - zpIn) * (int32_t{stream[at]} - zpWeight) : std::max(acc, int32_t{stream[at]});
        }
        results[o * lanes + c] = requant(acc);
      }
    }
    std::vector<uint64_t> positionAt(outputs);
    for (uint64_t o = 0; o < outputs; ++o) {
      positionAt[o] = outputUnits[o] * kUnitBytes;
      refuseUnless(tile.narrowSram.write(positionAt[o], std::span<const uint8_t>(results.data() + o * lanes, lanes)),
                   "output position " + std::to_string(o) + " at narrow byte " + std::to_string(positionAt[o]) + " leaves tile " + std::to_string(t) +
                       "'s narrow memory");
    }
    tile.keptRead.reset();  // the compute consumes the last kept read; the stream stays kept under its tag
    macs_ += iterations * lanes;
    if (config_.lleComputeObserver) {
      config_.lleComputeObserver->computed(packet, t, ComputeWrite{ComputeForm::kConvolution, lanes, positionAt, results});
    }
  }
}

}  // namespace coralsim::lle
