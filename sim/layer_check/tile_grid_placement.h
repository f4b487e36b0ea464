// Rule 3 of the lane layout (lane_layout.h): where the positions of a layer's several-position packets go
// when the layer is not an executable's output layer (no OutputLayout, rule 2). Every tile gets the same
// packet, so the packet does not say which block of the image a tile holds; what is decoded is
//   (a) the tile grid: the mesh's neighbours are t ± 1 along x and t ± 4 along y (0x15-0x18, the halo
//       exchange of a spatially tiled convolution: docs/decoding-log.md "mesh" §C), tile t = 4 ty + tx;
//   (b) each tile's output positions in its output nest's order, each at its narrow address
//       (compute_observer.h), so a tile's row of w positions is where the address step first changes
//       (a padded grid: the row's last position to the next row's first steps over the halo).
// The rule: the layer's tensor (H x W positions) is cut into the grid's blocks, tile (ty, tx) holding
// rows Y0(ty) .. + h(ty) - 1 and columns X0(tx) .. + w(tx) - 1 (Y0, X0 the sums of the blocks above /
// to the left), its positions row-major in nest order. Where no tile of a column shows its row (dense
// outputs), the grid's blocks are taken equal (H / 4 x W / 4) only if every tile holds that many.
// It is refused (every position unplaced, the reason said) unless the blocks add up to H and W exactly,
// each tile's positions fill its block, and the addresses step uniformly along each row and between rows:
// a chunked program (a part of the image a run) or a layout it does not describe is not guessed.
// Evidence: gabor 64² / 128² 7k, whose outputs rule 2 places through the OutputLayout: rule 3 places
// every position where rule 2 does (corpus_layer_check); MobileNet v2 wo_fc 224² Conv1 (16 tiles of
// 28 x 28 positions on a 30-wide padded grid) then equals the twin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/layer_check/compute_capture.h"

namespace coralsim::sim {

class TileGridPlacement {
 public:
  // The placement of the positions `packets[k]` (k in `layerPackets`) wrote, on a tensor of `shape`
  // (N x H x W x C, N = 1); or the reason there is none (`problem`).
  static TileGridPlacement of(const std::vector<int32_t>& shape, std::span<const CapturedCompute> packets,
                              std::span<const size_t> layerPackets);

  [[nodiscard]] bool placed() const { return problem_.empty(); }
  // The layer's packets write more lanes a position than its channels in 4-lane units: they are not this
  // layer's (the MAC-work mapping gave them to it), so they do not fit it (a verdict, not a comparison).
  [[nodiscard]] bool wider() const { return wider_; }
  [[nodiscard]] const std::string& problem() const { return problem_; }
  // The flat element index of channel 0 of position `position` (nest order) of tile `tile`.
  [[nodiscard]] std::optional<size_t> firstElement(unsigned tile, size_t position) const;

 private:
  struct Block {
    size_t y0 = 0, x0 = 0, h = 0, w = 0;
  };
  std::string problem_;
  bool wider_ = false;
  std::vector<std::optional<Block>> blocks_;  // by tile
  size_t width_ = 0;                          // W
  size_t channels_ = 0;                       // C
};

// The row length a tile's positions show by their addresses: the count of positions before the address
// step first changes (none when it never does, or with fewer than 2 positions). Checks that every row
// repeats the first one's steps; 0 when they do not.
[[nodiscard]] std::optional<size_t> rowLengthOf(std::span<const uint64_t> positionAt);

}  // namespace coralsim::sim
