// Compares what a layer's compute packets wrote to tile memory (compute_capture.h) with the CPU
// twin's tensor for that layer, element by element, through the lane layout (lane_layout.h).
//
// Both sides in the device's encoding: the tiles hold uint8 (an int8 tensor's byte XOR 0x80, the
// wire convention of the hle rung and libedgetpu), so an int8 twin byte is flipped before the
// comparison and every value reported is the device byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/layer_check/compute_capture.h"
#include "sim/layer_check/lane_layout.h"
#include "sim/layer_check/tile_grid_placement.h"

namespace coralsim::sim {

// The twin's computed tensor of one layer (its first output), in TFLite encoding.
struct TwinTensor {
  int32_t index = -1;            // tensor index in the twin's subgraph 0
  std::string name;
  std::vector<int32_t> shape;
  bool int8 = false;             // INT8 (flipped to the device's uint8 for the comparison)
  std::vector<uint8_t> bytes;    // one byte per element
};

struct LaneDifference {
  size_t element = 0;                 // flat index in the tensor
  std::vector<int32_t> coordinates;   // its row-major coordinates
  size_t packet = 0;                  // index of the compute packet in the run (issue order)
  uint32_t pc = 0;
  unsigned tile = 0;
  unsigned lane = 0;
  uint64_t narrowAddress = 0;         // the byte's address in the tile's narrow memory
  uint8_t lle = 0;                    // the tile's byte
  uint8_t twin = 0;                   // the twin's byte, device encoding
};

struct TensorComparison {
  size_t elements = 0;        // in the twin's tensor
  size_t compared = 0;        // elements a lane of the layer's packets landed on
  size_t differing = 0;       // |lle - twin| > 0
  size_t beyondTolerance = 0; // |lle - twin| > the tolerance
  unsigned maxAbsDiff = 0;
  size_t slicesBeyond = 0;    // lane slices past the tensor's end: the packets do not fit the layout
  size_t unplaced = 0;        // positions of multi-position packets no rule placed (lane_layout.h rule 2)
  size_t undefinedPositions = 0;  // positions the rung marks undefined ("convx"): skipped, not compared
  size_t gridPlaced = 0;      // positions placed by the tile grid (tile_grid_placement.h, rule 3)
  size_t gridAgrees = 0;      // positions rule 2 placed where rule 3 places them too (rule 3 checked by the OutputLayout)
  size_t gridDisagrees = 0;   // positions rule 2 placed where rule 3 places them elsewhere or not at all
  std::string unplacedWhy;    // why rule 3 placed none (empty when it did or was not needed)
  size_t stagingPackets = 0;  // the layer's identity copies: its input staged, not compared
  // The element with the lowest index among those beyond the tolerance, or, when none is, among
  // the differing ones.
  std::optional<LaneDifference> first;
};

// `layerPackets`: indices into `packets` of the layer's compute packets, in issue order.
// `tolerance`: a difference of at most this many LSB counts in `differing`, not in
// `beyondTolerance` (the twin rounds as TFLite's fixed point, the lle epilogue as
// ChipConfig::requantRounding says: they may differ by 1 where a product lies near .5).
// `outputLayout`: lane_layout.h rule 2's map for a layer whose packets write several positions a
// tile (null: rule 3, the tile grid of tile_grid_placement.h, places them, or they are counted as
// unplaced with its reason); packets of one position a tile follow rule 1.
// Throws std::invalid_argument for a twin tensor whose byte count is not its element count (a
// type the comparison does not cover: int16, int32, float).
[[nodiscard]] TensorComparison compareWithTwin(const TwinTensor& twin, std::span<const CapturedCompute> packets,
                                               std::span<const size_t> layerPackets, unsigned tolerance = 0,
                                               const OutputLayoutPlacement* outputLayout = nullptr);

}  // namespace coralsim::sim
