#include "sim/layer_check/tensor_comparison.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <stdexcept>

namespace coralsim::sim {
namespace {

// Counts one lane placed on the twin's tensor and keeps the first difference.
class Tally {
 public:
  Tally(const TwinTensor& twin, unsigned tolerance, TensorComparison& result)
      : twin_(twin), flip_(twin.int8 ? 0x80 : 0x00), tolerance_(tolerance), result_(result) {}

  void lane(size_t element, uint8_t value, size_t k, const CapturedCompute& packet, size_t tileIndex, unsigned lane, uint64_t address) {
    ++result_.compared;
    const uint8_t expected = twin_.bytes[element] ^ flip_;
    if (value == expected) return;
    ++result_.differing;
    const auto d = static_cast<unsigned>(std::abs(int{value} - int{expected}));
    result_.maxAbsDiff = std::max(result_.maxAbsDiff, d);
    const bool beyond = d > tolerance_;
    if (beyond) ++result_.beyondTolerance;
    // A difference beyond the tolerance outranks any within it; among equals the lowest element wins.
    const auto& first = result_.first;
    const bool firstBeyond = first && std::abs(int{first->lle} - int{first->twin}) > static_cast<int>(tolerance_);
    if (!first || (beyond && !firstBeyond) || (beyond == firstBeyond && element < first->element)) {
      result_.first = LaneDifference{element, coordinatesOf(twin_.shape, element), k, packet.pc, packet.tiles[tileIndex], lane,
                                     address, value, expected};
    }
  }

 private:
  const TwinTensor& twin_;
  uint8_t flip_;
  unsigned tolerance_;
  TensorComparison& result_;
};

bool undefinedAt(const CapturedCompute& packet, size_t tileIndex, size_t position) {
  if (tileIndex >= packet.undefined.size()) return false;
  const std::vector<uint8_t>& undefined = packet.undefined[tileIndex];
  return position < undefined.size() && undefined[position] != 0;
}

bool writesSeveralPositions(const CapturedCompute& packet) {
  return std::ranges::any_of(packet.positionAt, [](const auto& at) { return at.size() > 1; });
}

}  // namespace

TensorComparison compareWithTwin(const TwinTensor& twin, std::span<const CapturedCompute> packets,
                                 std::span<const size_t> layerPackets, unsigned tolerance,
                                 const OutputLayoutPlacement* outputLayout) {
  TensorComparison result;
  result.elements = 1;
  for (int32_t d : twin.shape) result.elements *= d > 0 ? static_cast<size_t>(d) : 0;
  if (twin.bytes.size() != result.elements) {
    throw std::invalid_argument("twin tensor '" + twin.name + "' has " + std::to_string(twin.bytes.size()) +
                                " bytes for " + std::to_string(result.elements) +
                                " elements: only 8-bit tensors are compared");
  }
  Tally tally(twin, tolerance, result);
  std::vector<size_t> outputs;  // the layer's packets that compute its output (rule 1 or 2)
  bool severalPositions = false;
  for (size_t k : layerPackets) {
    if (lle::stagesInput(packets[k].form)) {
      ++result.stagingPackets;
      continue;
    }
    outputs.push_back(k);
    severalPositions = severalPositions || writesSeveralPositions(packets[k]);
  }
  if (!severalPositions) {
    SliceWalk walk(twin.shape);  // slices of several widths follow each other along the channels
    for (size_t k : outputs) {
      const CapturedCompute& packet = packets[k];
      for (size_t i = 0; i < packet.tiles.size(); walk.next(packet.bytesPerPosition), ++i) {
        const std::vector<uint8_t>& lanes = packet.lanes[i];
        const uint64_t at = packet.positionAt[i].empty() ? 0 : packet.positionAt[i].front();
        for (unsigned lane = 0; lane < lanes.size(); ++lane) {
          const LanePlace place = walk.place(lane);
          if (place.kind == LanePlace::Kind::kBeyond) {
            ++result.slicesBeyond;
            break;
          }
          if (place.kind == LanePlace::Kind::kPadding) continue;
          tally.lane(place.element, lanes[lane], k, packet, i, lane, at + lane);
        }
      }
    }
    return result;
  }
  // Rule 2: each tile's base is the lowest address the layer's packets wrote on it.
  std::map<unsigned, uint64_t> base;
  for (size_t k : outputs) {
    for (size_t i = 0; i < packets[k].tiles.size(); ++i) {
      auto [it, inserted] = base.try_emplace(packets[k].tiles[i], std::numeric_limits<uint64_t>::max());
      for (const uint64_t at : packets[k].positionAt[i]) it->second = std::min(it->second, at);
    }
  }
  // Rule 3 where the layer has no OutputLayout: the tile grid, from the positions' addresses.
  // Where rule 2 places the layer (the executable's own map), rule 3 is computed beside it and checked against it.
  const TileGridPlacement grid = TileGridPlacement::of(twin.shape, packets, outputs);
  if (!outputLayout && !grid.placed()) result.unplacedWhy = grid.problem();
  for (size_t k : outputs) {
    const CapturedCompute& packet = packets[k];
    for (size_t i = 0; i < packet.tiles.size(); ++i) {
      const std::vector<uint64_t>& positionAt = packet.positionAt[i];
      if (!outputLayout) {
        if (!grid.placed()) {
          (grid.wider() ? result.slicesBeyond : result.unplaced) += positionAt.size();
          continue;
        }
        for (size_t p = 0; p < positionAt.size(); ++p) {
          if (undefinedAt(packet, i, p)) {
            ++result.undefinedPositions;
            continue;
          }
          const std::optional<size_t> first = grid.firstElement(packet.tiles[i], p);
          if (!first) {
            ++result.unplaced;
            continue;
          }
          ++result.gridPlaced;
          for (unsigned lane = 0; lane < packet.bytesPerPosition; ++lane) {
            if (lane >= static_cast<unsigned>(twin.shape.back())) break;  // padding lanes
            tally.lane(*first + lane, packet.lanes[i][p * packet.bytesPerPosition + lane], k, packet, i, lane, positionAt[p] + lane);
          }
        }
        continue;
      }
      for (size_t p = 0; p < positionAt.size(); ++p) {
        if (undefinedAt(packet, i, p)) {
          ++result.undefinedPositions;
          continue;
        }
        const uint64_t local = positionAt[p] - base.at(packet.tiles[i]);
        if (grid.placed()) {
          const LanePlace byLayout = outputLayout->place(packet.tiles[i], local, 0);
          const std::optional<size_t> byGrid = grid.firstElement(packet.tiles[i], p);
          const bool agree = byLayout.kind == LanePlace::Kind::kElement && byGrid && *byGrid == byLayout.element;
          ++(agree ? result.gridAgrees : result.gridDisagrees);
        }
        for (unsigned lane = 0; lane < packet.bytesPerPosition; ++lane) {
          const LanePlace place = outputLayout->place(packet.tiles[i], local, lane);
          if (place.kind == LanePlace::Kind::kBeyond) {
            ++result.unplaced;
            break;
          }
          if (place.kind == LanePlace::Kind::kPadding) continue;
          tally.lane(place.element, packet.lanes[i][p * packet.bytesPerPosition + lane], k, packet, i, lane, positionAt[p] + lane);
        }
      }
    }
  }
  return result;
}

}  // namespace coralsim::sim
