#include "models/lle/nlu_table.h"

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

NluTable NluTable::fromPacket(std::span<const isa::Word128> words) {
  NluTable t;
  for (unsigned s = 0; s < kSegments; ++s) {
    for (unsigned k = 0; k < kCoefficients; ++k) t.coef[s][k] = readF32(words, LleField::NluCoef, s * kCoefficients + k);
  }
  for (unsigned b = 0; b < kSegments - 1; ++b) t.breakpoints[b] = readF32(words, LleField::NluBreak, b);
  t.tail = static_cast<uint32_t>(readField(words, LleField::NluTail));
  return t;
}

unsigned NluTable::segmentOf(float x) const {
  unsigned s = 0;
  while (s < kSegments - 1 && x >= breakpoints[s]) ++s;
  return s;
}

float NluTable::evaluate(float x) const {
  const auto& c = coef[segmentOf(x)];
  return (((c[4] * x + c[3]) * x + c[2]) * x + c[1]) * x + c[0];
}

}  // namespace coralsim::lle
