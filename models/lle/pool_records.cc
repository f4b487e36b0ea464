#include "models/lle/pool_records.h"

#include <cstdint>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr uint64_t kSpanUnit = 16;  // a signed number's low four bits: 4 x the size code, modulo 16 (22 / 22 pool reads; 51 / 51 two-record)

std::string relationText() {
  return ": in the pool form of the kept read's records the size code is written alike in records 0 and 1 and at w4[42:40], "
         "the sign marks record 0's number < 0, record 2's number is record 1's and each signed number is 4 x the size code "
         "modulo 16 (22 / 22 corpus pool reads); the numbers are not decoded (docs/decoding-log.md \"pool13\")";
}

}  // namespace

std::string poolRecordsProblem(std::span<const isa::Word128> words) {
  if (!fieldPresent(LleField::Stage13PoolRecordNumber, words)) return "";
  const uint64_t code = readField(words, LleField::Stage13PoolSizeCode, 0);
  const uint64_t codeCopy = readField(words, LleField::Stage13PoolSizeCode, 1);
  if (codeCopy != code) {
    return fieldText(LleField::Stage13PoolSizeCode, codeCopy, 1) + " where element 0 = " + std::to_string(code) + relationText();
  }
  const uint64_t mark = readField(words, LleField::Stage13PoolSizeMark);
  if (mark != code) return fieldText(LleField::Stage13PoolSizeMark, mark) + " where Stage13PoolSizeCode = " + std::to_string(code) + relationText();
  const uint64_t negative = readSigned(words, LleField::Stage13PoolRecordNumber, 0) < 0 ? 1 : 0;
  for (unsigned element = 0; element < 2; ++element) {
    const uint64_t sign = readField(words, LleField::Stage13PoolSignMark, element);
    if (sign != negative) {
      return fieldText(LleField::Stage13PoolSignMark, sign, element) + " where Stage13PoolRecordNumber[0] = " +
             std::to_string(readSigned(words, LleField::Stage13PoolRecordNumber, 0)) + relationText();
    }
  }
  const uint64_t numberOne = readField(words, LleField::Stage13PoolRecordNumber, 1);
  const uint64_t numberTwo = readField(words, LleField::Stage13PoolRecordNumber, 2);
  if (numberTwo != numberOne) {
    return fieldText(LleField::Stage13PoolRecordNumber, numberTwo, 2) + " where element 1 = " + std::to_string(numberOne) + relationText();
  }
  for (unsigned element = 0; element < 2; ++element) {
    const uint64_t span = readField(words, LleField::Stage13PoolRecordSpan, element);
    if (span % kSpanUnit != (4 * code) % kSpanUnit) {
      return fieldText(LleField::Stage13PoolRecordSpan, span, element) + " is " + std::to_string(span % kSpanUnit) +
             " modulo 16 where Stage13PoolSizeCode = " + std::to_string(code) + " (expected " + std::to_string((4 * code) % kSpanUnit) + ")" +
             relationText();
    }
  }
  return "";
}

}  // namespace coralsim::lle
