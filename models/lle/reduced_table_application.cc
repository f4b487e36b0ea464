#include "models/lle/reduced_table_application.h"

#include <algorithm>
#include <cmath>

namespace coralsim::lle {

std::optional<ReducedTableApplication> ReducedTableApplication::of(const NluTable& table, float x) {
  if (!std::isfinite(x) || !(x > 0.0f)) return std::nullopt;
  // x = f 2^e with f in [0.5, 1): x = (2f) 2^(e - 1); the even part of e - 1 is 2k (floor, also for negative exponents).
  int e = 0;
  (void)std::frexp(x, &e);
  const int exponent = e - 1;
  ReducedTableApplication a;
  a.k = exponent >= 0 ? exponent / 2 : -((1 - exponent) / 2);
  a.m = std::ldexp(x, -2 * a.k);  // exact: a power of two
  a.value = table.evaluate(a.m);
  const float scaled = std::ldexp(a.value, -a.k);
  a.result = std::isnan(scaled) ? 0 : static_cast<uint16_t>(std::clamp(std::nearbyint(scaled), 0.0f, 65535.0f));
  return a;
}

}  // namespace coralsim::lle
