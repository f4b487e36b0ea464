// The size of a compute's output element (ComputeOutputBytes, w4[98:80], docs/decoding-log.md "w4b82", "obytes") and the
// output nest's slot-6 flag pair that goes with it (ComputeOut37Flags6, w6[121:120], "soft2b" §A: 3 beside 4-byte
// units, 0 beside 1-byte elements -- read as the element's last byte, bytes - 1). The 4-byte forms write units
// of four one-byte lanes; the softmax sequences' one-iteration computes write one byte (lle_rung_one_byte_output.cc);
// the 856 BodyPix / PoseNet depthwise computes whose element is a whole position of C channel bytes (C = 24 ... 384,
// w4[98:80] read as one number: docs/decoding-log.md "obytes") are the convolution form with the positions as lanes
// (position_lane_form.h), checked there. A compute whose
// pair disagrees with its element size (the 7 BodyPix decoder output computes carry 1 beside 4) is refused here,
// naming the fields, rather than written as either.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"
#include "models/lle/position_lane_form.h"

namespace coralsim::lle {

constexpr uint64_t kExecutedOutputBytes = 4;  // one unit of four one-byte lanes
constexpr uint64_t kOneByteOutput = 1;        // the one-byte output form (LleRung::computeOneByteOutput)

// Why the compute's output element is neither the 4-byte unit nor the one byte the executors write, or "" when it
// is one of them (the caller dispatches on ComputeOutputBytes).
[[nodiscard]] inline std::string outputElementBytesProblem(std::span<const isa::Word128> words) {
  const uint64_t bytes = readField(words, LleField::ComputeOutputBytes);
  const std::string field = "ComputeOutputBytes (word 4 bits 98:80) = " + std::to_string(bytes);
  if (bytes == kExecutedOutputBytes || bytes == kOneByteOutput || isPositionLaneForm(words)) {
    // The position element's slot-6 pair is 3 in all 856 (the last byte of each of its 4-byte units).
    if (isPositionLaneForm(words)) {
      if (std::string problem = positionLaneFormProblem(words); !problem.empty()) return problem;
      const uint64_t flags = readField(words, LleField::ComputeOut37Flags6);
      if (flags == kExecutedOutputBytes - 1) return "";
      return field + " with ComputeOut37Flags6 (word 6 bits 121:120) = " + std::to_string(flags) +
             ": the pair is 3 beside every position element of the corpus (856 / 856); another value is not decoded";
    }
    const uint64_t flags = readField(words, LleField::ComputeOut37Flags6);
    if (flags == bytes - 1) return "";
    return field + " with ComputeOut37Flags6 (word 6 bits 121:120) = " + std::to_string(flags) + ": the pair is " +
           std::to_string(bytes - 1) + " (the element's last byte) beside " + std::to_string(bytes) +
           "-byte output elements in every corpus compute but 7 BodyPix decoder output computes (1 beside 4, not decoded)";
  }
  return field + ": the executed forms write 4-byte units (4), one byte (1) or a position of C > 4 channel bytes; " +
         std::to_string(bytes) + " is carried by no corpus compute";
}

}  // namespace coralsim::lle
