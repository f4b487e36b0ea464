#include "driver/run/tensor_encoding.h"

#include <array>
#include <utility>

namespace coralsim::driver {
namespace {

// TensorType on-disk values (driver/model/tflite_enums.def) and their element sizes.
constexpr std::array<std::pair<TfliteTensorType, size_t>, 15> kElementBytes = {{
    {0, 4},   // FLOAT32
    {1, 2},   // FLOAT16
    {2, 4},   // INT32
    {3, 1},   // UINT8
    {4, 8},   // INT64
    {6, 1},   // BOOL
    {7, 2},   // INT16
    {8, 8},   // COMPLEX64
    {9, 1},   // INT8
    {10, 8},  // FLOAT64
    {11, 16}, // COMPLEX128
    {12, 8},  // UINT64
    {14, 4},  // UINT32
    {15, 2},  // UINT16
    {16, 1},  // INT4 (packed two per byte in files; the Edge TPU never uses it at its boundary)
}};

}  // namespace

std::optional<size_t> tfliteElementBytes(TfliteTensorType type) {
  for (const auto& [t, bytes] : kElementBytes) {
    if (t == type) return bytes;
  }
  return std::nullopt;
}

void flipSignBits(std::span<uint8_t> bytes) {
  for (uint8_t& b : bytes) b ^= 0x80;
}

}  // namespace coralsim::driver
