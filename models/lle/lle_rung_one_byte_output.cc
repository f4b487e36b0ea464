// The one-byte output form (docs/decoding-log.md "soft2b"): the 28 corpus computes with ComputeOutputBytes 1 (the
// softmax sequences of the LibrEdgeTPU bright / colour templates, the MobileNet v1 classifiers, ensemble, nin_cnn).
// Every one runs one iteration: it reads one input byte (ComputeInputBytes 1), weighs it by the first signed 16-bit
// weight of the block kept on its stream (ComputeWideWeights, as the two-byte form reads its weights) less the
// weight zero point (ComputeZpWeight, as the convolution form reads it), requantises the product and writes that
// one byte at ComputeOutputAt. In the corpus the input is the softmax's broadcast maximum, the block is zeros,
// ComputeZpWeight 1, multiplier 1, clamps [-255, 0] and ComputeZpOut 255: the byte is 255 - max, the operand the
// computes after it add to each input byte to subtract the maximum. Only that shape is executed: a loop that
// counts, a ring, a table, a prefix or an addend is refused by name (none of the 28 has one).

#include <string>
#include <vector>

#include "models/lle/compute_epilogue.h"
#include "models/lle/compute_output_bytes.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/requantizer.h"
#include "models/lle/wide_weight.h"

namespace coralsim::lle {

using models::DecodedPacket;

namespace {

constexpr uint64_t kWeightBytes = 2;  // one signed 16-bit weight, little-endian

// Every loop limit of the compute's nests, its position counts and its lane groups: 0 where it runs once.
constexpr LleField kOneIterationFields[] = {
    LleField::ComputeK4W0,          LleField::ComputeK4W1,           LleField::ComputeK4W7,          LleField::ComputeK4W10,
    LleField::ComputeLimit29,       LleField::ComputeLimit29Level3,  LleField::ComputeLimit29High,   LleField::ComputeLimitW10,
    LleField::ComputeLimitW10Level3, LleField::ComputeLimitW10High,  LleField::ComputeLimitW0,       LleField::ComputeLimitW0Level4,
    LleField::ComputeLimitW0Levels56, LleField::ComputeNest37Limit1, LleField::ComputeNest37Limit3,  LleField::ComputeNest37LimitHigh,
    LleField::ComputeOut37Limit0,   LleField::ComputeOut37Limit2,    LleField::ComputePositions,     LleField::ComputeOutPositions,
    LleField::ComputeLaneGroups};

// The forms the one iteration does not take: each 0 in all 28 corpus computes.
constexpr LleField kAbsentFields[] = {LleField::ComputeInputRingOn, LleField::ComputeNluApply,          LleField::ComputeParamPrefix,
                                      LleField::ComputeUnrequantisedCopy, LleField::ComputeInputBytesCode, LleField::ComputePositionLoopOn};

}  // namespace

void LleRung::computeOneByteOutput(const DecodedPacket& packet) {
  const auto words = packet.words;
  const std::string form = "ComputeOutputBytes (word 4 bits 98:80) = 1 (the one-byte output form): ";
  const auto refuseUnless = [&](bool ok, const std::string& why) {
    if (!ok) refuse(packet, form + why);
  };
  refuseUnless(readField(words, LleField::ComputeInputBytes) == 1,
               "ComputeInputBytes = " + std::to_string(readField(words, LleField::ComputeInputBytes)) + "; every one reads one input byte");
  refuseUnless(readField(words, LleField::ComputeWideWeights) == 1,
               "ComputeWideWeights (word 14 bit 55) clear; every one weighs its byte by a 16-bit weight");
  for (const LleField field : kOneIterationFields) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) {
      const uint64_t limit = readField(words, field, e);
      refuseUnless(limit == 0, std::string(fieldDef(field).name) + "[" + std::to_string(e) + "] = " + std::to_string(limit) +
                                   ": only one iteration (every loop limit 0) is decoded");
    }
  }
  for (const LleField field : kAbsentFields) {
    const uint64_t value = readField(words, field);
    refuseUnless(value == 0, std::string(fieldDef(field).name) + " = " + std::to_string(value) + ": not decoded in this form");
  }
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet);  // refuses an addend (ComputeBias), as the 4-byte forms do
  const int32_t zpWeight = static_cast<int32_t>(readField(words, LleField::ComputeZpWeight));
  refuseUnless(zpWeight <= 255, "ComputeZpWeight (word 14 bits 70:62) = " + std::to_string(zpWeight) + " above 255");
  refuseAKeptReadOfUnwrittenBytes(packet);
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  const uint64_t inputAt = readField(words, LleField::ComputeInputAt4) * 4 + readField(words, LleField::ComputeInputByte);
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  const uint64_t tag = readField(words, LleField::ComputeStreamTag);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    refuseUnless(!(weightStreams_[t] && weightStreams_[t]->tag == tag),
                 "tile " + std::to_string(t) + " armed a weight stream on ComputeStreamTag = " + std::to_string(tag) + "; the form weighs with a kept block");
    const auto kept = tile.keptStreams.find(tag);
    if (kept == tile.keptStreams.end() || !kept->second) refuseAnotherStream(packet, t);
    refuseUnless(kept != tile.keptStreams.end() && kept->second && kept->second->size() >= kWeightBytes,
                 "tile " + std::to_string(t) + " keeps no block of a 16-bit weight on ComputeStreamTag = " + std::to_string(tag));
    const std::vector<uint8_t>& block = *kept->second;
    const int32_t weight = wideWeightAt(block, 0);
    refuseUnless(!tile.narrowSram.firstUnwritten(inputAt, 1).has_value(),
                 "tile " + std::to_string(t) + " holds no input byte at narrow address " + std::to_string(inputAt) +
                     " (ComputeInputAt4 x 4 + ComputeInputByte)");
    const int32_t acc = (int32_t{tile.narrowSram.read(inputAt, 1)[0]} - zpIn) * (weight - zpWeight);
    const uint8_t result[1] = {requant(acc)};
    // Its 32-bit sum is kept under its row for the compute whose bias prefix a later 0x14 names it ("soft14" §C).
    if (const uint64_t row = readField(words, LleField::ComputePartialSumRow); row != 0) tile.keptSums[row] = acc;
    tile.keptRead.reset();  // the compute consumes the last kept read; the block stays kept under its stream
    refuseUnless(tile.narrowSram.write(outputAt, result), "ComputeOutputAt = " + std::to_string(outputAt) + " lies outside tile " +
                                                              std::to_string(t) + "'s narrow memory");
    macs_ += 1;
  }
  // Not handed to a compute observer: its forms (compute_observer.h) are units of lanes at output positions that
  // check-layers matches against layer tensors, and this byte is no layer's tensor.
}

}  // namespace coralsim::lle
