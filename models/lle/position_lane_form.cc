#include "models/lle/position_lane_form.h"

#include <array>
#include <cstdint>

#include "models/isa/compute_loop_nest.h"
#include "models/lle/compute_nest.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

constexpr unsigned kUnitBytes = 4;
// Nest37's levels in the form: the taps below 3, the position columns and rows at 3 and 4, the channel units at 5.
constexpr unsigned kPositionColumns = 3;
constexpr unsigned kPositionRows = 4;
constexpr unsigned kUnitLevel = 5;

int64_t signedField(std::span<const isa::Word128> words, LleField field) {
  const uint64_t width = fieldDef(field).width;
  const uint64_t raw = readField(words, field);
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>((raw ^ sign) - sign);
}

}  // namespace

bool isPositionLaneForm(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeOutputBytes) >= kPositionLaneMinBytes;
}

std::string positionLaneFormProblem(std::span<const isa::Word128> words) {
  if (!isPositionLaneForm(words)) return "";
  const uint64_t element = readField(words, LleField::ComputeOutputBytes);
  const std::string field = "ComputeOutputBytes (word 4 bits 98:80) = " + std::to_string(element) + " (a position of " +
                            std::to_string(element) + " channel bytes)";
  const std::array<uint64_t, isa::kComputeNestLevels> output = isa::readComputeNestLimits(isa::ComputeNest::Output37, words);
  const uint64_t units = output[0] + 1;
  if (element != kUnitBytes * units) {
    return field + " with ComputeOut37Limit0 (word 5 bits 25:8) = " + std::to_string(output[0]) +
           ": the element is 4 x Output37's level-0 units in all 856 corpus computes of the form; another size is not decoded";
  }
  for (unsigned level = 1; level < isa::kComputeNestLevels; ++level) {
    if (output[level] != 0) {
      return field + ": Output37 level " + std::to_string(level) + " counts " + std::to_string(output[level] + 1) +
             " (idle in all 856 corpus computes of the form: the positions are the lanes); not decoded";
    }
  }
  const ComputeLoopNest input = computeNestFromPacket(isa::ComputeNest::Nest37, words, 0);
  const uint64_t positions = readField(words, LleField::ComputeLaneGroups) + 1;
  const uint64_t walked = (input.limits[kPositionColumns] + 1) * (input.limits[kPositionRows] + 1);
  if (positions != walked) {
    return field + " with ComputeLaneGroups (word 4 bits 118:99) = " + std::to_string(positions - 1) + ": the lanes are the " +
           std::to_string(positions) + " positions, but Nest37's levels 3-4 walk " + std::to_string(walked) + "; not decoded";
  }
  if (input.limits[kUnitLevel] != units - 1 || input.strides[kUnitLevel] != 1 || input.limits[kUnitLevel + 1] != 0) {
    return field + ": Nest37 level 5 must walk the " + std::to_string(units) + " channel units at stride 1 (limit " +
           std::to_string(input.limits[kUnitLevel]) + ", stride " + std::to_string(input.strides[kUnitLevel]) +
           ") and level 6 be idle, as in all 856 corpus computes of the form";
  }
  // The positions lie one element (U units) apart; Output37's level-0 step, applied after the last of them, is then
  // 1 - (P - 1) x U, the next unit of position 0 (856 / 856): a dense H x W x C tensor.
  const int64_t step = signedField(words, LleField::ComputeOut37Step);
  if (const int64_t dense = 1 - static_cast<int64_t>((positions - 1) * units); step != dense) {
    return field + " with ComputeOut37Step (word 4 bit 119, 17 bits) = " + std::to_string(step) + ": after " +
           std::to_string(positions) + " positions of " + std::to_string(units) + " units the next unit of position 0 is " +
           std::to_string(dense) + " away (856 / 856 corpus computes); another step is not decoded";
  }
  return "";
}

OutputNest positionLaneOutputNest(std::span<const isa::Word128> words) {
  const std::array<uint64_t, isa::kComputeNestLevels> output = isa::readComputeNestLimits(isa::ComputeNest::Output37, words);
  std::array<uint64_t, isa::kComputeNestLevels> limits{};
  limits[0] = readField(words, LleField::ComputeLaneGroups);
  limits[1] = output[0];
  std::array<int64_t, isa::kComputeNestLevels - 1> carries{};
  // The unit level's step is the change after the last position: ComputeOut37Step, a signed 17-bit number here.
  carries[0] = signedField(words, LleField::ComputeOut37Step);
  // The positions step one element: ComputeOutputBytes / 4 units.
  OutputNest nest;
  static_cast<ComputeLoopNest&>(nest) =
      ComputeLoopNest::fromCarries(static_cast<int64_t>(readField(words, LleField::ComputeOutputAt) / kUnitBytes), limits,
                                   static_cast<int64_t>(readField(words, LleField::ComputeOutputBytes) / kUnitBytes), carries);
  return nest;
}

}  // namespace coralsim::lle
