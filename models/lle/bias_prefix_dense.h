// The single-position (Dense) compute whose parameter prefix is the int32 bias array alone (ComputeParamPrefix 1,
// docs/decoding-log.md "loomdense"). The tile's wide memory holds, one receive row (256 addresses) each, the prefix's
// one array and then the K groups, the first group at the row ComputeStreamTag names ("dense43"): row 0 (the one before
// it) lane c's int32 bias at bytes 4c .. 4c + 3 (little-endian), row 1 + g group
// g's weights, lane c's weight for input byte i at byte 4c + i, uint8 less the packet's weight zero point
// (ComputeZpWeight). Each lane's sum is bias + sum over the K bytes of (x - ComputeZpIn) (w - ComputeZpWeight); with
// no f32 scale array the packet's multiplier is the whole scale (the rung requantises with scale 1).
// Without a prefix (ComputeParamPrefix 0, docs/decoding-log.md "fcx" §A: the 64 x 64 trackers' first FULLY_CONNECTED,
// whose caching run received its K groups from wide row ComputeStreamTag on) the rows are the K groups alone, from the
// tag's row, and the sums have no bias: the same walk with the bias row left out.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace coralsim::lle {

inline constexpr uint64_t kBiasPrefixDenseRowAddresses = 256;  // one wide receive row (the prefix-2 Dense's pitch)

struct BiasPrefixDenseShape {
  uint32_t groups = 0;  // K groups of 4 input bytes (ComputeK4W0 + 1)
  unsigned lanes = 0;   // output lanes (4 x (ComputeLaneGroups + 1))
  int32_t zpIn = 0;     // ComputeZpIn
  int32_t zpWeight = 0;  // ComputeZpWeight
  bool biasRow = true;   // ComputeParamPrefix 1: rows[0] is the bias; 0: no bias, rows[g] is group g
};

// `input`: 4 x groups bytes; `rows`: 1 + groups rows of at least 4 x lanes bytes (row 0 the bias), or the groups' rows
// alone where the shape has no bias row. Returns each lane's int32 sum.
[[nodiscard]] std::vector<int32_t> biasPrefixDenseSums(const BiasPrefixDenseShape& shape, std::span<const uint8_t> input,
                                                       std::span<const std::span<const uint8_t>> rows);

}  // namespace coralsim::lle
