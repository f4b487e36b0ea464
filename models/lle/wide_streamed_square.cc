#include "models/lle/wide_streamed_square.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "models/lle/input_byte_walk.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr uint64_t kTwoByteElements = 2;  // ComputeInputBytes

uint16_t elementAt(std::span<const uint8_t> bytes, uint64_t i) {
  return static_cast<uint16_t>(bytes[2 * i] | bytes[2 * i + 1] << 8);  // low byte first, as the 0x03 and the tables write
}

}  // namespace

bool WideStreamedSquare::isForm(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeInputBytes) == kTwoByteElements && readField(words, LleField::ComputeWideWeights) == 1 &&
         readField(words, LleField::ComputeUnsignedWideWeights) == 1 && readField(words, LleField::ComputeSixteenBitResults) == 1 &&
         readField(words, LleField::ComputeNluApply) == 0;
}

std::variant<WideStreamedSquare, std::string> WideStreamedSquare::fromPacket(std::span<const isa::Word128> words) {
  WideStreamedSquare form;
  form.elements = readField(words, LleField::ComputeK4W0) + 1;
  if (readField(words, LleField::ComputeLimitW0Level4) != 0 || readField(words, LleField::ComputeLimitW0Levels56, 0) != 0 ||
      readField(words, LleField::ComputeLimitW0Levels56, 1) != 0) {
    return std::string("the w0 nest counts levels 4-6 (ComputeLimitW0Level4 / ComputeLimitW0Levels56): not executed in the 16-bit streamed product");
  }
  form.positions = 1;
  for (unsigned e = 0; e < fieldDef(LleField::ComputeLimitW0).count; ++e) form.positions *= readField(words, LleField::ComputeLimitW0, e) + 1;
  // The input: ComputeK4W1 + 1 16-bit elements, one a product (the 0x03's four lanes for its 2 x 2 products).
  if (readField(words, LleField::ComputeK4W1) + 1 != form.products()) {
    return "ComputeK4W1 + 1 = " + std::to_string(readField(words, LleField::ComputeK4W1) + 1) + " input elements for " +
           std::to_string(form.positions) + " positions x K = " + std::to_string(form.elements) + " products: not this form's count";
  }
  if (readField(words, LleField::ComputeInputByte) != 0) {
    return "ComputeInputByte = " + std::to_string(readField(words, LleField::ComputeInputByte)) + ": 16-bit elements off a 4-byte unit are not executed";
  }
  form.inputAt = readField(words, LleField::ComputeInputAt4) * 4;
  // Nest37 in bytes must read the products' elements one after the other, once each (the relations' K-wrap rows are
  // not applied to this form: field_relations.cc).
  const InputByteWalk walk = InputByteWalk::fromPacket(words, kElementBytes);
  if (walk.countsAboveLevel3()) return std::string("Nest37 counts above level 3 (ComputeNest37LimitHigh): not executed in the 16-bit streamed product");
  std::array<uint64_t, InputByteWalk::kLowLevels> index{};
  uint64_t iterations = 1;
  for (unsigned l = 0; l < InputByteWalk::kLowLevels; ++l) iterations *= walk.limits[l] + 1;
  if (iterations != form.products()) {
    return "Nest37 walks " + std::to_string(iterations) + " input elements; the 16-bit streamed product's " + std::to_string(form.products()) +
           " products read one each";
  }
  for (uint64_t i = 0; i < iterations; ++i) {
    int64_t offset = 0;
    for (unsigned l = 0; l < InputByteWalk::kLowLevels; ++l) offset += static_cast<int64_t>(index[l]) * walk.strideBytes[l];
    if (offset != static_cast<int64_t>(i * kElementBytes)) {
      return "Nest37 reads input element " + std::to_string(i) + " at byte offset " + std::to_string(offset) +
             ": the 16-bit streamed product is executed for an input of one run of elements only";
    }
    for (unsigned l = 0; l < InputByteWalk::kLowLevels && ++index[l] > walk.limits[l]; ++l) index[l] = 0;
  }
  return form;
}

std::variant<std::vector<uint8_t>, std::string> WideStreamedSquare::unitsWhereAllElementsAreEqual(std::span<const uint8_t> input,
                                                                                                 std::span<const uint8_t> stream, float mult,
                                                                                                 float lo, float hi) const {
  if (input.size() < operandBytes() || stream.size() < operandBytes()) return std::string("fewer input or stream bytes than its products' elements");
  const uint16_t in = elementAt(input, 0);
  const uint16_t weight = elementAt(stream, 0);
  for (uint64_t i = 1; i < products(); ++i) {
    if (elementAt(input, i) != in || elementAt(stream, i) != weight) {
      return "input element " + std::to_string(i) + " (" + std::to_string(elementAt(input, i)) + ") or stream element (" +
             std::to_string(elementAt(stream, i)) + ") differs from element 0 (" + std::to_string(in) + " / " + std::to_string(weight) +
             "): which input element meets which stream element, and which 16-bit slot a result takes, is not decoded";
    }
  }
  const float scaled = std::clamp(static_cast<float>(uint64_t{in} * weight) * mult, lo, hi);
  const float rounded = std::clamp(std::nearbyint(scaled), 0.0f, 65535.0f);  // half-even in the default rounding mode
  const auto result = static_cast<uint16_t>(rounded);
  std::vector<uint8_t> units(products() * kUnitBytes);
  for (uint64_t at = 0; at < units.size(); at += kElementBytes) {
    units[at] = static_cast<uint8_t>(result & 0xff);
    units[at + 1] = static_cast<uint8_t>(result >> 8);
  }
  return units;
}

}  // namespace coralsim::lle
