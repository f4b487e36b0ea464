// Where a compute packet's results sit in its layer's output tensor: the rules the layer checker lays
// the lle rung's tile memory on the CPU twin's tensor with. A packet tells, per tile, the output
// positions its output nest wrote (models/lle/compute_observer.h: each position's narrow address and
// its lanes, in nest order); the identity copies, which stage a layer's input in its padded grid, are
// not placed (their bytes are the input image, not the layer's output).
//
// Rule 1, packets of one position a tile (the Dense compute; the stride sweep's one-step
// convolution). A tile computes `w` output channels of one position (w = the packet's lanes: 64 for
// Dense, 4 x (ComputeLaneGroups + 1) for a convolution). A layer's compute packets, in issue order,
// and within a packet its tiles in ascending order, give the layer's lane slices 0, 1, 2, ...; slice
// s holds channels w x (s mod B) .. + w - 1 of output position s div B, where B = ceil(C / w) slices
// (slices of several widths: SliceWalk below, each slice from the channel after the one before)
// cover the C channels (the last dimension) of one position. Lanes at channel >= C are the tile's
// padding and compare with nothing. Evidence: the Dense-256 and Dense-1024 templates (tiles 0-3
// resp. 0-15 of one packet hold channels 0-255 resp. 0-1023, bit-exact against the golden data);
// the stride sweep's 1 x 1 convolution (one 4-lane position on tile 0, lane 0 the output's one
// channel, 57 / 57 golden bytes, docs/decoding-log.md "stride" §F).
//
// Rule 2, packets of several positions a tile (the convolutions, depthwise, 8-lane broadcast-fed
// ones, element-wise forms). Where a tile's positions go is not in the packet (every tile gets the
// same packet; the tile's block of the image is what its staging put there), so a layer's positions
// are placed through the map the program itself gives the host for the bytes the tiles send out: the
// executable's OutputLayout (executable.fbs, usb/output_layout.h), which says for each (y, x) of an
// output layer its tile and its byte offset in that tile's part of the output stream,
//   yToLocalYOffset[y] x xToLocalYRowSize[x] + xToLocalByteOffset[x].
// The tile's output stream is its narrow memory from the lowest address the layer's packets wrote
// on it, in address order (the outfeed reads the results out contiguously): so a position written at
// narrow address a on tile t is the element whose layout tile is t and whose local offset is a - base_t,
// lane l its channel l (lanes >= Z are padding). A position with no such element is counted as
// unplaced (the rule does not hold there). Evidence: gabor 64² / 128² 7k (16 tiles, each a 16 x 16 /
// 32 x 32 block of 8-channel positions in one convolution packet, row size 128 / 256 bytes), whose whole
// outputs are golden-exact on the lle rung through this layout ("bcast10"): with the rule, 32,768 /
// 32,768 and 131,072 / 131,072 elements equal the twin's (corpus_layer_check), and a flipped parameter
// byte is named at the element where the lle output first differs. The rule covers layers that are an
// executable's output layer only.
//
// Rule 3, several positions a tile on an intermediate layer (no OutputLayout): the 4 x 4 tile grid, each
// tile's block row-major, its row length from its positions' addresses (tile_grid_placement.h, with its
// evidence); where it does not hold (a chunk, blocks that do not add up, a tile written twice, channel
// blocks) the positions stay unplaced with the reason, not guessed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "usb/output_layout.h"

namespace coralsim::sim {

struct LanePlace {
  enum class Kind { kElement, kPadding, kBeyond } kind = Kind::kElement;
  size_t element = 0;  // flat row-major index in the tensor (kind kElement)
};

// Rule 1: where lane `lane` of lane slice `slice` (`lanesPerSlice` lanes wide) lands in a tensor of
// shape `shape` (an empty shape is a scalar: one channel). kBeyond: the slice lies past the tensor's
// last position.
[[nodiscard]] LanePlace placeLane(const std::vector<int32_t>& shape, size_t slice, unsigned lane, unsigned lanesPerSlice = 64);

// Rule 1 where the slices of a layer are not all one width (model_dense's Dense: tile 0 computes 64 lanes,
// tile 1 the last 36 of the 100 channels, ComputeLaneGroups 15 / 8): the slices lie one after another along
// a position's channels, each starting where the one before ended, and a slice that reaches the last channel
// ends the position (its lanes past it are padding). For slices of one width this is placeLane.
class SliceWalk {
 public:
  explicit SliceWalk(const std::vector<int32_t>& shape);
  // Where lane `lane` of the current slice lands.
  [[nodiscard]] LanePlace place(unsigned lane) const;
  // The next slice begins after this one's `lanes` lanes.
  void next(unsigned lanes);

 private:
  size_t channels_ = 0;
  size_t positions_ = 0;
  size_t position_ = 0;
  size_t firstChannel_ = 0;
};

// Rule 2: an output layer's positions by tile and local byte offset.
class OutputLayoutPlacement {
 public:
  // `layout` of an output layer of y x x positions of z channels (the tensor's last three dimensions).
  OutputLayoutPlacement(const usb::OutputLayout& layout, int64_t y, int64_t x, int64_t z);

  // The element of lane `lane` of the position tile `tile` wrote `localOffset` bytes past its base;
  // kBeyond when the layout has no position there.
  [[nodiscard]] LanePlace place(unsigned tile, uint64_t localOffset, unsigned lane) const;

 private:
  std::unordered_map<uint64_t, size_t> firstElement_;  // (tile << 40 | local offset) -> element of channel 0
  int64_t z_ = 0;
};

// The row-major coordinates of flat element `element` of `shape` (for reports).
[[nodiscard]] std::vector<int32_t> coordinatesOf(const std::vector<int32_t>& shape, size_t element);

}  // namespace coralsim::sim
