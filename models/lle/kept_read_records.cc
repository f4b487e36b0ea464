#include "models/lle/kept_read_records.h"

#include <cstdint>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr unsigned kRecordsWord = 5;   // the second record, and the third's first 44 bits
constexpr unsigned kRecordZeroHigh = 80;  // w4[127:80]: record 0's numbers and codes above the mark

}  // namespace

std::string keptReadRecordsProblem(std::span<const isa::Word128> words) {
  if (words.size() <= kRecordsWord) return "";
  const uint64_t on = fieldPresent(LleField::Stage13KeptRecordsOn, words) ? readField(words, LleField::Stage13KeptRecordsOn) : 0;
  const bool recordZero = words[4].bits(kRecordZeroHigh, 128 - kRecordZeroHigh) != 0;
  const bool recordOne = words[kRecordsWord] != isa::Word128{};
  if ((on != 0) == (recordZero || recordOne)) return "";
  const std::string where = fieldPresent(LleField::Stage13KeptRecordsOn, words)
                                ? fieldText(LleField::Stage13KeptRecordsOn, on)
                                : std::string("word 4 bit 79 (Stage13KeptRecordsOn: a field only in kept reads with w4 bit 59) = ") +
                                      std::to_string(words[4].bits(79, 1));
  return where + " with word 4 bits 127:80 " + (recordZero ? "not zero" : "zero") + " and word 5 " + (recordOne ? "not zero" : "zero") +
         ": the mark goes with the records in every corpus 0x13 (73 set, each a kept read with bit 59 and both not zero; "
         "4,594 clear with both zero); what the records say is not decoded (docs/decoding-log.md \"kept13\")";
}

}  // namespace coralsim::lle
