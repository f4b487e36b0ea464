#include "models/lle/w0_nest_count.h"

#include <limits>

#include "models/isa/compute_loop_nest.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

// a x b, or UINT64_MAX where it does not fit (14-bit limits over seven levels reach 2^98).
uint64_t saturatingProduct(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a) return std::numeric_limits<uint64_t>::max();
  return a * b;
}

uint64_t nest29Iterations(std::span<const isa::Word128> words) {
  uint64_t n = 1;
  for (const uint64_t limit : isa::readComputeNestLimits(isa::ComputeNest::Nest29, words)) n = saturatingProduct(n, limit + 1);
  return n;
}

}  // namespace

uint64_t w0NestIterations(std::span<const isa::Word128> words) {
  uint64_t n = readField(words, LleField::ComputeK4W0) + 1;
  for (unsigned e = 0; e < fieldDef(LleField::ComputeLimitW0).count; ++e) {
    n = saturatingProduct(n, readField(words, LleField::ComputeLimitW0, e) + 1);
  }
  n = saturatingProduct(n, readField(words, LleField::ComputeLimitW0Level4) + 1);
  for (unsigned e = 0; e < fieldDef(LleField::ComputeLimitW0Levels56).count; ++e) {
    n = saturatingProduct(n, readField(words, LleField::ComputeLimitW0Levels56, e) + 1);
  }
  return n;
}

std::string w0NestCountProblem(std::span<const isa::Word128> words) {
  const uint64_t w0 = w0NestIterations(words);
  const uint64_t weights = nest29Iterations(words);
  if (w0 == weights) return "";
  return "the w0 loop nest (ComputeK4W0, ComputeLimitW0, ComputeLimitW0Level4, ComputeLimitW0Levels56: w0[127:62], w1[31:0]) counts " +
         std::to_string(w0) + " iterations where the weight nest Nest29 (w7 bit 90) counts " + std::to_string(weights) +
         ": in every corpus compute the two count the same iterations";
}

}  // namespace coralsim::lle
