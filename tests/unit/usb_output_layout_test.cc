// The one tile-major <-> TFLite mapping (usb/output_layout.h) both sides use: a layout with
// padding, several tiles and uneven row sizes round-trips in both directions, the bytes no element
// covers are left alone, and a layout that cannot be followed is named.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "usb/output_layout.h"

namespace {

using coralsim::usb::OutputGeometry;
using coralsim::usb::OutputLayout;

// y = 3, x = 4, z = 2 over two tiles: tile 0 (at byte 0) holds columns 0..2 in rows of 8 bytes
// (6 used, 2 padding); tile 1 (at byte 32) holds column 3 in rows of 4 bytes (2 used). 44 bytes.
OutputLayout paddedTwoTileLayout() {
  OutputLayout l;
  l.yCoordinateToLinearTileId = {0, 0, 0};
  l.xCoordinateToLinearTileId = {0, 0, 0, 1};
  l.linearizedTileByteOffset = {0, 32};
  l.xCoordinateToLocalByteOffset = {0, 2, 4, 0};
  l.yCoordinateToLocalYOffset = {0, 1, 2};
  l.xCoordinateToLocalYRowSize = {8, 8, 8, 4};
  return l;
}

TEST(UsbOutputLayout, RoundTripsThroughTheDeviceOrderBothWays) {
  const OutputLayout layout = paddedTwoTileLayout();
  const OutputGeometry g{3, 4, 2, &layout};
  std::vector<uint8_t> tflite(24);
  std::iota(tflite.begin(), tflite.end(), 1);

  std::vector<uint8_t> device(44, 0xee);
  ASSERT_EQ(coralsim::usb::tfliteToDeviceOrder(g, tflite, device), "");
  // Hand-checked positions: element (1, 3) = TFLite bytes 14, 15 (values 15, 16) at 32 + 1 * 4 + 0.
  EXPECT_EQ(device[36], 15);
  EXPECT_EQ(device[37], 16);
  // Element (2, 1) = TFLite bytes 18, 19 (values 19, 20) at 0 + 2 * 8 + 2.
  EXPECT_EQ(device[18], 19);
  EXPECT_EQ(device[19], 20);
  // Row padding of tile 0 (bytes 6, 7) is no element's: left as it was.
  EXPECT_EQ(device[6], 0xee);
  EXPECT_EQ(device[7], 0xee);

  std::vector<uint8_t> back(24, 0);
  ASSERT_EQ(coralsim::usb::deviceToTfliteOrder(g, device, back), "");
  EXPECT_EQ(back, tflite);

  // And from the device side: any device buffer survives device -> TFLite -> device on the bytes
  // the elements cover.
  std::vector<uint8_t> other(44);
  std::iota(other.begin(), other.end(), 100);
  std::vector<uint8_t> gathered(24);
  ASSERT_EQ(coralsim::usb::deviceToTfliteOrder(g, other, gathered), "");
  std::vector<uint8_t> scattered = device;
  ASSERT_EQ(coralsim::usb::tfliteToDeviceOrder(g, gathered, scattered), "");
  for (size_t i = 0; i < other.size(); ++i) {
    if (device[i] == 0xee) continue;  // padding: not an element's byte
    EXPECT_EQ(scattered[i], other[i]) << "device byte " << i;
  }
}

TEST(UsbOutputLayout, WithoutALayoutTheOrderIsTflites) {
  const OutputGeometry g{2, 2, 3, nullptr};
  std::vector<uint8_t> tflite(12);
  std::iota(tflite.begin(), tflite.end(), 0);
  std::vector<uint8_t> device(16, 0);
  ASSERT_EQ(coralsim::usb::tfliteToDeviceOrder(g, tflite, device), "");
  EXPECT_EQ(std::vector<uint8_t>(device.begin(), device.begin() + 12), tflite);
  EXPECT_EQ(device[12], 0);
}

TEST(UsbOutputLayout, NamesTheMapWithoutAnEntryAndTheElementOutsideTheBuffer) {
  OutputLayout shortMap = paddedTwoTileLayout();
  shortMap.xCoordinateToLocalYRowSize.pop_back();
  std::vector<uint8_t> tflite(24, 0);
  std::vector<uint8_t> device(44, 0);
  EXPECT_EQ(coralsim::usb::tfliteToDeviceOrder({3, 4, 2, &shortMap}, tflite, device),
            "OutputLayout map x_coordinate_to_local_y_row_size has no entry 3");

  const OutputLayout layout = paddedTwoTileLayout();
  std::vector<uint8_t> small(40, 0);
  EXPECT_EQ(coralsim::usb::deviceToTfliteOrder({3, 4, 2, &layout}, small, tflite),
            "element (2, 3) maps to byte 40, outside the layer's 40 bytes");
  EXPECT_EQ(coralsim::usb::outputElementOffset(layout, 2, 3), 40);
  EXPECT_EQ(coralsim::usb::outputElementOffset(layout, 3, 0), std::nullopt);
}

}  // namespace
