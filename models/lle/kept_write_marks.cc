#include "models/lle/kept_write_marks.h"

#include <cstdint>

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

// The corpus pairs: the write's w3[100:97] and the read's Stage13Flags.
struct MarkPair {
  uint64_t thermometer;
  uint64_t readFlags;
};
constexpr MarkPair kPairs[] = {{3, 4}, {15, 8}};

}  // namespace

std::string keptWriteMarksProblem(std::span<const isa::Word128> write, std::span<const isa::Word128> read) {
  const uint64_t thermometer = readField(write, LleField::Stage14KeptWriteW3High) << 2 |
                               readField(write, LleField::Stage14KeptWriteW3Bit98) << 1 | readField(write, LleField::Stage14WordThreeMark);
  const uint64_t flags = readField(read, LleField::Stage13Flags);
  for (const MarkPair& pair : kPairs) {
    if (pair.thermometer == thermometer && pair.readFlags == flags) return "";
  }
  return "its w3[100:97] = " + std::to_string(thermometer) + " (" + fieldText(LleField::Stage14KeptWriteW3High, thermometer >> 2) +
         ") beside its kept read's " + fieldText(LleField::Stage13Flags, flags) +
         ": the corpus pairs 3 with the read's flags 4 and 15 with 8 (what the mark paces is not decoded)";
}

}  // namespace coralsim::lle
