// Whether an output layer's OutputLayout (driver/executable.h) leaves the bytes in TFLite order.
// The device streams multi-dimensional outputs tile-major; the byte of element (y, x, z) sits at
//   tileByteOffset[yTile[y] + xTile[x]] + yLocalOffset[y] * xRowSize[x] + xLocalByteOffset[x] + z
// (schema documentation). When that equals (y * X + x) * Z for every (y, x) the stream is already
// in TFLite order; the general re-layout is not implemented yet.
#pragma once

#include "driver/executable.h"

namespace coralsim::driver {

// True without a layout; false when a map is too short to cover the layer's dimensions.
bool outputLayoutIsTfliteOrder(const Layer& layer);

}  // namespace coralsim::driver
