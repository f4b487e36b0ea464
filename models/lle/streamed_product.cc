#include "models/lle/streamed_product.h"

#include <array>
#include <string>
#include <vector>

#include "models/lle/input_byte_walk.h"
#include "models/lle/lle_fields.h"
#include "models/lle/weight_byte_walk.h"

namespace coralsim::lle {

namespace {

// The iterations of a walk's levels 0..n-1.
template <size_t N>
uint64_t iterationsOf(const std::array<uint64_t, N>& limits, size_t levels) {
  uint64_t n = 1;
  for (size_t i = 0; i < levels; ++i) n *= limits[i] + 1;
  return n;
}

}  // namespace

std::variant<StreamedProduct, std::string> StreamedProduct::fromPacket(std::span<const isa::Word128> words) {
  StreamedProduct product;
  product.elements = readField(words, LleField::ComputeK4W0) + 1;
  if (readField(words, LleField::ComputeK4W1) + 1 != product.elements) {
    return "ComputeK4W1 = " + std::to_string(readField(words, LleField::ComputeK4W1)) + " is not ComputeK4W0 = " +
           std::to_string(product.elements - 1) + ": Nest37's level 0 does not walk the position's K elements";
  }
  // The w0 nest above its K level: levels 1-3 count the positions; levels 4-6 are not executed in this form.
  if (readField(words, LleField::ComputeLimitW0Level4) != 0 || readField(words, LleField::ComputeLimitW0Levels56, 0) != 0 ||
      readField(words, LleField::ComputeLimitW0Levels56, 1) != 0) {
    return "the w0 nest counts levels 4-6 (ComputeLimitW0Level4 / ComputeLimitW0Levels56): not executed in the streamed product";
  }
  product.positions = 1;
  for (unsigned e = 0; e < fieldDef(LleField::ComputeLimitW0).count; ++e) product.positions *= readField(words, LleField::ComputeLimitW0, e) + 1;
  product.inputAt = readField(words, LleField::ComputeInputAt4) * 4 + readField(words, LleField::ComputeInputByte);
  // The input: Nest37 in bytes must read the positions' K bytes one after the other, once each.
  const InputByteWalk walk = InputByteWalk::fromPacket(words, 1);
  if (walk.countsAboveLevel3()) return "Nest37 counts above level 3 (ComputeNest37LimitHigh): not executed in the streamed product";
  if (iterationsOf(walk.limits, InputByteWalk::kLowLevels) != product.bytes()) {
    return "Nest37 walks " + std::to_string(iterationsOf(walk.limits, InputByteWalk::kLowLevels)) + " input bytes; the " +
           std::to_string(product.positions) + " positions of " + std::to_string(product.elements) + " elements read " +
           std::to_string(product.bytes());
  }
  std::array<uint64_t, InputByteWalk::kLowLevels> index{};
  for (uint64_t i = 0; i < product.bytes(); ++i) {
    int64_t offset = 0;
    for (unsigned l = 0; l < InputByteWalk::kLowLevels; ++l) offset += static_cast<int64_t>(index[l]) * walk.strideBytes[l];
    if (offset != static_cast<int64_t>(i)) {
      return "Nest37 reads input byte " + std::to_string(i) + " at offset " + std::to_string(offset) +
             ": the streamed product is executed for an input of one run of bytes only";
    }
    for (unsigned l = 0; l < InputByteWalk::kLowLevels && ++index[l] > walk.limits[l]; ++l) index[l] = 0;
  }
  // The weights: Nest29 walks the same K bytes for every position (level 0 the K bytes, every level above it
  // back to the first): what the stream refills a position at a time. Another walk is not this form.
  const WeightByteWalk weights = WeightByteWalk::fromPacket(words);
  if (weights.limits[0] + 1 != product.elements || iterationsOf(weights.limits, WeightByteWalk::kLevels) != product.bytes()) {
    return "Nest29 (ComputeK4W7, ComputeLimit29, ComputeLimit29Level3) does not walk K = " + std::to_string(product.elements) +
           " bytes at level 0 for each of the " + std::to_string(product.positions) + " positions";
  }
  for (unsigned l = 1; l < WeightByteWalk::kLevels; ++l) {
    if (weights.limits[l] != 0 && weights.strideBytes[l] != 0) {
      return "Nest29's level " + std::to_string(l) + " moves the weight bytes by " + std::to_string(weights.strideBytes[l]) +
             ": the streamed product weighs every position by the K bytes the stream refills (every level above 0 returns)";
    }
  }
  return product;
}

std::variant<std::vector<uint8_t>, std::string> StreamedProduct::unitsWhereOnlyFirstElementsWeigh(
    std::span<const uint8_t> input, std::span<const uint8_t> stream, int32_t zpIn, int32_t zpWeight, const Requantizer& requant) const {
  constexpr uint64_t kLanes = 4;  // one 4-byte output unit a K element
  if (input.size() < bytes() || stream.size() < bytes()) return std::string("fewer input or stream bytes than positions x K");
  const uint8_t idle = requant(0);
  std::vector<uint8_t> units(bytes() * kLanes, idle);
  for (uint64_t p = 0; p < positions; ++p) {
    for (uint64_t k = 1; k < elements; ++k) {
      const uint64_t at = p * elements + k;
      if (input[at] != zpIn || stream[at] != zpWeight) {
        return "position " + std::to_string(p) + " element " + std::to_string(k) + ": input byte " + std::to_string(input[at]) +
               ", stream byte " + std::to_string(stream[at]) + " (zero points " + std::to_string(zpIn) + " / " + std::to_string(zpWeight) +
               "): a K element other than the first weighs, and how a unit's lanes pair input and stream bytes is not decoded";
      }
    }
    const uint64_t first = p * elements;
    units[first * kLanes] = requant((int32_t{input[first]} - zpIn) * (int32_t{stream[first]} - zpWeight));
  }
  return units;
}

}  // namespace coralsim::lle
