#include "models/lle/kept_read_records.h"

#include <cstdint>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr unsigned kRecordsWord = 5;   // the second record, and the third's first 44 bits
constexpr unsigned kRecordZeroHigh = 80;  // w4[127:80]: record 0's numbers and codes above the mark
constexpr uint64_t kSpanBeyondTheBytes = 8;  // the second record's number less the bytes of levels 0-1 (40 / 32, 72 / 64)

// The two-record form's numbers against the read's nest ("loom13"): measured over its 51 corpus reads, two values each (level 1
// counting twice or four times); "" where they agree. In the three-record (pool) form they are not fields: the envelope pins
// them (Stage13TwoRecordForm, "ninkept").
std::string twoRecordNumbersProblem(std::span<const isa::Word128> words) {
  if (!fieldPresent(LleField::Stage13TwoRecordForm, words) || readField(words, LleField::Stage13TwoRecordForm) == 0) return "";
  const uint64_t levelOne = readField(words, LleField::Stage13OuterOn) != 0 ? readField(words, LleField::Stage13OuterLimit) + 1 : 1;
  const uint64_t levelZero = readField(words, LleField::Stage13LoopOn) != 0 ? readField(words, LleField::Stage13Groups) + 1 : 1;
  const uint64_t bytes = 4 * levelZero * levelOne;
  const uint64_t first = readField(words, LleField::Stage13RecordsFirstNumber);
  const uint64_t second = readField(words, LleField::Stage13RecordsSecondNumber);
  const uint64_t span = readField(words, LleField::Stage13RecordsSecondSpan);
  const uint64_t spanMask = (uint64_t{1} << fieldDef(LleField::Stage13RecordsSecondSpan).width) - 1;
  std::string expected;
  if (levelOne % 2 != 0 || first != levelOne / 2) {
    expected = fieldText(LleField::Stage13RecordsFirstNumber, first) + " where level 1 of the read's nest counts " +
               std::to_string(levelOne) + " (expected half that count)";
  } else if (second != first - 1) {
    expected = fieldText(LleField::Stage13RecordsSecondNumber, second) + " (expected Stage13RecordsFirstNumber - 1 = " +
               std::to_string(first - 1) + ")";
  } else if (span != ((bytes + kSpanBeyondTheBytes) & spanMask)) {
    expected = fieldText(LleField::Stage13RecordsSecondSpan, span) + " where levels 0-1 of the read's nest cover " + std::to_string(bytes) +
               " bytes (expected those bytes + 8)";
  }
  if (expected.empty()) return "";
  return expected + ": in the two-record form (Stage13TwoRecordForm, w4 bit 77) the numbers went with the read's level 1 in 51 / 51 "
                    "corpus reads (level 1 counting 2: 1, 0, 40; counting 4: 2, 1, 72), not decoded beyond that "
                    "(docs/decoding-log.md \"loom13\")";
}

}  // namespace

std::string keptReadRecordsProblem(std::span<const isa::Word128> words) {
  if (words.size() <= kRecordsWord) return "";
  const uint64_t on = fieldPresent(LleField::Stage13KeptRecordsOn, words) ? readField(words, LleField::Stage13KeptRecordsOn) : 0;
  const bool recordZero = words[4].bits(kRecordZeroHigh, 128 - kRecordZeroHigh) != 0;
  const bool recordOne = words[kRecordsWord] != isa::Word128{};
  if ((on != 0) == (recordZero || recordOne)) return on != 0 ? twoRecordNumbersProblem(words) : "";
  const std::string where = fieldPresent(LleField::Stage13KeptRecordsOn, words)
                                ? fieldText(LleField::Stage13KeptRecordsOn, on)
                                : std::string("word 4 bit 79 (Stage13KeptRecordsOn: a field only in kept reads with w4 bit 59) = ") +
                                      std::to_string(words[4].bits(79, 1));
  return where + " with word 4 bits 127:80 " + (recordZero ? "not zero" : "zero") + " and word 5 " + (recordOne ? "not zero" : "zero") +
         ": the mark goes with the records in every corpus 0x13 (73 set, each a kept read with bit 59 and both not zero; "
         "4,594 clear with both zero); what the records say is not decoded (docs/decoding-log.md \"kept13\")";
}

}  // namespace coralsim::lle
