#include "models/lle/output_half_positions.h"

#include <cstdint>

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr uint64_t kHalvedForm = 0;  // the ComputeOutputBytes value that carries the number

}  // namespace

std::string outputHalfPositionsProblem(std::span<const isa::Word128> words) {
  const uint64_t half = readField(words, LleField::ComputeOutHalfPositions);
  const uint64_t bytes = readField(words, LleField::ComputeOutputBytes);
  const std::string field = "ComputeOutHalfPositions (word 4 bits 98:83) = " + std::to_string(half);
  // 0 says nothing to check: the form's computes all carry a number, and the rung refuses element size 0 by name
  // before running it (compute_output_bytes.h), so a number-less one stops there rather than here.
  if (half == 0) return "";
  if (bytes != kHalvedForm) {
    return field + " with ComputeOutputBytes (word 4 bits 82:80) = " + std::to_string(bytes) +
           ": the number is 0 beside every element size but 0 (10,553 corpus computes); another value is not decoded";
  }
  const uint64_t positions = readField(words, LleField::ComputeOut37Limit0) + 1;
  if (2 * half == positions) return "";
  return field + " with ComputeOutputBytes (word 4 bits 82:80) = 0 and ComputeOut37Limit0 (word 5 bits 25:8) = " +
         std::to_string(positions - 1) + ": the number is half the level's " + std::to_string(positions) +
         " positions in all 856 corpus computes of the form; another value is not decoded";
}

}  // namespace coralsim::lle
