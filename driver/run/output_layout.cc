#include "driver/run/output_layout.h"

#include <algorithm>

namespace coralsim::driver {
namespace {

std::optional<int64_t> entry(const std::vector<int32_t>& v, int64_t i) {
  if (i < 0 || static_cast<size_t>(i) >= v.size()) return std::nullopt;
  return v[static_cast<size_t>(i)];
}

bool dimsUsable(const Layer& layer) { return layer.yDim > 0 && layer.xDim > 0 && layer.zDim > 0; }

// Calls place(tfliteOffset, deviceOffset) for every element; false when the layout cannot be
// followed (see deviceToTfliteOrder).
template <typename Place>
bool forEachElement(const Layer& layer, size_t deviceSize, Place place) {
  if (!dimsUsable(layer)) return false;
  const int64_t ys = layer.yDim, xs = layer.xDim, zs = layer.zDim;
  for (int64_t y = 0; y < ys; ++y) {
    for (int64_t x = 0; x < xs; ++x) {
      const int64_t tfliteOffset = (y * xs + x) * zs;
      int64_t deviceOffset = tfliteOffset;
      if (layer.outputLayout) {
        const auto o = outputElementOffset(*layer.outputLayout, y, x);
        if (!o) return false;
        deviceOffset = *o;
      }
      if (deviceOffset < 0 || static_cast<uint64_t>(deviceOffset + zs) > deviceSize) return false;
      place(static_cast<size_t>(tfliteOffset), static_cast<size_t>(deviceOffset), static_cast<size_t>(zs));
    }
  }
  return true;
}

}  // namespace

std::optional<int64_t> outputElementOffset(const OutputLayout& l, int64_t y, int64_t x) {
  const auto yTile = entry(l.yCoordinateToLinearTileId, y);
  const auto xTile = entry(l.xCoordinateToLinearTileId, x);
  if (!yTile || !xTile) return std::nullopt;
  const auto tileOffset = entry(l.linearizedTileByteOffset, *yTile + *xTile);
  const auto yLocal = entry(l.yCoordinateToLocalYOffset, y);
  const auto rowSize = entry(l.xCoordinateToLocalYRowSize, x);
  const auto xLocal = entry(l.xCoordinateToLocalByteOffset, x);
  if (!tileOffset || !yLocal || !rowSize || !xLocal) return std::nullopt;
  return *tileOffset + *yLocal * *rowSize + *xLocal;
}

bool outputLayoutIsTfliteOrder(const Layer& layer) {
  if (!layer.outputLayout) return true;
  const int64_t ys = layer.yDim, xs = layer.xDim, zs = layer.zDim;
  if (ys < 0 || xs < 0 || zs < 0) return false;
  for (int64_t y = 0; y < ys; ++y) {
    for (int64_t x = 0; x < xs; ++x) {
      const auto o = outputElementOffset(*layer.outputLayout, y, x);
      if (!o || *o != (y * xs + x) * zs) return false;
    }
  }
  return true;
}

std::optional<std::vector<uint8_t>> deviceToTfliteOrder(const Layer& layer, std::span<const uint8_t> device) {
  if (!dimsUsable(layer)) return std::nullopt;
  std::vector<uint8_t> out(static_cast<size_t>(layer.yDim) * static_cast<size_t>(layer.xDim) * static_cast<size_t>(layer.zDim));
  const bool ok = forEachElement(layer, device.size(), [&](size_t t, size_t d, size_t z) {
    std::copy_n(device.begin() + static_cast<ptrdiff_t>(d), z, out.begin() + static_cast<ptrdiff_t>(t));
  });
  if (!ok) return std::nullopt;
  return out;
}

std::optional<std::vector<uint8_t>> tfliteToDeviceOrder(const Layer& layer, std::span<const uint8_t> tflite) {
  if (!dimsUsable(layer) || layer.sizeBytes < 0) return std::nullopt;
  if (tflite.size() != static_cast<size_t>(layer.yDim) * static_cast<size_t>(layer.xDim) * static_cast<size_t>(layer.zDim)) {
    return std::nullopt;
  }
  std::vector<uint8_t> out(static_cast<size_t>(layer.sizeBytes), 0);
  const bool ok = forEachElement(layer, out.size(), [&](size_t t, size_t d, size_t z) {
    std::copy_n(tflite.begin() + static_cast<ptrdiff_t>(t), z, out.begin() + static_cast<ptrdiff_t>(d));
  });
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace coralsim::driver
