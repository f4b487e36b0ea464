// Image input for classification models (`coralsim demo`, the ground-truth checks): an uncompressed
// BMP decoder (the corpus test images are 24-bit BI_RGB with a V5 header) and TFLite-style resizing
// to a model's input size.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace coralsim::driver {

struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;  // row-major, top row first, 3 bytes per pixel
};

// Reads a BI_RGB BMP with 24 or 32 bits per pixel (or 8 bits with a palette), bottom-up or
// top-down. Throws LoadError (driver/model/load_error.h) naming the file, the offset and what is wrong.
RgbImage readBmp(const std::filesystem::path& path);

// RESIZE_BILINEAR as TFLite computes it for uint8 (float interpolation; half_pixel_centers maps
// output pixel centres onto input pixel centres, otherwise src = dst * in / out), rounded to
// nearest. Returns height x width x 3 bytes.
std::vector<uint8_t> resizeBilinear(const RgbImage& image, int width, int height, bool halfPixelCenters);

}  // namespace coralsim::driver
