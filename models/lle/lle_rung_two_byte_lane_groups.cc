// The two-byte lane-group form with a bias prefix (docs/decoding-log.md "soft14" §C): the softmax's x - max computes of
// the LibrEdgeTPU bright / colour templates (and of MobileNet v1, ensemble, nin_cnn, whose programs stop earlier). An
// element is two input bytes, each weighed by a signed 16-bit weight less ComputeZpWeight (ComputeWideWeights, as the
// two-byte form and the one-byte output form read them). Nest37's level 0 walks all N = ComputeK4W1 + 1 elements once
// (every level above it idle, so its carries are never applied); lane group g of the ComputeLaneGroups + 1 takes
// elements g x K ... g x K + K - 1 (K = ComputeK4W7 + 1), each weighed with the next 16-byte group of the kept block
// (4 lanes x 2 weights; the weight nests return to the first group for every lane group), and writes its four lanes
// as the next 4-byte output unit. The bias prefix (ComputeParamPrefix 1) is the 32-bit sum the one-byte-output compute
// kept under its ComputePartialSumRow, named by the compute-feeding 0x14 before this compute (Stage14FeedTag): in the
// corpus -max, so each lane is x - max, requantised (multiplier 1, clamps [-255, 0], zero point 255): x - max + 255.
// Where the sum comes from is an address reading (23 / 23 corpus writes name the row the one-byte compute kept);
// anything else -- a counting level above Nest37's 0, output positions, a ring, a table, a scale prefix -- is refused.

#include <string>
#include <vector>

#include "models/lle/compute_epilogue.h"
#include "models/lle/input_byte_walk.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/output_nest.h"
#include "models/lle/requantizer.h"
#include "models/lle/wide_weight.h"

namespace coralsim::lle {

using models::DecodedPacket;

namespace {

constexpr uint64_t kElementBytes = 2;
constexpr uint64_t kLanes = 4;
constexpr uint64_t kGroupBytes = kLanes * kElementBytes * 2;  // one K iteration's weights: 4 lanes x two 16-bit weights
constexpr uint64_t kBiasPrefix = 1;                            // ComputeParamPrefix bit 0: the bias array alone

uint64_t iterationsOf(std::span<const isa::Word128> words, LleField level0, LleField outer, LleField last) {
  uint64_t n = readField(words, level0) + 1;
  for (unsigned e = 0; e < fieldDef(outer).count; ++e) n *= readField(words, outer, e) + 1;
  return n * (readField(words, last) + 1);
}

}  // namespace

bool isTwoByteLaneGroupForm(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeInputBytes) == kElementBytes && readField(words, LleField::ComputeWideWeights) != 0 &&
         readField(words, LleField::ComputeParamPrefix) != 0;
}

