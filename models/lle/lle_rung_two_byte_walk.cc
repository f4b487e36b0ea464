// The two-byte element form (docs/decoding-log.md "twobyte"): the ADDs of model_mat_Add, MobileNet v2 (wo_fc),
// DeepLab and looming. An element is two input bytes, each weighed by a signed 16-bit weight
// (ComputeWideWeights, w14 bit 55): a lane's 4-byte weight unit holds the two side by side, little-endian. The
// K reduction of one output runs over K = ComputeK4W7 + 1 iterations, each reading one element along
// Nest37 (input_byte_walk.h: level 0 the elements of a position, level 1 the ADD's two operands -- the same
// bytes for x + x, stride 0) and weighing it with the next 16-byte weight group of the kept block (4 lanes x
// 4 bytes; the block holds the K groups one after the other, and Nest29's carries return to the first for
// every output). Each output's four lanes, plus ComputeBias and requantised as the 4-byte element-wise
// forms do, go to the next unit of the output nest (Output37).

#include <array>
#include <string>
#include <vector>

#include "models/lle/compute_epilogue.h"
#include "models/lle/compute_write_report.h"
#include "models/lle/input_byte_walk.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/output_nest.h"
#include "models/lle/requantizer.h"
#include "models/lle/wide_weight.h"

