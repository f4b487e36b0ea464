#include "sim/layer_check/tile_grid_placement.h"

#include <algorithm>
#include <map>

namespace coralsim::sim {
namespace {

constexpr unsigned kGridSide = 4;  // the mesh: 4 x 4 tiles, t = 4 ty + tx
constexpr unsigned kGridTiles = kGridSide * kGridSide;

}  // namespace

std::optional<size_t> rowLengthOf(std::span<const uint64_t> positionAt) {
  const size_t n = positionAt.size();
  if (n < 2) return std::nullopt;
  const int64_t step = static_cast<int64_t>(positionAt[1] - positionAt[0]);
  size_t w = n;
  for (size_t i = 1; i < n; ++i) {
    if (static_cast<int64_t>(positionAt[i] - positionAt[i - 1]) != step) {
      w = i;
      break;
    }
  }
  if (w == n) return std::nullopt;
  if (n % w != 0) return 0;
  const int64_t rowStride = static_cast<int64_t>(positionAt[w] - positionAt[0]);
  for (size_t i = 0; i < n; ++i) {
    const auto r = static_cast<int64_t>(i / w), c = static_cast<int64_t>(i % w);
    if (static_cast<int64_t>(positionAt[i] - positionAt[0]) != r * rowStride + c * step) return 0;
  }
  return w;
}

TileGridPlacement TileGridPlacement::of(const std::vector<int32_t>& shape, std::span<const CapturedCompute> packets,
                                        std::span<const size_t> layerPackets) {
  TileGridPlacement grid;
  if (shape.size() != 4 || shape[0] != 1 || shape[1] <= 0 || shape[2] <= 0 || shape[3] <= 0) {
    grid.problem_ = "the tensor is not 1 x H x W x C";
    return grid;
  }
  const auto H = static_cast<size_t>(shape[1]), W = static_cast<size_t>(shape[2]);
  grid.width_ = W;
  grid.channels_ = static_cast<size_t>(shape[3]);
  // Each tile's positions: one packet a tile (a tile written by two of the layer's packets holds channel blocks
  // or passes this rule does not lay out).
  std::map<unsigned, std::span<const uint64_t>> at;
  for (size_t k : layerPackets) {
    const CapturedCompute& packet = packets[k];
    if (packet.bytesPerPosition > (grid.channels_ + 3) / 4 * 4) {
      grid.problem_ = "a packet writes " + std::to_string(packet.bytesPerPosition) + " lanes a position, more than the " +
                      std::to_string(grid.channels_) + " channels in 4-lane units: not this layer's packet";
      grid.wider_ = true;
      return grid;
    }
    if (packet.bytesPerPosition < grid.channels_) {
      grid.problem_ = "a packet writes " + std::to_string(packet.bytesPerPosition) + " lanes a position of " +
                      std::to_string(grid.channels_) + " channels (channel blocks)";
      return grid;
    }
    for (size_t i = 0; i < packet.tiles.size(); ++i) {
      if (packet.tiles[i] >= kGridTiles || !at.emplace(packet.tiles[i], packet.positionAt[i]).second) {
        grid.problem_ = "tile " + std::to_string(packet.tiles[i]) + " is written by two of the layer's packets";
        return grid;
      }
    }
  }
  unsigned side = 0;
  if (at.size() == kGridTiles) side = kGridSide;
  if (at.size() == 1 && at.begin()->first == 0) side = 1;
  if (side == 0) {
    grid.problem_ = std::to_string(at.size()) + " tiles written: not the whole 4 x 4 grid (a chunk, or a part of the layer)";
    return grid;
  }
  // Column widths from the tiles whose rows show in their addresses.
  std::vector<std::optional<size_t>> width(side);
  for (const auto& [tile, positions] : at) {
    const std::optional<size_t> w = rowLengthOf(positions);
    if (w && *w == 0) {
      grid.problem_ = "tile " + std::to_string(tile) + "'s addresses do not step uniformly along rows";
      return grid;
    }
    const unsigned tx = side == 1 ? 0 : tile % side;
    if (!w) continue;
    if (width[tx] && *width[tx] != *w) {
      grid.problem_ = "the tiles of grid column " + std::to_string(tx) + " show rows of " + std::to_string(*width[tx]) +
                      " and " + std::to_string(*w) + " positions";
      return grid;
    }
    width[tx] = w;
  }
  const bool anyUnknown = std::ranges::any_of(width, [](const auto& w) { return !w.has_value(); });
  if (anyUnknown) {
    // Dense outputs show no row: equal blocks, only where the tensor divides and every tile holds one block.
    const bool equal = H % side == 0 && W % side == 0 &&
                       std::ranges::all_of(at, [&](const auto& e) { return e.second.size() == (H / side) * (W / side); });
    if (!equal) {
      grid.problem_ = "no row shows in the addresses of a grid column and the tiles do not hold equal blocks of " +
                      std::to_string(H) + " x " + std::to_string(W);
      return grid;
    }
    for (auto& w : width) {
      if (!w) w = W / side;
    }
  }
  std::vector<size_t> x0(side + 1, 0), y0(side + 1, 0), height(side, 0);
  for (unsigned tx = 0; tx < side; ++tx) x0[tx + 1] = x0[tx] + *width[tx];
  for (unsigned ty = 0; ty < side; ++ty) {
    std::optional<size_t> h;
    for (unsigned tx = 0; tx < side; ++tx) {
      const auto& positions = at.at(ty * side + tx);
      const size_t hTile = positions.size() / *width[tx];
      if (positions.size() % *width[tx] != 0 || (h && *h != hTile)) {
        grid.problem_ = "tile " + std::to_string(ty * side + tx) + "'s " + std::to_string(positions.size()) +
                        " positions do not fill a block of its grid row and column";
        return grid;
      }
      h = hTile;
    }
    height[ty] = *h;
    y0[ty + 1] = y0[ty] + *h;
  }
  if (x0[side] != W || y0[side] != H) {
    grid.problem_ = "the tiles' blocks cover " + std::to_string(y0[side]) + " x " + std::to_string(x0[side]) +
                    " positions of " + std::to_string(H) + " x " + std::to_string(W);
    return grid;
  }
  grid.blocks_.assign(kGridTiles, std::nullopt);
  for (const auto& [tile, positions] : at) {
    const unsigned ty = side == 1 ? 0 : tile / side, tx = side == 1 ? 0 : tile % side;
    grid.blocks_[tile] = Block{y0[ty], x0[tx], height[ty], *width[tx]};
  }
  return grid;
}

std::optional<size_t> TileGridPlacement::firstElement(unsigned tile, size_t position) const {
  if (!placed() || tile >= blocks_.size() || !blocks_[tile]) return std::nullopt;
  const Block& b = *blocks_[tile];
  if (position >= b.h * b.w) return std::nullopt;
  const size_t y = b.y0 + position / b.w, x = b.x0 + position % b.w;
  return (y * width_ + x) * channels_;
}

}  // namespace coralsim::sim
