#pragma once
// The input nest's level-0 step in bytes (lle_fields.def ComputeInputStepHigh, docs/decoding-log.md "w1b86" §A):
// w1[99:81] is one number, ComputeInputBytes its low three bits. In the packed forms it equals the element
// (4, 2, 1 bytes) and in the average pools it is 0 (one element held over the taps), so the executors read the
// element size alone; the high bits are set only where a depthwise walks a padded H x W x C grid: level 0 steps
// a tap column, C bytes, while each iteration's lanes read the 4-byte unit (4 channels) at the address (the
// element of ComputeInputBytesCode 0). Kept here so that the step and the element stay apart where they differ.

#include <cstdint>
#include <span>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

// The byte step of Nest37's level 0.
[[nodiscard]] inline uint64_t inputStepBytes(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeInputBytes) + 8 * readField(words, LleField::ComputeInputStepHigh);
}

// A level-0 step wider than any element: the input is an H x W x C grid walked a tap column (C bytes) at a time,
// 4-byte units read (the 207 MobileNet v2 wo_fc depthwise computes; ComputeInputBytes 0 and code 0 there).
[[nodiscard]] inline bool walksAChannelGrid(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeInputStepHigh) != 0;
}

}  // namespace coralsim::lle