namespace coralsim::lle {

using models::DecodedPacket;

namespace {

constexpr uint64_t kElementBytes = 2;                 // two input bytes an iteration
constexpr uint64_t kLanes = 4;                        // one output unit of 4 one-byte lanes
constexpr uint64_t kWeightUnitBytes = 4;              // a lane's two 16-bit weights
constexpr uint64_t kGroupBytes = kLanes * kWeightUnitBytes;  // one K iteration's weights

// The product of a counting nest's level limits + 1: its iterations.
uint64_t iterationsOf(std::span<const isa::Word128> words, LleField level0, LleField outer, LleField last) {
  uint64_t n = readField(words, level0) + 1;
  for (unsigned e = 0; e < fieldDef(outer).count; ++e) n *= readField(words, outer, e) + 1;
  return n * (readField(words, last) + 1);
}

// The block's signed 16-bit weights, [group][lane][byte] flattened: lane `lane` weighs input byte `byte` (0 or 1)
// of K group `group` with the little-endian half at 16 x group + 4 x lane + 2 x byte.
std::vector<int32_t> wideWeights(const std::vector<uint8_t>& block, uint64_t groups) {
  std::vector<int32_t> weights(groups * kLanes * kElementBytes);
  for (uint64_t i = 0; i < weights.size(); ++i) {
    weights[i] = wideWeightAt(block, i);
  }
  return weights;
}

}  // namespace

// Where the two fields meet (bit 55 and the element size): the 2-byte form with the bit is executed here;
// the bit over 1- or 4-byte elements (the softmax / max sequences) and 2-byte elements without it are refused.
bool LleRung::isTwoByteElementForm(const DecodedPacket& packet) const {
  const bool wide = readField(packet.words, LleField::ComputeWideWeights) != 0;
  const uint64_t elementBytes = readField(packet.words, LleField::ComputeInputBytes);
  if (elementBytes != kElementBytes && !wide) return false;
  if (elementBytes != kElementBytes) {
    refuse(packet, "ComputeWideWeights (word 14 bit 55) set with ComputeInputBytes = " + std::to_string(elementBytes) +
                       ": 16-bit weights outside the 2-byte element form are not decoded");
  }
  if (!wide) {
    refuse(packet, "ComputeInputBytes = 2 with ComputeWideWeights (word 14 bit 55) clear: every 2-byte compute seen weighs its bytes "
                   "with 16-bit weights; the other form is not decoded");
  }
  return true;
}

void LleRung::computeTwoByteElementWise(const DecodedPacket& packet) {
  const auto words = packet.words;
  const uint64_t elementBytes = inputElementBytes(packet);  // checks the code beside the size
  refusePackedKCountDisagreeing(packet, elementBytes);
  if (readField(words, LleField::ComputeInputRingOn) != 0) {
    refuse(packet, "ComputeInputRingOn in the 2-byte element form: a ring input is not decoded there");
  }
  if (readField(words, LleField::ComputeNluApply) != 0) {
    refuse(packet, "ComputeNluApply in the 2-byte element form: a table applied to it is not decoded");
  }
  if (readField(words, LleField::ComputeInputByte) != 0) {
    refuse(packet, "ComputeInputByte = " + std::to_string(readField(words, LleField::ComputeInputByte)) +
                       " in the 2-byte element form: an input that starts inside an element is not decoded");
  }
  refuseOtherLanesOrPrefix(packet, 0, 0, "2-byte element form: 4 lanes, no parameter prefix");
  for (const LleField field : {LleField::ComputeNest29CarryLow}) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) {
      if (const uint64_t low = readField(words, field, e); low != 0) {
        refuse(packet, std::string(fieldDef(field).name) + "[" + std::to_string(e) + "] = " + std::to_string(low) +
                           " in the 2-byte element form: a weight carry that is not whole K groups");
      }
    }
  }
  // The walk: Nest37 in bytes from ComputeInputAt4 x 4, one 2-byte element an iteration.
  const InputByteWalk walk = InputByteWalk::fromPacket(words, kElementBytes);
  uint64_t iterations = 1;
  for (const uint64_t limit : walk.limits) iterations *= limit + 1;
  const struct {
    LleField level0, outer, last;
  } counters[] = {{LleField::ComputeK4W0, LleField::ComputeLimitW0, LleField::ComputeLimitW0Level4},
                  {LleField::ComputeK4W7, LleField::ComputeLimit29, LleField::ComputeLimit29Level3},
                  {LleField::ComputeK4W10, LleField::ComputeLimitW10, LleField::ComputeLimitW10Level3}};
  for (const auto& nest : counters) {
    if (const uint64_t n = iterationsOf(words, nest.level0, nest.outer, nest.last); n != iterations) {
      refuse(packet, std::string(fieldDef(nest.level0).name) + ", " + std::string(fieldDef(nest.outer).name) + ", " +
                         std::string(fieldDef(nest.last).name) + " count " + std::to_string(n) +
                         " iterations where the input nest (Nest37) walks " + std::to_string(iterations) + " elements");
    }
  }
  // Nest29's level 0 walks the K groups of one output; every carry above it returns to the first group
  // (-ComputeK4W7 in 13 bits), so each output weighs its K iterations with the same K groups.
  const uint64_t kGroups = readField(words, LleField::ComputeK4W7) + 1;
  const int64_t back = -static_cast<int64_t>(kGroups - 1);
  for (const LleField field : {LleField::ComputeKWrap29, LleField::ComputeKWrapW7}) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) {
      if (const int64_t carry = readSigned(words, field, e); carry != back) {
        refuse(packet, std::string(fieldDef(field).name) + "[" + std::to_string(e) + "] = " + std::to_string(carry) +
                           " in the 2-byte element form: the weight walk returns to its first K group (" + std::to_string(back) +
                           " = -ComputeK4W7) for every output; another walk is not decoded");
      }
    }
  }
  if (iterations % kGroups != 0) {
    refuse(packet, "the input nest's " + std::to_string(iterations) + " elements are not whole outputs of ComputeK4W7 + 1 = " +
                       std::to_string(kGroups) + " K iterations");
  }
  const uint64_t outputs = iterations / kGroups;
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  if (outputAt % kLanes != 0) refuse(packet, "ComputeOutputAt = " + std::to_string(outputAt) + " is not a 4-byte unit");
  const OutputNest out = OutputNest::fromPacket(words, static_cast<int64_t>(outputAt / kLanes));
  if (out.units() != outputs) {
    refuse(packet, "the output nest (Output37) writes " + std::to_string(out.units()) + " units for the " + std::to_string(outputs) +
                       " outputs of the input nest's " + std::to_string(iterations) + " elements (ComputeK4W7 + 1 = " +
                       std::to_string(kGroups) + " a output)");
  }
  if (const uint64_t loopOn = readField(words, LleField::ComputePositionLoopOn); (loopOn != 0) != (outputs > 1)) {
    refuse(packet, "ComputePositionLoopOn (word 11 bit 111) = " + std::to_string(loopOn) + " with " + std::to_string(outputs) +
                       " outputs (set wherever there is more than one)");
  }
  refuseInputLevelMovesDisagreeingWithTheWalk(packet, kElementBytes);
  refuseAKeptReadOfUnwrittenBytes(packet);

  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet, true);
  const int32_t bias = readComputeBias(words);
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  const int64_t inputAt = static_cast<int64_t>(readField(words, LleField::ComputeInputAt4) * 4);
  const uint64_t tag = readField(words, LleField::ComputeStreamTag);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    if (weightStreams_[t] && weightStreams_[t]->tag == tag) {
      refuse(packet, "tile " + std::to_string(t) + " armed a weight stream on ComputeStreamTag = " + std::to_string(tag) +
                         ": the 2-byte element form weighs with a kept block");
    }
    const auto kept = tile.keptStreams.find(tag);
    if (kept == tile.keptStreams.end() || !kept->second) {
      refuseAnotherStream(packet, t);
      refuse(packet, "tile " + std::to_string(t) + " keeps no block on ComputeStreamTag = " + std::to_string(tag) + " for the 2-byte element form");
    }
    const std::vector<uint8_t> block = *kept->second;
    if (block.size() != kGroups * kGroupBytes) {
      refuse(packet, "tile " + std::to_string(t) + " keeps " + std::to_string(block.size()) + " bytes on stream " + std::to_string(tag) +
                         " where the 2-byte element form weighs with ComputeK4W7 + 1 = " + std::to_string(kGroups) + " groups of 16 bytes");
    }
    if (!out.staysInside(tile.narrowSram.capacity() / kLanes) || out.revisitsAUnit()) {
      refuse(packet, "the output nest (Output37) of tile " + std::to_string(t) + " leaves its narrow memory or writes a unit twice");
    }
    // Every element before any result is written (the walk may write where it reads).
    std::vector<uint8_t> elements;
    elements.reserve(iterations * kElementBytes);
    std::array<uint64_t, InputByteWalk::kLevels> count{};
    int64_t at = inputAt;  // inputAt + sum of count[i] x strideBytes[i], kept as the counters step
    for (;;) {
      if (at < 0 || tile.narrowSram.firstUnwritten(static_cast<uint64_t>(at), kElementBytes)) {
        refuse(packet, "tile " + std::to_string(t) + " holds no input element at narrow address " + std::to_string(at) +
                           " of the input nest's walk from ComputeInputAt4 x 4 = " + std::to_string(inputAt));
      }
      const auto bytes = tile.narrowSram.read(static_cast<uint64_t>(at), kElementBytes);
      elements.push_back(bytes[0]);
      elements.push_back(bytes[1]);
      unsigned level = 0;
      while (level < InputByteWalk::kLevels && count[level] == walk.limits[level]) {
        at -= static_cast<int64_t>(count[level]) * walk.strideBytes[level];
        count[level++] = 0;
      }
      if (level == InputByteWalk::kLevels) break;
      ++count[level];
      at += walk.strideBytes[level];
    }
    tile.keptRead.reset();  // the compute consumes the last kept read; the block stays kept under its stream
    const std::vector<int32_t> weights = wideWeights(block, kGroups);
    uint64_t o = 0;
    bool written = true;
    out.forEachUnit([&](int64_t unit) {
      int32_t acc[kLanes] = {bias, bias, bias, bias};
      const uint8_t* element = elements.data() + o * kGroups * kElementBytes;
      const int32_t* weight = weights.data();
      for (uint64_t g = 0; g < kGroups; ++g, element += kElementBytes) {
        const int32_t x0 = int32_t{element[0]} - zpIn, x1 = int32_t{element[1]} - zpIn;
        for (uint64_t c = 0; c < kLanes; ++c, weight += kElementBytes) acc[c] += x0 * weight[0] + x1 * weight[1];
      }
      uint8_t results[kLanes];
      for (uint64_t c = 0; c < kLanes; ++c) results[c] = requant(acc[c]);
      written = tile.narrowSram.write(static_cast<uint64_t>(unit) * kLanes, results) && written;
      ++o;
    });
    if (!written) refuse(packet, "the results of tile " + std::to_string(t) + " leave its narrow memory");
    if (config_.lleComputeObserver) {
      reportComputeWrite(*config_.lleComputeObserver, packet, t, ComputeForm::kElementWiseWalk, kLanes, positionAddresses(out, 1),
                         tile.narrowSram);
    }
    macs_ += kLanes * kElementBytes * iterations;
  }
}

}  // namespace coralsim::lle
