// The device's output byte order: where each element of an output layer sits in what the device
// sends on EP 0x81, and the mapping between that order and TFLite's row-major (y, x, z) order, in
// both directions. Written once here, below both sides of the seam: the host gathers outputs back
// into TFLite order (driver/output_layout.h, as libedgetpu does), the hle rung scatters the CPU
// twin's outputs into the device's order (models/hle/hle_rung.cc).
//
// The device streams multi-dimensional outputs tile-major (docs/isa.md §5.4): the z bytes of
// element (y, x) of an output layer start at
//   linearizedTileByteOffset[yCoordinateToLinearTileId[y] + xCoordinateToLinearTileId[x]]
//     + yCoordinateToLocalYOffset[y] * xCoordinateToLocalYRowSize[x] + xCoordinateToLocalByteOffset[x]
// of the layer's buffer (the six maps of executable.fbs OutputLayout). Without a layout an element
// sits at its TFLite offset (y * X + x) * Z.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace coralsim::usb {

// executable.fbs OutputLayout, field for field.
struct OutputLayout {
  std::vector<int32_t> yCoordinateToLinearTileId;
  std::vector<int32_t> xCoordinateToLinearTileId;
  std::vector<int32_t> linearizedTileByteOffset;
  std::vector<int32_t> xCoordinateToLocalByteOffset;
  std::vector<int32_t> yCoordinateToLocalYOffset;
  std::vector<int32_t> xCoordinateToLocalYRowSize;
};

// One output layer's geometry: its dimensions and its map (null: TFLite order).
struct OutputGeometry {
  int64_t yDim = 0;
  int64_t xDim = 0;
  int64_t zDim = 0;
  const OutputLayout* layout = nullptr;
};

// Where element (y, x) starts in the device buffer; nullopt when a map has no entry for it.
[[nodiscard]] std::optional<int64_t> outputElementOffset(const OutputLayout& layout, int64_t y, int64_t x);

// The pair. `tflite` holds yDim * xDim * zDim bytes in TFLite order, `device` the layer's buffer
// in the device's order. Each copies every element's z bytes from one to the other (device bytes
// no element covers are left as they are) and returns "", or a sentence saying why the layout
// cannot be followed (naming the map with no entry, or the element that lies outside `device`);
// then the destination is partly written.
[[nodiscard]] std::string deviceToTfliteOrder(const OutputGeometry& geometry, std::span<const uint8_t> device,
                                              std::span<uint8_t> tflite);
[[nodiscard]] std::string tfliteToDeviceOrder(const OutputGeometry& geometry, std::span<const uint8_t> tflite,
                                              std::span<uint8_t> device);

}  // namespace coralsim::usb
