// How TFLite tensor bytes become the bytes the device reads and writes. The Edge TPU always works
// in uint8: an int8 tensor is the same quantised value with its sign bit flipped (docs/isa.md §5.4;
// the zero points in the executable's layers are int8 zp + 128). The host flips inputs on the way
// in and outputs on the way out; every other type passes unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "driver/model/model_file.h"

namespace coralsim::driver {

inline constexpr TfliteTensorType kTfliteUint8 = 3;
inline constexpr TfliteTensorType kTfliteInt8 = 9;

// Bytes per element of a TFLite tensor type; nullopt for types without a fixed size or unknown ones.
std::optional<size_t> tfliteElementBytes(TfliteTensorType type);

// True when the wire form differs from the TFLite form by XOR 0x80.
inline bool flipsSignOnWire(TfliteTensorType type) { return type == kTfliteInt8; }

// In place: int8 <-> device uint8 (its own inverse).
void flipSignBits(std::span<uint8_t> bytes);

}  // namespace coralsim::driver
