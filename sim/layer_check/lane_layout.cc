#include "sim/layer_check/lane_layout.h"

namespace coralsim::sim {
namespace {

size_t elementsOf(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= d > 0 ? static_cast<size_t>(d) : 0;
  return n;
}

uint64_t keyOf(unsigned tile, uint64_t localOffset) { return uint64_t{tile} << 40 | localOffset; }

}  // namespace

LanePlace placeLane(const std::vector<int32_t>& shape, size_t slice, unsigned lane, unsigned lanesPerSlice) {
  const size_t elements = elementsOf(shape);
  const size_t channels = shape.empty() ? 1 : static_cast<size_t>(shape.back() > 0 ? shape.back() : 0);
  if (channels == 0 || lanesPerSlice == 0) return {LanePlace::Kind::kBeyond, 0};
  const size_t positions = elements / channels;
  const size_t slicesPerPosition = (channels + lanesPerSlice - 1) / lanesPerSlice;
  const size_t position = slice / slicesPerPosition;
  const size_t channel = (slice % slicesPerPosition) * lanesPerSlice + lane;
  if (position >= positions) return {LanePlace::Kind::kBeyond, 0};
  if (channel >= channels) return {LanePlace::Kind::kPadding, 0};
  return {LanePlace::Kind::kElement, position * channels + channel};
}

SliceWalk::SliceWalk(const std::vector<int32_t>& shape)
    : channels_(shape.empty() ? 1 : static_cast<size_t>(shape.back() > 0 ? shape.back() : 0)),
      positions_(channels_ == 0 ? 0 : elementsOf(shape) / channels_) {}

LanePlace SliceWalk::place(unsigned lane) const {
  if (position_ >= positions_) return {LanePlace::Kind::kBeyond, 0};
  const size_t channel = firstChannel_ + lane;
  if (channel >= channels_) return {LanePlace::Kind::kPadding, 0};
  return {LanePlace::Kind::kElement, position_ * channels_ + channel};
}

void SliceWalk::next(unsigned lanes) {
  firstChannel_ += lanes;
  if (lanes == 0 || firstChannel_ >= channels_) {
    ++position_;
    firstChannel_ = 0;
  }
}

OutputLayoutPlacement::OutputLayoutPlacement(const usb::OutputLayout& layout, int64_t y, int64_t x, int64_t z) : z_(z) {
  for (int64_t row = 0; row < y; ++row) {
    for (int64_t column = 0; column < x; ++column) {
      const auto offset = usb::outputElementOffset(layout, row, column);
      if (!offset) continue;
      const auto tile = static_cast<size_t>(layout.yCoordinateToLinearTileId[static_cast<size_t>(row)] +
                                            layout.xCoordinateToLinearTileId[static_cast<size_t>(column)]);
      const int64_t local = *offset - layout.linearizedTileByteOffset.at(tile);
      if (local < 0) continue;
      firstElement_.emplace(keyOf(static_cast<unsigned>(tile), static_cast<uint64_t>(local)), static_cast<size_t>((row * x + column) * z));
    }
  }
}

LanePlace OutputLayoutPlacement::place(unsigned tile, uint64_t localOffset, unsigned lane) const {
  const auto found = firstElement_.find(keyOf(tile, localOffset));
  if (found == firstElement_.end()) return {LanePlace::Kind::kBeyond, 0};
  if (lane >= z_) return {LanePlace::Kind::kPadding, 0};
  return {LanePlace::Kind::kElement, found->second + lane};
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
