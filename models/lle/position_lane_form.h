// The position-lane compute form (docs/decoding-log.md "obytes"): the 856 corpus computes whose output element
// (ComputeOutputBytes, w4[98:80]) is a whole output position of C channel bytes -- the 3 x 3 depthwise layers of the
// BodyPix / PoseNet 1280 x 720 and 324 decoders. Their lanes are the output positions, not the channels:
//   ComputeLaneGroups + 1 = P positions (Nest37's levels 3-4, the position columns and rows of a padded H x W x C grid);
//   Output37 level 0 counts the U = C / 4 channel units of a position, its level-0 step (ComputeOut37Step) applied
//   after the walk over the P positions, which step one element (U units) each: 1 - (P - 1) x U, the next unit of
//   position 0 (ComputePositionStep37, Nest37's slot-0 carry, is U as well: the grid's tap column is one position).
//   So position p's unit u lands at ComputeOutputAt / 4 + p x U + u: an H x W x C tensor,
//   C bytes a position, the layout the next compute on the tiles reads (its input nest: U units at stride 1, the
//   positions at stride U);
//   Nest37 walks the taps (levels 0-2), the positions (3-4) and the units (5, stride 1), Nest29 the taps, the positions
//   (stride 0) and the units (stride 0): each unit u is an output block of 4 lanes that takes the weight stream's
//   next block (its prefix arrays, then the 9 tap groups of 16 bytes), the layout of the 16-channel decoders'
//   depthwise streams ("dec17" §A).
// So the convolution form runs it with 4 lanes (one unit a position and block) and the output nest below; the
// relations it rests on are checked here (all hold in 856 / 856 corpus computes, scripts/scan_position_lane_form.py).
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/output_nest.h"

namespace coralsim::lle {

// The element size of the 4-byte unit; a larger one is a position of that many channel bytes.
inline constexpr uint64_t kPositionLaneMinBytes = 5;

// Whether the compute writes whole positions (ComputeOutputBytes above 4).
[[nodiscard]] bool isPositionLaneForm(std::span<const isa::Word128> words);

// "" where the position-lane compute's fields agree with the form (element = 4 x Output37's level-0 units, the positions
// ComputeLaneGroups + 1 = Nest37's levels 3 x 4, Nest37 level 5 the units at stride 1, Output37 levels 1-6 idle,
// ComputeOut37Step = 1 - (P - 1) x U), else the reason naming the fields. "" for every other compute.
[[nodiscard]] std::string positionLaneFormProblem(std::span<const isa::Word128> words);

// The form's output nest in 4-byte units: level 0 the P positions one element (ComputeOutputBytes / 4 units) apart,
// level 1 Output37's level 0 (the units, carried by ComputeOut37Step), from ComputeOutputAt / 4.
[[nodiscard]] OutputNest positionLaneOutputNest(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
