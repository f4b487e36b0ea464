#include "driver/output_layout.h"

#include <cstdint>

namespace coralsim::driver {

bool outputLayoutIsTfliteOrder(const Layer& layer) {
  if (!layer.outputLayout) return true;
  const OutputLayout& l = *layer.outputLayout;
  const int64_t ys = layer.yDim, xs = layer.xDim, zs = layer.zDim;
  if (ys < 0 || xs < 0 || zs < 0) return false;
  auto at = [](const std::vector<int32_t>& v, int64_t i, int64_t& out) {
    if (i < 0 || static_cast<size_t>(i) >= v.size()) return false;
    out = v[static_cast<size_t>(i)];
    return true;
  };
  for (int64_t y = 0; y < ys; ++y) {
    for (int64_t x = 0; x < xs; ++x) {
      int64_t yTile = 0, xTile = 0, tileOffset = 0, yLocal = 0, rowSize = 0, xLocal = 0;
      if (!at(l.yCoordinateToLinearTileId, y, yTile) || !at(l.xCoordinateToLinearTileId, x, xTile) ||
          !at(l.linearizedTileByteOffset, yTile + xTile, tileOffset) || !at(l.yCoordinateToLocalYOffset, y, yLocal) ||
          !at(l.xCoordinateToLocalYRowSize, x, rowSize) || !at(l.xCoordinateToLocalByteOffset, x, xLocal)) {
        return false;
      }
      if (tileOffset + yLocal * rowSize + xLocal != (y * xs + x) * zs) return false;
    }
  }
  return true;
}

}  // namespace coralsim::driver
