#include "models/lle/byte_stepped_weighing.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "models/lle/input_byte_walk.h"
#include "models/lle/lle_fields.h"
#include "models/lle/weight_byte_walk.h"

namespace coralsim::lle {

namespace {

constexpr uint64_t kLanes = ByteSteppedWeighing::kUnitBytes;

}  // namespace

bool ByteSteppedWeighing::isForm(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeInputBytes) == kUnitBytes && readField(words, LleField::ComputeInputRingOn) == 0 &&
         readField(words, LleField::ComputeNest29CarryLow, 0) != 0;
}

std::variant<ByteSteppedWeighing, std::string> ByteSteppedWeighing::fromPacket(std::span<const isa::Word128> words) {
  ByteSteppedWeighing form;
  form.groups = readField(words, LleField::ComputeK4W0) + 1;
  if (readField(words, LleField::ComputeK4W1) + 1 != form.groups) {
    return "ComputeK4W1 = " + std::to_string(readField(words, LleField::ComputeK4W1)) + " is not ComputeK4W0 = " +
           std::to_string(form.groups - 1) + ": Nest37's level 0 does not walk the position's K groups";
  }
  if (form.groups > kLanes) {
    return "K = " + std::to_string(form.groups) + " groups a position: a weight walk of more than one block unit's " +
           std::to_string(kLanes) + " bytes is not decoded";
  }
  if (readField(words, LleField::ComputeLimitW0Level4) != 0 || readField(words, LleField::ComputeLimitW0Levels56, 0) != 0 ||
      readField(words, LleField::ComputeLimitW0Levels56, 1) != 0) {
    return "the w0 nest counts levels 4-6 (ComputeLimitW0Level4 / ComputeLimitW0Levels56): not executed in the byte-stepped weighing";
  }
  form.positions = levelIterations(words, {LleField::ComputeLimitW0});
  form.inputAt = readField(words, LleField::ComputeInputAt4) * kUnitBytes;
  const uint64_t iterations = form.positions * form.groups;
  // The input: Nest37 (4-byte elements) must read the positions' groups one unit after the other, once each.
  const InputByteWalk walk = InputByteWalk::fromPacket(words, kUnitBytes);
  if (walk.countsAboveLevel3()) return "Nest37 counts above level 3 (ComputeNest37LimitHigh): not executed in the byte-stepped weighing";
  uint64_t walked = 1;
  for (unsigned l = 0; l < InputByteWalk::kLowLevels; ++l) walked *= walk.limits[l] + 1;
  if (walked != iterations) {
    return "Nest37 walks " + std::to_string(walked) + " input groups; the " + std::to_string(form.positions) + " positions of K = " +
           std::to_string(form.groups) + " read " + std::to_string(iterations);
  }
  std::array<uint64_t, InputByteWalk::kLowLevels> index{};
  for (uint64_t i = 0; i < iterations; ++i) {
    int64_t offset = 0;
    for (unsigned l = 0; l < InputByteWalk::kLowLevels; ++l) offset += static_cast<int64_t>(index[l]) * walk.strideBytes[l];
    if (offset != static_cast<int64_t>(i * kUnitBytes)) {
      return "Nest37 reads input group " + std::to_string(i) + " at byte offset " + std::to_string(offset) +
             ": the byte-stepped weighing is executed for an input of one run of units only";
    }
    for (unsigned l = 0; l < InputByteWalk::kLowLevels && ++index[l] > walk.limits[l]; ++l) index[l] = 0;
  }
  // The weights: Nest29 steps the K bytes at level 0 and returns to the first at every level above it.
  const WeightByteWalk weights = WeightByteWalk::fromPacket(words);
  if (weights.limits[0] + 1 != form.groups) {
    return "ComputeK4W7 = " + std::to_string(weights.limits[0]) + " is not ComputeK4W0 = " + std::to_string(form.groups - 1) +
           ": Nest29's level 0 does not step one byte a K group";
  }
  if (readField(words, LleField::ComputeLimit29High, 0) != 0 || readField(words, LleField::ComputeLimit29High, 1) != 0 ||
      readField(words, LleField::ComputeLimit29High, 2) != 0) {
    return "Nest29 counts levels 4-6 (ComputeLimit29High): not executed in the byte-stepped weighing";
  }
  for (unsigned l = 1; l < WeightByteWalk::kLevels; ++l) {
    if (weights.limits[l] != 0 && weights.strideBytes[l] != 0) {
      return "Nest29's level " + std::to_string(l) + " moves the weight bytes by " + std::to_string(weights.strideBytes[l]) +
             " (slot carries ComputeKWrapW7 / ComputeKWrap29 x 4 + ComputeNest29CarryLow): the byte-stepped weighing returns to the "
             "block's first byte after each position's K bytes";
    }
  }
  // The three counting nests count the same iterations (as in the walked element-wise form).
  const std::initializer_list<LleField> nests[] = {
      {LleField::ComputeK4W7, LleField::ComputeLimit29, LleField::ComputeLimit29Level3, LleField::ComputeLimit29High},
      {LleField::ComputeK4W10, LleField::ComputeLimitW10, LleField::ComputeLimitW10Level3, LleField::ComputeLimitW10High}};
  for (const auto& nest : nests) {
    if (const uint64_t n = levelIterations(words, nest); n != iterations) {
      return std::string(fieldDef(*nest.begin()).name) + "'s nest counts " + std::to_string(n) + " iterations where the w0 nest counts " +
             std::to_string(iterations) + " (positions x K)";
    }
  }
  return form;
}

