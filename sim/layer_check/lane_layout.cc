#include "sim/layer_check/lane_layout.h"

namespace coralsim::sim {
namespace {

size_t elementsOf(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= d > 0 ? static_cast<size_t>(d) : 0;
  return n;
}

}  // namespace

LanePlace placeLane(const std::vector<int32_t>& shape, size_t slice, unsigned lane) {
  const size_t elements = elementsOf(shape);
  const size_t channels = shape.empty() ? 1 : static_cast<size_t>(shape.back() > 0 ? shape.back() : 0);
  if (channels == 0) return {LanePlace::Kind::kBeyond, 0};
  const size_t positions = elements / channels;
  const size_t slicesPerPosition = (channels + kLanesPerTile - 1) / kLanesPerTile;
  const size_t position = slice / slicesPerPosition;
  const size_t channel = (slice % slicesPerPosition) * kLanesPerTile + lane;
  if (position >= positions) return {LanePlace::Kind::kBeyond, 0};
  if (channel >= channels) return {LanePlace::Kind::kPadding, 0};
  return {LanePlace::Kind::kElement, position * channels + channel};
}

std::vector<int32_t> coordinatesOf(const std::vector<int32_t>& shape, size_t element) {
  std::vector<int32_t> coordinates(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    const auto extent = static_cast<size_t>(shape[d] > 0 ? shape[d] : 1);
    coordinates[d] = static_cast<int32_t>(element % extent);
    element /= extent;
  }
  return coordinates;
}

}  // namespace coralsim::sim
