#include "models/lle/nlu_apply.h"

#include <algorithm>
#include <cmath>

namespace coralsim::lle {

float NluApplication::input(int32_t acc) const {
  // The requantiser's float32 products in the same order (lle/requantizer.cc), then its clamps.
  const float value = static_cast<float>(acc) * scale_ * mult_;
  return std::min(std::max(value, lo_), hi_);
}

uint16_t NluApplication::operator()(const NluTable& table, int32_t acc) const {
  const float y = table.evaluate(input(acc));
  if (std::isnan(y)) return 0;
  return static_cast<uint16_t>(std::clamp(std::nearbyint(y), 0.0f, 65535.0f));
}

}  // namespace coralsim::lle