std::variant<std::vector<int32_t>, std::string> ByteSteppedWeighing::diagonalLaneSums(std::span<const uint8_t> input,
                                                                                       std::span<const uint8_t> block, int32_t zpIn,
                                                                                       int32_t bias) const {
  if (input.size() < inputBytes()) return std::string("fewer input bytes than positions x K groups x 4");
  if (block.size() != kLanes * kLanes) return "a kept block of " + std::to_string(block.size()) + " bytes, not 16";
  std::vector<int32_t> sums(positions * kLanes, bias);
  for (uint64_t p = 0; p < positions; ++p) {
    for (uint64_t lane = 0; lane < kLanes; ++lane) {
      for (uint64_t k = 0; k < groups; ++k) {
        // Nest29 steps one byte a group inside the unit of the lane: byte k of block unit c meets lane c of group k.
        const int32_t x = int32_t{input[(p * groups + k) * kLanes + lane]} - zpIn;
        sums[p * kLanes + lane] += x * int32_t{static_cast<int8_t>(block[lane * kLanes + k])};
      }
    }
  }
  return sums;
}

std::vector<uint8_t> ByteSteppedWeighing::sixteenBitResults(std::span<const int32_t> sums, float mult, float lo, float hi) {
  std::vector<uint8_t> bytes(sums.size() * 2);
  for (size_t i = 0; i < sums.size(); ++i) {
    const float scaled = std::clamp(static_cast<float>(sums[i]) * mult, lo, hi);
    const auto result = static_cast<uint16_t>(std::clamp(std::nearbyint(scaled), 0.0f, 65535.0f));  // half-even (default mode)
    bytes[2 * i] = static_cast<uint8_t>(result & 0xff);
    bytes[2 * i + 1] = static_cast<uint8_t>(result >> 8);
  }
  return bytes;
}

std::variant<std::vector<uint8_t>, std::string> ByteSteppedWeighing::unitsWhereOnlyLaneZeroWeighs(std::span<const uint8_t> input,
                                                                                                   std::span<const uint8_t> block,
                                                                                                   int32_t zpIn, int32_t bias,
                                                                                                   const Requantizer& requant) const {
  if (input.size() < inputBytes()) return std::string("fewer input bytes than positions x K groups x 4");
  if (block.size() != kLanes * kLanes) return "a kept block of " + std::to_string(block.size()) + " bytes, not 16";
  // Byte 0 of units 1-3 would weigh lane 0 of group 0 into lanes 1-3 under the readings that ignore the step.
  for (uint64_t c = 1; c < kLanes; ++c) {
    if (block[kLanes * c] != 0) {
      return "block unit " + std::to_string(c) + " byte 0 = " + std::to_string(block[kLanes * c]) +
             ": a weight another lane's reading would take, and which lane it meets is not decoded";
    }
  }
  const auto weight0 = int32_t{static_cast<int8_t>(block[0])};
  const uint8_t idle = requant(bias);
  std::vector<uint8_t> units(positions * kLanes, idle);
  for (uint64_t p = 0; p < positions; ++p) {
    for (uint64_t k = 0; k < groups; ++k) {
      for (uint64_t lane = 0; lane < kLanes; ++lane) {
        if (k == 0 && lane == 0) continue;
        const uint64_t at = (p * groups + k) * kLanes + lane;
        if (input[at] != zpIn) {
          return "position " + std::to_string(p) + " group " + std::to_string(k) + " lane " + std::to_string(lane) + ": input byte " +
                 std::to_string(input[at]) + " (zero point " + std::to_string(zpIn) +
                 ") weighs, and which weight byte a lane meets when Nest29 steps bytes is not decoded";
        }
      }
    }
    units[p * kLanes] = requant(bias + (int32_t{input[p * groups * kLanes]} - zpIn) * weight0);
  }
  return units;
}

}  // namespace coralsim::lle
