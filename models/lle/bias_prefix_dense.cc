#include "models/lle/bias_prefix_dense.h"

#include <cstring>

namespace coralsim::lle {

std::vector<int32_t> biasPrefixDenseSums(const BiasPrefixDenseShape& shape, std::span<const uint8_t> input,
                                         std::span<const std::span<const uint8_t>> rows) {
  std::vector<int32_t> sums(shape.lanes);
  for (unsigned c = 0; c < shape.lanes; ++c) {
    int32_t bias = 0;
    if (shape.biasRow) std::memcpy(&bias, rows[0].data() + 4 * c, 4);
    const size_t firstGroup = shape.biasRow ? 1 : 0;
    int32_t sum = bias;
    for (uint32_t g = 0; g < shape.groups; ++g) {
      for (unsigned i = 0; i < 4; ++i) {
        const int32_t x = input[4 * g + i];
        const int32_t w = rows[firstGroup + g][4 * c + i];
        sum += (x - shape.zpIn) * (w - shape.zpWeight);
      }
    }
    sums[c] = sum;
  }
  return sums;
}

}  // namespace coralsim::lle
