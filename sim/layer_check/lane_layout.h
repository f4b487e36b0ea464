// Where a compute packet's lane results sit in its layer's output tensor: the rule the layer checker
// lays the lle rung's tile memory on the CPU twin's tensor with.
//
// Rule: a tile computes 64 output channels of one output position (docs/isa.md §1, models/lle:
// one 64-lane vector per tile per compute packet). A layer's compute packets, in issue order, and
// within a packet its tiles in ascending order, give the layer's lane slices 0, 1, 2, ...; slice s
// holds channels 64 x (s mod B) .. + 63 of output position s div B, where B = ceil(C / 64) slices
// cover the C channels (the last dimension) of one position. Lanes at channel >= C are the tile's
// padding (C not a multiple of 64) and compare with nothing. Evidence: the Dense-256 and
// Dense-1024 templates (one position; tiles 0-3 resp. 0-15 of one packet hold channels 0-255 resp.
// 0-1023, bit-exact against the golden data). How a packet whose loop nest covers several output
// positions lays them out is not decoded; the lle rung computes no such packet yet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace coralsim::sim {

inline constexpr unsigned kLanesPerTile = 64;

struct LanePlace {
  enum class Kind { kElement, kPadding, kBeyond } kind = Kind::kElement;
  size_t element = 0;  // flat row-major index in the tensor (kind kElement)
};

// Where lane `lane` of lane slice `slice` lands in a tensor of shape `shape` (an empty shape is a
// scalar: one channel). kBeyond: the slice lies past the tensor's last position.
[[nodiscard]] LanePlace placeLane(const std::vector<int32_t>& shape, size_t slice, unsigned lane);

// The row-major coordinates of flat element `element` of `shape` (for reports).
[[nodiscard]] std::vector<int32_t> coordinatesOf(const std::vector<int32_t>& shape, size_t element);

}  // namespace coralsim::sim
