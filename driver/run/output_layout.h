// The device's output byte order and libedgetpu's re-layout into TFLite order.
//
// The device streams multi-dimensional outputs tile-major (docs/isa.md §5.4): the z bytes of element
// (y, x) of an output layer start at
//   tileByteOffset[yTile[y] + xTile[x]] + yLocalOffset[y] * xRowSize[x] + xLocalByteOffset[x]
// of the layer's buffer (executable.fbs OutputLayout). The host gathers them back into TFLite's
// row-major (y, x, z) order, as libedgetpu does before handing outputs to TFLite; when every
// element already sits at (y * X + x) * Z the stream is TFLite order (up to trailing padding).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "driver/model/executable.h"

namespace coralsim::driver {

// Where element (y, x) starts in the device buffer; nullopt when a map has no entry for it.
std::optional<int64_t> outputElementOffset(const OutputLayout& layout, int64_t y, int64_t x);

// True without a layout; false when a map is too short to cover the layer's dimensions.
bool outputLayoutIsTfliteOrder(const Layer& layer);

// The layer's y * x * z bytes in TFLite order, gathered from `device` (the layer's buffer as the
// device wrote it). Without a layout: the first y * x * z bytes. nullopt when the dimensions are
// not positive, a map is too short, or an element lies outside `device`.
std::optional<std::vector<uint8_t>> deviceToTfliteOrder(const Layer& layer, std::span<const uint8_t> device);

// The inverse, for tests and device models: TFLite-order bytes placed at their device positions in
// a buffer of layer.sizeBytes (bytes no element covers stay 0). nullopt as above.
std::optional<std::vector<uint8_t>> tfliteToDeviceOrder(const Layer& layer, std::span<const uint8_t> tflite);

}  // namespace coralsim::driver
