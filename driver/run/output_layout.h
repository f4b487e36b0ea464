// libedgetpu's re-layout of an output layer into TFLite order, on the driver's Layer.
//
// The device streams multi-dimensional outputs tile-major (docs/isa.md §5.4); the mapping between
// that order and TFLite's row-major (y, x, z) order is written once, in usb/output_layout.h (the
// device's output wire format; the hle rung uses the same pair). The host gathers outputs back into
// TFLite order, as libedgetpu does before handing them to TFLite; when every element already sits
// at (y * X + x) * Z the stream is TFLite order (up to trailing padding).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "driver/model/executable.h"
#include "usb/output_layout.h"

namespace coralsim::driver {

using usb::outputElementOffset;

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
