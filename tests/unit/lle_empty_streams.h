#pragma once
// A run's host streams for unit tests whose packets read neither input nor parameters: both empty.

#include <cstdint>
#include <span>

#include "models/chip/block_interfaces.h"

namespace coralsim::lle {

class EmptyStreams : public models::RunStreams {
 public:
  [[nodiscard]] std::span<const uint8_t> inputBytes() const override { return {}; }
  [[nodiscard]] std::span<const uint8_t> parameterBytes() const override { return {}; }
};

}  // namespace coralsim::lle
