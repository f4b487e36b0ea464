// The run's streams as the corpus floors that drive the lle rung packet by packet hold them: the input
// transfer's bytes and the parameter bytes, in vectors the test fills.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "models/chip/datapath_rung.h"

namespace coralsim::testing {

class HeldStreams : public models::RunStreams {
 public:
  std::vector<uint8_t> input, params;
  [[nodiscard]] std::span<const uint8_t> inputBytes() const override { return input; }
  [[nodiscard]] std::span<const uint8_t> parameterBytes() const override { return params; }
};

}  // namespace coralsim::testing
