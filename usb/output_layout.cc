#include "usb/output_layout.h"

#include <algorithm>

namespace coralsim::usb {
namespace {

// The map's entry i, or nullopt; `missing` names the map (its executable.fbs name) when there is none.
std::optional<int64_t> entry(const std::vector<int32_t>& map, int64_t i, const char* name, const char** missing) {
  if (i < 0 || static_cast<size_t>(i) >= map.size()) {
    *missing = name;
    return std::nullopt;
  }
  return map[static_cast<size_t>(i)];
}

// The element offset or, in `missing` / `index`, the first map (in formula order) with no entry.
std::optional<int64_t> elementOffset(const OutputLayout& l, int64_t y, int64_t x, const char** missing,
                                     int64_t* index) {
  *index = y;
  const auto yTile = entry(l.yCoordinateToLinearTileId, y, "y_coordinate_to_linear_tile_id", missing);
  if (!yTile) return std::nullopt;
  *index = x;
  const auto xTile = entry(l.xCoordinateToLinearTileId, x, "x_coordinate_to_linear_tile_id", missing);
  if (!xTile) return std::nullopt;
  *index = *yTile + *xTile;
  const auto tileOffset = entry(l.linearizedTileByteOffset, *index, "linearized_tile_byte_offset", missing);
  if (!tileOffset) return std::nullopt;
  *index = y;
  const auto yLocal = entry(l.yCoordinateToLocalYOffset, y, "y_coordinate_to_local_y_offset", missing);
  if (!yLocal) return std::nullopt;
  *index = x;
  const auto rowSize = entry(l.xCoordinateToLocalYRowSize, x, "x_coordinate_to_local_y_row_size", missing);
  if (!rowSize) return std::nullopt;
  const auto xLocal = entry(l.xCoordinateToLocalByteOffset, x, "x_coordinate_to_local_byte_offset", missing);
  if (!xLocal) return std::nullopt;
  return *tileOffset + *yLocal * *rowSize + *xLocal;
}

// Calls copy(tfliteOffset, deviceOffset, z) for every element in TFLite order; "" or why not.
template <typename Copy>
std::string forEachElement(const OutputGeometry& g, size_t tfliteBytes, size_t deviceBytes, Copy copy) {
  const int64_t ys = g.yDim, xs = g.xDim, zs = g.zDim;
  if (ys < 0 || xs < 0 || zs < 0 || static_cast<uint64_t>(ys * xs * zs) != tfliteBytes) {
    return "a TFLite buffer of " + std::to_string(tfliteBytes) + " bytes for dimensions " + std::to_string(ys) +
           " x " + std::to_string(xs) + " x " + std::to_string(zs);
  }
  for (int64_t y = 0; y < ys; ++y) {
    for (int64_t x = 0; x < xs; ++x) {
      const int64_t tfliteOffset = (y * xs + x) * zs;
      int64_t deviceOffset = tfliteOffset;
      if (g.layout) {
        const char* missing = "";
        int64_t index = 0;
        const auto o = elementOffset(*g.layout, y, x, &missing, &index);
        if (!o) return std::string("OutputLayout map ") + missing + " has no entry " + std::to_string(index);
        deviceOffset = *o;
      }
      if (deviceOffset < 0 || static_cast<uint64_t>(deviceOffset + zs) > deviceBytes) {
        return "element (" + std::to_string(y) + ", " + std::to_string(x) + ") maps to byte " +
               std::to_string(deviceOffset) + ", outside the layer's " + std::to_string(deviceBytes) + " bytes";
      }
      copy(static_cast<size_t>(tfliteOffset), static_cast<size_t>(deviceOffset), static_cast<size_t>(zs));
    }
  }
  return "";
}

}  // namespace

std::optional<int64_t> outputElementOffset(const OutputLayout& layout, int64_t y, int64_t x) {
  const char* missing = "";
  int64_t index = 0;
  return elementOffset(layout, y, x, &missing, &index);
}

std::string deviceToTfliteOrder(const OutputGeometry& geometry, std::span<const uint8_t> device,
                                std::span<uint8_t> tflite) {
  return forEachElement(geometry, tflite.size(), device.size(), [&](size_t t, size_t d, size_t z) {
    std::copy_n(device.begin() + static_cast<ptrdiff_t>(d), z, tflite.begin() + static_cast<ptrdiff_t>(t));
  });
}

std::string tfliteToDeviceOrder(const OutputGeometry& geometry, std::span<const uint8_t> tflite,
                                std::span<uint8_t> device) {
  return forEachElement(geometry, tflite.size(), device.size(), [&](size_t t, size_t d, size_t z) {
    std::copy_n(tflite.begin() + static_cast<ptrdiff_t>(t), z, device.begin() + static_cast<ptrdiff_t>(d));
  });
}

}  // namespace coralsim::usb
