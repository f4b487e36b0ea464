#include "sim/layer_check/tensor_comparison.h"

#include <cstdlib>
#include <stdexcept>

#include "sim/layer_check/lane_layout.h"

namespace coralsim::sim {

TensorComparison compareWithTwin(const TwinTensor& twin, std::span<const CapturedCompute> packets,
                                 std::span<const size_t> layerPackets, unsigned tolerance) {
  TensorComparison result;
  result.elements = 1;
  for (int32_t d : twin.shape) result.elements *= d > 0 ? static_cast<size_t>(d) : 0;
  if (twin.bytes.size() != result.elements) {
    throw std::invalid_argument("twin tensor '" + twin.name + "' has " + std::to_string(twin.bytes.size()) +
                                " bytes for " + std::to_string(result.elements) +
                                " elements: only 8-bit tensors are compared");
  }
  const uint8_t flip = twin.int8 ? 0x80 : 0x00;
  size_t slice = 0;
  for (size_t k : layerPackets) {
    const CapturedCompute& packet = packets[k];
    for (size_t i = 0; i < packet.tiles.size(); ++i, ++slice) {
      const std::vector<uint8_t>& lanes = packet.lanes[i];
      for (unsigned lane = 0; lane < lanes.size(); ++lane) {
        const LanePlace place = placeLane(twin.shape, slice, lane);
        if (place.kind == LanePlace::Kind::kBeyond) {
          ++result.slicesBeyond;
          break;
        }
        if (place.kind == LanePlace::Kind::kPadding) continue;
        ++result.compared;
        const uint8_t expected = twin.bytes[place.element] ^ flip;
        if (lanes[lane] == expected) continue;
        ++result.differing;
        const auto d = static_cast<unsigned>(std::abs(int{lanes[lane]} - int{expected}));
        if (d > result.maxAbsDiff) result.maxAbsDiff = d;
        const bool beyond = d > tolerance;
        if (beyond) ++result.beyondTolerance;
        // A difference beyond the tolerance outranks any within it; among equals the lowest element wins.
        const bool firstBeyond = result.first && std::abs(int{result.first->lle} - int{result.first->twin}) >
                                                     static_cast<int>(tolerance);
        if (!result.first || (beyond && !firstBeyond) || (beyond == firstBeyond && place.element < result.first->element)) {
          result.first = LaneDifference{place.element, coordinatesOf(twin.shape, place.element), k, packet.pc,
                                        packet.tiles[i], lane, packet.narrowAddress + lane, lanes[lane], expected};
        }
      }
    }
  }
  return result;
}

}  // namespace coralsim::sim
