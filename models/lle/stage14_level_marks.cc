#include "models/lle/stage14_level_marks.h"

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

// The code w6[104:102] takes beside a full thermometer, and the values it takes elsewhere.
constexpr uint64_t kBroadcastCode = 4;
constexpr uint64_t kLowestCode = 1;

// 0, 1, 3, 7, 15: a run of ones from the bottom bit.
bool isThermometer(uint64_t value) { return (value & (value + 1)) == 0; }

}  // namespace

std::string stage14LevelMarksProblem(std::span<const isa::Word128> words) {
  // w3[100:97]: the mark, and above it the source side's levels or the kept-stream form's bit 98 and bits 100:99
  // (Stage14KeptWriteW3High, docs/decoding-log.md "twice14" §D).
  const bool sourceSide = fieldPresent(LleField::Stage14WordThreeLevels, words);
  const uint64_t levels = sourceSide ? readField(words, LleField::Stage14WordThreeLevels)
                                     : readField(words, LleField::Stage14KeptWriteW3High) << 1 | readField(words, LleField::Stage14KeptWriteW3Bit98);
  const std::string aboveText =
      sourceSide ? fieldText(LleField::Stage14WordThreeLevels, levels)
                 : fieldText(LleField::Stage14KeptWriteW3High, levels >> 1) + " and " + fieldText(LleField::Stage14KeptWriteW3Bit98, levels & 1);
  const uint64_t thermometer = levels << 1 | readField(words, LleField::Stage14WordThreeMark);
  if (!isThermometer(thermometer)) {
    return aboveText + " over " + fieldText(LleField::Stage14WordThreeMark, thermometer & 1) +
           ": w3[100:97] = " + std::to_string(thermometer) +
           " is no thermometer code (0, 1, 3, 7 or 15 in every corpus 0x14; what it paces is not decoded)";
  }
  const bool full = thermometer == 15;
  const uint64_t code = readField(words, LleField::Stage14WordSixCode);
  if (code < kLowestCode || code > kBroadcastCode || (code == kBroadcastCode) != full) {
    return fieldText(LleField::Stage14WordSixCode, code) + " with w3[100:97] = " + std::to_string(thermometer) +
           ": the corpus has 4 exactly beside 15 and 1-3 elsewhere (what the code says is not decoded)";
  }
  return "";
}

}  // namespace coralsim::lle
