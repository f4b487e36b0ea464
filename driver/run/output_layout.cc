#include "driver/run/output_layout.h"

namespace coralsim::driver {
namespace {

bool dimsUsable(const Layer& layer) { return layer.yDim > 0 && layer.xDim > 0 && layer.zDim > 0; }

usb::OutputGeometry geometryOf(const Layer& layer) {
  return {layer.yDim, layer.xDim, layer.zDim, layer.outputLayout ? &*layer.outputLayout : nullptr};
}

size_t tfliteBytes(const Layer& layer) {
  return static_cast<size_t>(layer.yDim) * static_cast<size_t>(layer.xDim) * static_cast<size_t>(layer.zDim);
}

}  // namespace

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
  std::vector<uint8_t> out(tfliteBytes(layer));
  if (!usb::deviceToTfliteOrder(geometryOf(layer), device, out).empty()) return std::nullopt;
  return out;
}

std::optional<std::vector<uint8_t>> tfliteToDeviceOrder(const Layer& layer, std::span<const uint8_t> tflite) {
  if (!dimsUsable(layer) || layer.sizeBytes < 0) return std::nullopt;
  if (tflite.size() != tfliteBytes(layer)) return std::nullopt;
  std::vector<uint8_t> out(static_cast<size_t>(layer.sizeBytes), 0);
  if (!usb::tfliteToDeviceOrder(geometryOf(layer), tflite, out).empty()) return std::nullopt;
  return out;
}

}  // namespace coralsim::driver
