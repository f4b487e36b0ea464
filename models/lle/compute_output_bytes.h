// The size of a compute's output element (ComputeOutputBytes, w4[82:80], docs/decoding-log.md "w4b82"): the
// output side's ComputeInputBytes. Every form the rung executes writes 4-byte units of four one-byte lanes, and
// every corpus compute of those forms carries 4; the 28 softmax-sequence computes carrying 1 (1-byte input
// elements weighed by 16-bit weights) and the 856 BodyPix / PoseNet computes carrying 0 (beside a number in
// w4[98:83]) are not executed, so a compute carrying anything but 4 is refused here, naming the field, rather
// than written as 4-byte units.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

constexpr uint64_t kExecutedOutputBytes = 4;  // one unit of four one-byte lanes

// Why the compute's output element is not the 4-byte unit the executors write, or "" when it is.
[[nodiscard]] inline std::string outputElementBytesProblem(std::span<const isa::Word128> words) {
  const uint64_t bytes = readField(words, LleField::ComputeOutputBytes);
  if (bytes == kExecutedOutputBytes) return "";
  const std::string field = "ComputeOutputBytes (word 4 bits 82:80) = " + std::to_string(bytes);
  if (bytes == 1) {
    return field + ": 1-byte output elements (the softmax sequences' computes of 1-byte inputs and 16-bit weights) are not executed; "
                   "every executed form writes 4-byte units";
  }
  return field + ": every executed form writes 4-byte units (4); " +
         (bytes == 0 ? std::string("0 goes with a number in word 4 bits 98:83 that is not decoded") : std::string("no corpus compute carries it"));
}

}  // namespace coralsim::lle
