#include "models/lle/weight_group_walk.h"

#include <cstdint>

#include "models/lle/compute_nest.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

// The wrap field holding slot `slot`'s carry (applied when level slot + 1 counts): slot 0 is ComputeKWrapW7,
// slots 1-6 ComputeKWrap29's elements 0-5 (lle_fields.def).
std::string slotWrapText(std::span<const isa::Word128> words, unsigned slot) {
  const LleField field = slot == 0 ? LleField::ComputeKWrapW7 : LleField::ComputeKWrap29;
  const unsigned element = slot == 0 ? 0 : slot - 1;
  std::string text = fieldText(field, 0, element);  // "... = 0": the wrap is signed
  text.pop_back();
  return text + std::to_string(readSigned(words, field, element));
}

}  // namespace

std::string weightGroupWalkProblem(std::span<const isa::Word128> words) {
  const ComputeLoopNest nest = computeNestFromPacket(isa::ComputeNest::Nest29, words, 0, 1);
  uint64_t groups = 1;  // the groups the reduction's levels below the current one walk
  bool reduction = true;
  for (unsigned level = 0; level < ComputeLoopNest::kLevels; ++level) {
    if (nest.limits[level] == 0) continue;  // a level that runs once applies no carry
    const unsigned slot = level - 1;
    if (level > 0) {
      if (const uint64_t low = readField(words, LleField::ComputeNest29CarryLow, slot); low != 0) {
        return fieldText(LleField::ComputeNest29CarryLow, low, slot) + " at Nest29 level " + std::to_string(level) +
               ": a carry that is not a whole weight group";
      }
    }
    // The first counting level that does not move ends the reduction (a level 0 always steps one group).
    if (reduction && (level == 0 || nest.strides[level] != 0)) {
      if (nest.strides[level] != static_cast<int64_t>(groups)) {
        return slotWrapText(words, slot) + " makes Nest29 level " + std::to_string(level) + " step " + std::to_string(nest.strides[level]) +
               " weight groups, not the " + std::to_string(groups) + " the levels below walk (carry +1: the next group)";
      }
      groups *= nest.limits[level] + 1;
      continue;
    }
    reduction = false;
    if (nest.strides[level] != 0) {
      return slotWrapText(words, slot) + " makes Nest29 level " + std::to_string(level) + ", above the reduction's " +
             std::to_string(groups) + " groups, step " + std::to_string(nest.strides[level]) + " (carry -" + std::to_string(groups - 1) +
             ": back to the first group)";
    }
  }
  return "";
}

}  // namespace coralsim::lle