void LleRung::computeTwoByteLaneGroups(const DecodedPacket& packet) {
  const auto words = packet.words;
  const std::string form = "the two-byte lane-group form (ComputeInputBytes 2, ComputeWideWeights, ComputeParamPrefix): ";
  const auto refuseUnless = [&](bool ok, const std::string& why) {
    if (!ok) refuse(packet, form + why);
  };
  const auto named = [&](LleField field, unsigned e = 0) {
    return std::string(fieldDef(field).name) + (fieldDef(field).count > 1 ? "[" + std::to_string(e) + "]" : std::string()) + " = " +
           std::to_string(readField(words, field, e));
  };
  refuseUnless(inputElementBytes(packet) == kElementBytes, "2-byte elements");  // also checks the code beside the size
  refuseUnless(readField(words, LleField::ComputeParamPrefix) == kBiasPrefix, named(LleField::ComputeParamPrefix) + ": only the bias prefix is decoded");
  for (const LleField field : {LleField::ComputeInputRingOn, LleField::ComputeNluApply, LleField::ComputeInputByte, LleField::ComputeUnrequantisedCopy,
                               LleField::ComputePositions, LleField::ComputeOutPositions, LleField::ComputeOut37Limit0, LleField::ComputeOut37Limit2}) {
    refuseUnless(readField(words, field) == 0, named(field) + ": not decoded in this form");
  }
  // Nest37's level 0 is the whole walk: a level above it would apply the carries (ComputeKWrap37, ComputePositionStep37)
  // that this form's compiles fill with other numbers (15 x the lane groups in the corpus) -- not decoded.
  for (const LleField field : {LleField::ComputeNest37Limit1, LleField::ComputeNest37Limit3, LleField::ComputeNest37LimitHigh}) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) {
      refuseUnless(readField(words, field, e) == 0, named(field, e) + ": only Nest37's level 0 may count here");
    }
  }
  const InputByteWalk walk = InputByteWalk::fromPacket(words, kElementBytes);
  const uint64_t elements = walk.limits[0] + 1;
  const uint64_t kGroups = readField(words, LleField::ComputeK4W7) + 1;
  const uint64_t laneGroups = readField(words, LleField::ComputeLaneGroups) + 1;
  refuseUnless(elements == kGroups * laneGroups, "Nest37 walks " + std::to_string(elements) + " elements, not ComputeK4W7 + 1 = " +
                                                     std::to_string(kGroups) + " for each of ComputeLaneGroups + 1 = " + std::to_string(laneGroups));
  const struct {
    LleField level0, outer, last;
  } counters[] = {{LleField::ComputeK4W0, LleField::ComputeLimitW0, LleField::ComputeLimitW0Level4},
                  {LleField::ComputeK4W7, LleField::ComputeLimit29, LleField::ComputeLimit29Level3},
                  {LleField::ComputeK4W10, LleField::ComputeLimitW10, LleField::ComputeLimitW10Level3}};
  for (const auto& nest : counters) {
    const uint64_t n = iterationsOf(words, nest.level0, nest.outer, nest.last);
    refuseUnless(n == elements, std::string(fieldDef(nest.level0).name) + ", " + std::string(fieldDef(nest.outer).name) + ", " +
                                    std::string(fieldDef(nest.last).name) + " count " + std::to_string(n) + " iterations where Nest37 walks " +
                                    std::to_string(elements) + " elements");
  }
  for (const LleField field : {LleField::ComputeLimit29High, LleField::ComputeLimitW10High, LleField::ComputeLimitW0Levels56, LleField::ComputeNest29CarryLow}) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) refuseUnless(readField(words, field, e) == 0, named(field, e) + ": not decoded in this form");
  }
  // The weight walk returns to the first K group for every lane group (-ComputeK4W7 in 13 bits), as the two-byte form's.
  const int64_t back = -static_cast<int64_t>(kGroups - 1);
  for (const LleField field : {LleField::ComputeKWrap29, LleField::ComputeKWrapW7}) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) {
      const int64_t carry = readSigned(words, field, e);
      refuseUnless(carry == back, std::string(fieldDef(field).name) + "[" + std::to_string(e) + "] = " + std::to_string(carry) +
                                      ": the weight walk returns to its first K group (" + std::to_string(back) + ") for every lane group");
    }
  }
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  refuseUnless(outputAt % kLanes == 0, "ComputeOutputAt = " + std::to_string(outputAt) + " is not a 4-byte unit");
  // One output position (every Output37 level idle) of ComputeLaneGroups + 1 units, one after the other from its unit.
  const OutputNest out = OutputNest::fromPacket(words, static_cast<int64_t>(outputAt / kLanes), static_cast<int64_t>(laneGroups));
  refuseUnless(out.units() == 1, "the output nest (Output37) counts " + std::to_string(out.units()) + " positions; one is decoded in this form");
  refuseAKeptReadOfUnwrittenBytes(packet);
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet);  // ComputeBias refused: the bias is the prefix's
  const int32_t zpWeight = static_cast<int32_t>(readField(words, LleField::ComputeZpWeight));
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  const uint64_t inputAt = readField(words, LleField::ComputeInputAt4) * 4;
  const uint64_t tag = readField(words, LleField::ComputeStreamTag);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    refuseUnless(!(weightStreams_[t] && weightStreams_[t]->tag == tag),
                 "tile " + std::to_string(t) + " armed a weight stream on ComputeStreamTag = " + std::to_string(tag) + "; the form weighs with a kept block");
    const auto kept = tile.keptStreams.find(tag);
    if (kept == tile.keptStreams.end() || !kept->second) refuseAnotherStream(packet, t);
    refuseUnless(kept != tile.keptStreams.end() && kept->second && kept->second->size() == kGroups * kGroupBytes,
                 "tile " + std::to_string(t) + " keeps no block of ComputeK4W7 + 1 = " + std::to_string(kGroups) + " 16-byte weight groups on stream " +
                     std::to_string(tag));
    refuseUnless(tile.fedRow.has_value(), "tile " + std::to_string(t) + ": no compute-feeding 0x14 named the row of its bias prefix");
    const auto sum = tile.keptSums.find(*tile.fedRow);
    refuseUnless(sum != tile.keptSums.end(), "tile " + std::to_string(t) + " keeps no 32-bit sum under row " + std::to_string(*tile.fedRow) +
                                                 " (Stage14FeedTag of the write before it; a one-byte-output compute's ComputePartialSumRow)");
    const int32_t bias = sum->second;
    tile.fedRow.reset();  // the write names the row for the compute after it; another compute wants its own write
    refuseUnless(!tile.narrowSram.firstUnwritten(inputAt, elements * kElementBytes).has_value(),
                 "tile " + std::to_string(t) + " holds no input at narrow [" + std::to_string(inputAt) + ", +" + std::to_string(elements * kElementBytes) + ")");
    refuseUnless(outputAt + laneGroups * kLanes <= tile.narrowSram.capacity(),
                 "the " + std::to_string(laneGroups) + " output units from ComputeOutputAt = " + std::to_string(outputAt) + " leave tile " +
                     std::to_string(t) + "'s narrow memory");
    const auto inputBytes = tile.narrowSram.read(inputAt, elements * kElementBytes);
    const std::vector<uint8_t> input(inputBytes.begin(), inputBytes.end());
    const std::vector<uint8_t>& block = *kept->second;
    tile.keptRead.reset();  // the compute consumes the last kept read; the block stays kept under its stream
    bool written = true;
    for (uint64_t g = 0; g < laneGroups; ++g) {
      int32_t acc[kLanes] = {bias, bias, bias, bias};
      for (uint64_t k = 0; k < kGroups; ++k) {
        const uint8_t* element = input.data() + (g * kGroups + k) * kElementBytes;
        for (uint64_t c = 0; c < kLanes; ++c) {
          for (uint64_t b = 0; b < kElementBytes; ++b) {
            acc[c] += (int32_t{element[b]} - zpIn) * (wideWeightAt(block, (k * kLanes + c) * kElementBytes + b) - zpWeight);
          }
        }
      }
      uint8_t results[kLanes];
      for (uint64_t c = 0; c < kLanes; ++c) results[c] = requant(acc[c]);
      written = tile.narrowSram.write(outputAt + g * kLanes, results) && written;
    }
    refuseUnless(written, "the results of tile " + std::to_string(t) + " leave its narrow memory");
    macs_ += kLanes * kElementBytes * elements;
  }
}

}  // namespace coralsim::lle
