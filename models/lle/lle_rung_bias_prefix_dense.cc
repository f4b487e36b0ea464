// The single-position (Dense) compute with the bias array as its whole parameter prefix (ComputeParamPrefix 1,
// docs/decoding-log.md "loomdense"; the sums in bias_prefix_dense.h). Unlike the prefix-2 Dense, which gathers its
// vector from the stream bytes its tiles received, this form reads its K groups where the packet says: narrow memory
// from ComputeInputAt4 x 4, the bytes earlier computes and moves wrote there (looming's nine zone averages). Its lanes
// are ComputeLaneGroups + 1 groups of 4; each lane's byte is written at ComputeOutputAt + lane.
// The same executor runs the form without a prefix (ComputeParamPrefix 0, docs/decoding-log.md "fcx" §A): the K groups'
// rows from the tag's row on, no bias row before them (the 64 x 64 trackers' first FULLY_CONNECTED: one 4-lane unit over
// 1,024 groups its caching run received at wide rows 3 .. 1,026 of tile 0).

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "models/lle/bias_prefix_dense.h"
#include "models/lle/compute_epilogue.h"
#include "models/lle/compute_observer.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/mac_array.h"
#include "models/lle/requantizer.h"

namespace coralsim::lle {

using models::DecodedPacket;

namespace {
constexpr uint64_t kMaxWeightZeroPoint = 255;  // a uint8 zero point in a 9-bit field
}  // namespace

void LleRung::computeBiasPrefixDense(const DecodedPacket& packet, uint32_t groups) {
  const auto words = packet.words;
  const bool biasRow = readField(words, LleField::ComputeParamPrefix) == 1;
  const std::string form = biasRow ? "the single-position (Dense) compute with the bias prefix alone (ComputeParamPrefix 1): "
                                   : "the single-position (Dense) compute without a prefix (ComputeParamPrefix 0): ";
  const auto refuseUnless = [&](bool ok, const std::string& why) {
    if (!ok) refuse(packet, form + why);
  };
  const uint64_t laneGroups = readField(words, LleField::ComputeLaneGroups);
  refuseUnless(laneGroups < kLanes / 4, "ComputeLaneGroups (word 4 bits 118:99) = " + std::to_string(laneGroups) + ": more than the tile's " +
                                            std::to_string(kLanes) + " lanes");
  const auto lanes = static_cast<unsigned>(4 * (laneGroups + 1));
  refuseUnless(readField(words, LleField::ComputeWideWeights) == 0, "ComputeWideWeights (word 14 bit 55) set: 16-bit weights are not this form's");
  refuseUnless(readField(words, LleField::ComputeNluApply) == 0, "ComputeNluApply (word 15 bit 26) set: where its 16-bit results go is not decoded");
  const uint64_t offsetPlace = readField(words, LleField::ComputeOffsetPrefixFirst) | readField(words, LleField::ComputeOffsetPrefixCount) |
                               readField(words, LleField::ComputeOffsetPrefixLast);
  refuseUnless(offsetPlace == 0, "ComputeOffsetPrefixFirst / Count / Last not 0: the prefix has no weight offset array to place");
  const uint64_t zpWeight = readField(words, LleField::ComputeZpWeight);
  refuseUnless(zpWeight <= kMaxWeightZeroPoint, "ComputeZpWeight (word 14 bits 70:62) = " + std::to_string(zpWeight) + ": not a uint8 zero point");
  const auto [zpIn, zpOut, mult, lo, hi] = readEpilogue(packet);
  // No f32 scale array: the packet's multiplier is the whole scale, as in the element-wise form.
  const Requantizer requant(1.0f, mult, lo, hi, zpOut, config_.requantRounding);
  const BiasPrefixDenseShape shape{groups, lanes, zpIn, static_cast<int32_t>(zpWeight), biasRow};
  // The tag names the wide row of the first K group, the bias row the one before it (docs/decoding-log.md "dense43":
  // looming's tag 1, rows 0 and 1 ...; model_dense's layers 2029, 27, 53, ..., each layer's rows after the last's).
  const uint64_t firstGroupRow = readField(words, LleField::ComputeStreamTag);
  refuseUnless(!biasRow || firstGroupRow >= 1, "ComputeStreamTag (the first K group's wide row) = 0: no row before it holds the bias");
  const uint64_t firstRow = biasRow ? firstGroupRow - 1 : firstGroupRow;
  const uint64_t inputAt = readField(words, LleField::ComputeInputAt4) * 4;
  const uint64_t inputBytes = uint64_t{kGroupBytes} * groups;
  const uint64_t outputAt = readField(words, LleField::ComputeOutputAt);
  for (unsigned t = 0; t < tiles_.size(); ++t) {
    if (!(packet.tileMask & (1u << t))) continue;
    TileState& tile = tiles_[t];
    if (const auto missing = tile.narrowSram.firstUnwritten(inputAt, inputBytes)) {
      refuse(packet, form + "tile " + std::to_string(t) + " holds no input byte at narrow address " + std::to_string(*missing) + " of the " +
                         std::to_string(inputBytes) + " it reads from ComputeInputAt4 x 4 = " + std::to_string(inputAt));
    }
    const std::span<const uint8_t> input = tile.narrowSram.read(inputAt, inputBytes);
    // Lane c reads bytes 4c .. 4c + 3 of each row (its bias, its weights for a K group). Wide bytes no packet has written
    // since the device's reset -- a caching executable's parameters this device never received (docs/decoding-log.md
    // "raw25": edgetpuxray's dense_1_8_mul, matmul_256) -- are undefined: a lane reading one is an undefined result, left
    // unwritten as "convx" leaves a position over unwritten narrow bytes; the value computed there (0 for the missing
    // bytes) is never used.
    std::vector<std::span<const uint8_t>> rows;
    std::vector<std::vector<uint8_t>> partRows;  // rows wide memory holds only in part, the rest 0
    partRows.reserve(groups + 1);
    std::vector<bool> laneUndefined(lanes, false);
    for (uint64_t r = 0; r < groups + (biasRow ? 1 : 0); ++r) {
      const uint64_t rowAt = (firstRow + r) * kBiasPrefixDenseRowAddresses;
      if (tile.wide.holds(rowAt, 4 * lanes)) {
        rows.emplace_back(tile.wide.at(rowAt), 4 * lanes);
        continue;
      }
      std::vector<uint8_t>& row = partRows.emplace_back(4 * lanes, 0);
      for (unsigned c = 0; c < lanes; ++c) {
        if (tile.wide.holds(rowAt + 4 * c, 4)) {
          std::copy_n(tile.wide.at(rowAt + 4 * c), 4, row.begin() + 4 * c);
        } else {
          laneUndefined[c] = true;
        }
      }
      rows.emplace_back(row);
    }
    const std::vector<int32_t> sums = biasPrefixDenseSums(shape, input, rows);
    std::vector<uint8_t> results(lanes);
    for (unsigned c = 0; c < lanes; ++c) results[c] = requant(sums[c]);
    macs_ += uint64_t{lanes} * inputBytes;
    if (!tile.narrowSram.write(outputAt, results)) {
      refuse(packet, form + "the lane results of tile " + std::to_string(t) + " at narrow address " + std::to_string(outputAt) +
                         " (ComputeOutputAt) leave its " + std::to_string(tile.narrowSram.capacity()) + "-byte narrow memory");
    }
    uint64_t undefinedLanes = 0;
    for (unsigned c = 0; c < lanes; ++c) {
      if (!laneUndefined[c]) continue;
      tile.narrowSram.forget(outputAt + c, 1);
      ++undefinedLanes;
    }
    noteUndefinedOutputs(packet, t, undefinedLanes, "wide bytes no packet wrote since the device's reset");
    if (config_.lleComputeObserver) {
      const uint64_t at[] = {outputAt};
      config_.lleComputeObserver->computed(packet, t, ComputeWrite{ComputeForm::kSinglePosition, lanes, at, results});
    }
  }
}

}  // namespace coralsim::lle
