// A single-output reduction split over Nest37's position level (docs/decoding-log.md "trkfc" §B): the trackers'
// FULLY_CONNECTED computes reduce (K + 1) x P groups into one output position -- Nest37 level 0 counts K + 1 groups
// (ComputeK4W1), level 2 P "positions" (ComputePositions + 1) whose groups follow each other (slot 1's carry one unit),
// the output nest holds one position (ComputeOutPositions 0), and the weight nests count the same P at their level 1
// (ComputeLimit29[0], ComputeLimitW10[0], ComputeLimitW0[0]). Read so the input walk is one run of (K + 1) P units from
// ComputeInputAt4 -- a Dense reduction whose K the compiler splits (bright 128^2: 16,384 bytes as 32 x 128 groups; the
// 14-bit weight-nest limits hold 1,023 at most).
// Slot 0's carry (ComputePositionStep37) is the carry of level 1, which runs once, so it is never applied; the compiler
// writes there what takes level 1 past the whole walk: (K + 1) x (P - 1) + 1 units (level 1's stride (K + 1) P, the
// element-wise (K = 0) and Dense (P = 1) forms' "P" being its two special cases). In 21 / 21 corpus computes of the form
// (bright / colour 64^2: 32 x 32, step 993; 128^2: 32 x 128, step 4,065, two each). The relation table's rows for the
// one-output forms (ComputePositionStep37 = P, ComputeOutPositions = ComputePositions) are this form's check instead.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// The form: 4-byte input elements, no ring, no parameter prefix, not the unrequantised copy, no tap-row level, K groups
// (ComputeK4W1 > 0) over positions (ComputePositions > 0) into one output position, the weight nest counting the
// positions at its level 1 (ComputeLimit29[0] = ComputePositions).
[[nodiscard]] bool isPositionSplitReduction(std::span<const isa::Word128> words);

// "" where the form's walk is one run of (K + 1) P units (checked fields above); else the reason, naming the field.
[[nodiscard]] std::string positionSplitReductionProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
