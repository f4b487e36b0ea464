// The driver's tile-major -> TFLite re-layout (driver/run/output_layout.h) on a hand-made layout whose
// device positions are written out below by hand from the schema's formula, not computed.
#include <gtest/gtest.h>

#include <numeric>

#include "driver/run/output_layout.h"

namespace {

using coralsim::driver::Layer;
using coralsim::driver::OutputLayout;

// y = 2, x = 3, z = 4. Tile 0 holds columns x = 0, 1 (rows of 8 bytes); tile 1, 16 bytes further,
// holds column x = 2 (rows of 4 bytes).
Layer twoTileLayer() {
  Layer l;
  l.name = "out";
  l.yDim = 2;
  l.xDim = 3;
  l.zDim = 4;
  l.sizeBytes = 24;
  OutputLayout o;
  o.yCoordinateToLinearTileId = {0, 0};
  o.xCoordinateToLinearTileId = {0, 0, 1};
  o.linearizedTileByteOffset = {0, 16};
  o.xCoordinateToLocalByteOffset = {0, 4, 0};
  o.yCoordinateToLocalYOffset = {0, 1};
  o.xCoordinateToLocalYRowSize = {8, 8, 4};
  l.outputLayout = o;
  return l;
}

// TFLite element (y, x) has bytes (y * 3 + x) * 4 .. + 3; the device places them at
//   (0,0) 0   (0,1) 4   (1,0) 8   (1,1) 12   (0,2) 16   (1,2) 20.
const std::vector<uint8_t> kDeviceOrder = {0, 1, 2, 3,  4, 5, 6, 7,  12, 13, 14, 15,
                                           16, 17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23};

std::vector<uint8_t> tfliteOrder() {
  std::vector<uint8_t> v(24);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

TEST(OutputLayout, GathersTileMajorBytesIntoTfliteOrder) {
  const Layer l = twoTileLayer();
  EXPECT_FALSE(coralsim::driver::outputLayoutIsTfliteOrder(l));
  const auto tflite = coralsim::driver::deviceToTfliteOrder(l, kDeviceOrder);
  ASSERT_TRUE(tflite.has_value());
  EXPECT_EQ(*tflite, tfliteOrder());
}

TEST(OutputLayout, ScattersTfliteOrderIntoDevicePositions) {
  const auto device = coralsim::driver::tfliteToDeviceOrder(twoTileLayer(), tfliteOrder());
  ASSERT_TRUE(device.has_value());
  EXPECT_EQ(*device, kDeviceOrder);
}

TEST(OutputLayout, IdentityLayoutAndPaddedBufferKeepTheBytes) {
  Layer l;
  l.yDim = 1;
  l.xDim = 1;
  l.zDim = 5;
  l.sizeBytes = 8;  // padded like the 1001-class outputs (1008 bytes)
  l.outputLayout = OutputLayout{{0}, {0}, {0, 64}, {0}, {0}, {64}};
  EXPECT_TRUE(coralsim::driver::outputLayoutIsTfliteOrder(l));
  const std::vector<uint8_t> device = {9, 8, 7, 6, 5, 0xee, 0xee, 0xee};
  const auto tflite = coralsim::driver::deviceToTfliteOrder(l, device);
  ASSERT_TRUE(tflite.has_value());
  EXPECT_EQ(*tflite, (std::vector<uint8_t>{9, 8, 7, 6, 5}));
}

TEST(OutputLayout, RefusesMapsThatDoNotCoverTheLayer) {
  Layer l = twoTileLayer();
  l.outputLayout->xCoordinateToLocalByteOffset.pop_back();  // no entry for x = 2
  EXPECT_FALSE(coralsim::driver::deviceToTfliteOrder(l, kDeviceOrder).has_value());
  EXPECT_FALSE(coralsim::driver::outputLayoutIsTfliteOrder(l));

  Layer outside = twoTileLayer();
  outside.outputLayout->linearizedTileByteOffset[1] = 22;  // column 2 would end past byte 24
  EXPECT_FALSE(coralsim::driver::deviceToTfliteOrder(outside, kDeviceOrder).has_value());
  EXPECT_FALSE(coralsim::driver::deviceToTfliteOrder(twoTileLayer(), std::vector<uint8_t>(20)).has_value());

  Layer zero = twoTileLayer();
  zero.zDim = 0;
  EXPECT_FALSE(coralsim::driver::deviceToTfliteOrder(zero, kDeviceOrder).has_value());
}

}  // namespace
