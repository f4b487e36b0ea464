// The size of a compute's output element (ComputeOutputBytes, w4[82:80], docs/decoding-log.md "w4b82") and the
// output nest's slot-6 flag pair that goes with it (ComputeOut37Flags6, w6[121:120], "soft2b" §A: 3 beside 4-byte
// units, 0 beside 1-byte elements -- read as the element's last byte, bytes - 1). The 4-byte forms write units
// of four one-byte lanes; the softmax sequences' one-iteration computes write one byte (lle_rung_one_byte_output.cc);
// the 856 BodyPix / PoseNet computes carrying 0 (beside a number in w4[98:83]) are not executed. A compute whose
// pair disagrees with its element size (the 7 BodyPix decoder output computes carry 1 beside 4) is refused here,
// naming the fields, rather than written as either.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

constexpr uint64_t kExecutedOutputBytes = 4;  // one unit of four one-byte lanes
constexpr uint64_t kOneByteOutput = 1;        // the one-byte output form (LleRung::computeOneByteOutput)

// Why the compute's output element is neither the 4-byte unit nor the one byte the executors write, or "" when it
// is one of them (the caller dispatches on ComputeOutputBytes).
[[nodiscard]] inline std::string outputElementBytesProblem(std::span<const isa::Word128> words) {
  const uint64_t bytes = readField(words, LleField::ComputeOutputBytes);
  const std::string field = "ComputeOutputBytes (word 4 bits 82:80) = " + std::to_string(bytes);
  if (bytes == kExecutedOutputBytes || bytes == kOneByteOutput) {
    const uint64_t flags = readField(words, LleField::ComputeOut37Flags6);
    if (flags == bytes - 1) return "";
    return field + " with ComputeOut37Flags6 (word 6 bits 121:120) = " + std::to_string(flags) + ": the pair is " +
           std::to_string(bytes - 1) + " (the element's last byte) beside " + std::to_string(bytes) +
           "-byte output elements in every corpus compute but 7 BodyPix decoder output computes (1 beside 4, not decoded)";
  }
  return field + ": the executed forms write 4-byte units (4) or one byte (1); " +
         (bytes == 0 ? std::string("0 goes with ComputeOutHalfPositions (half the output nest's level-0 positions); what the form writes is not decoded") : std::string("no corpus compute carries it"));
}

}  // namespace coralsim::lle
