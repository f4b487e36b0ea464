#include "driver/run/bmp_image.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "driver/model/load_error.h"

namespace coralsim::driver {
namespace {

uint32_t u32(const std::vector<uint8_t>& b, size_t at) {
  return static_cast<uint32_t>(b[at]) | static_cast<uint32_t>(b[at + 1]) << 8 | static_cast<uint32_t>(b[at + 2]) << 16 |
         static_cast<uint32_t>(b[at + 3]) << 24;
}
uint16_t u16(const std::vector<uint8_t>& b, size_t at) { return static_cast<uint16_t>(b[at] | b[at + 1] << 8); }

std::vector<uint8_t> readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path.string() + ": cannot open the image");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

RgbImage readBmp(const std::filesystem::path& path) {
  const std::vector<uint8_t> b = readFile(path);
  const auto fail = [&](size_t offset, const std::string& what) {
    throw LoadError(path.string() + ": offset " + std::to_string(offset) + ": " + what);
  };
  if (b.size() < 54 || b[0] != 'B' || b[1] != 'M') fail(0, "not a BMP file (no 'BM' signature or shorter than 54 bytes)");
  const uint32_t dataOffset = u32(b, 10);
  const uint32_t headerSize = u32(b, 14);
  if (headerSize < 40) fail(14, "info header of " + std::to_string(headerSize) + " bytes (need BITMAPINFOHEADER or later)");
  const auto width = static_cast<int32_t>(u32(b, 18));
  const auto rawHeight = static_cast<int32_t>(u32(b, 22));
  const uint16_t bits = u16(b, 28);
  const uint32_t compression = u32(b, 30);
  if (compression != 0 && !(compression == 3 && bits == 32)) fail(30, "compression " + std::to_string(compression) + " is not supported");
  if (bits != 24 && bits != 32 && bits != 8) fail(28, std::to_string(bits) + " bits per pixel is not supported");
  if (width <= 0 || rawHeight == 0 || width > 1 << 15 || std::abs(rawHeight) > 1 << 15) fail(18, "bad dimensions");
  const bool bottomUp = rawHeight > 0;
  const int height = std::abs(rawHeight);
  const size_t rowBytes = (static_cast<size_t>(width) * bits / 8 + 3) / 4 * 4;
  if (dataOffset + rowBytes * static_cast<size_t>(height) > b.size()) {
    fail(dataOffset, "pixel data needs " + std::to_string(rowBytes * static_cast<size_t>(height)) + " bytes, the file has " +
                         std::to_string(b.size() - std::min<size_t>(dataOffset, b.size())));
  }
  const size_t paletteAt = 14 + headerSize;
  RgbImage img;
  img.width = width;
  img.height = height;
  img.rgb.resize(static_cast<size_t>(width) * static_cast<size_t>(height) * 3);
  for (int y = 0; y < height; ++y) {
    const size_t row = dataOffset + rowBytes * static_cast<size_t>(bottomUp ? height - 1 - y : y);
    for (int x = 0; x < width; ++x) {
      uint8_t r = 0, g = 0, bl = 0;
      if (bits == 8) {
        const size_t entry = paletteAt + 4 * static_cast<size_t>(b[row + static_cast<size_t>(x)]);
        if (entry + 3 > b.size()) fail(entry, "palette entry outside the file");
        bl = b[entry];
        g = b[entry + 1];
        r = b[entry + 2];
      } else {
        const size_t p = row + static_cast<size_t>(x) * (bits / 8);
        bl = b[p];  // BMP stores blue, green, red
        g = b[p + 1];
        r = b[p + 2];
      }
      uint8_t* out = &img.rgb[(static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 3];
      out[0] = r;
      out[1] = g;
      out[2] = bl;
    }
  }
  return img;
}

std::vector<uint8_t> resizeBilinear(const RgbImage& image, int width, int height, bool halfPixelCenters) {
  std::vector<uint8_t> out(static_cast<size_t>(width) * static_cast<size_t>(height) * 3);
  const float scaleY = static_cast<float>(image.height) / static_cast<float>(height);
  const float scaleX = static_cast<float>(image.width) / static_cast<float>(width);
  const auto source = [&](int dst, float scale) {
    return halfPixelCenters ? (static_cast<float>(dst) + 0.5F) * scale - 0.5F : static_cast<float>(dst) * scale;
  };
  const auto px = [&](int y, int x, int c) {
    return static_cast<float>(image.rgb[(static_cast<size_t>(y) * static_cast<size_t>(image.width) + static_cast<size_t>(x)) * 3 +
                                        static_cast<size_t>(c)]);
  };
  for (int y = 0; y < height; ++y) {
    const float sy = source(y, scaleY);
    const int y0 = std::max(static_cast<int>(std::floor(sy)), 0);
    const int y1 = std::min(static_cast<int>(std::ceil(sy)), image.height - 1);
    const float dy = sy - std::floor(sy);
    for (int x = 0; x < width; ++x) {
      const float sx = source(x, scaleX);
      const int x0 = std::max(static_cast<int>(std::floor(sx)), 0);
      const int x1 = std::min(static_cast<int>(std::ceil(sx)), image.width - 1);
      const float dx = sx - std::floor(sx);
      for (int c = 0; c < 3; ++c) {
        const float v = px(y0, x0, c) * (1 - dy) * (1 - dx) + px(y0, x1, c) * (1 - dy) * dx + px(y1, x0, c) * dy * (1 - dx) +
                        px(y1, x1, c) * dy * dx;
        out[(static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 3 + static_cast<size_t>(c)] =
            static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
      }
    }
  }
  return out;
}

}  // namespace coralsim::driver
