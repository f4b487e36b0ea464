#include "models/lle/stage14_block_level.h"

#include <cstdint>

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

namespace {

// The outermost level whose limit is not 0 (0 where none above level 0 counts).
unsigned outermostCountingLevel(const WriteNest& nest) {
  unsigned outer = 0;
  for (unsigned level = 1; level < WriteNest::kLevels; ++level) {
    if (nest.limits[level] != 0) outer = level;
  }
  return outer;
}

std::string levelText(unsigned level, const WriteNest& nest) {
  return "level " + std::to_string(level) + " (" + std::to_string(nest.limits[level] + 1) + " counts, stride " +
         std::to_string(nest.strides[level]) + " units)";
}

}  // namespace

std::string stage14BlockLevelProblem(std::span<const isa::Word128> words, const WriteNest& nest) {
  if (readField(words, LleField::Stage14FeedsCompute) == 0) {
    return "not a compute-feeding write (Stage14FeedsCompute clear): its stride-0 level is no block level";
  }
  const unsigned blockLevel = outermostCountingLevel(nest);
  if (blockLevel == 0 || nest.strides[blockLevel] != 0) {
    return "the write nest comes back to its units below its outermost counting level" +
           (blockLevel == 0 ? std::string() : ", " + levelText(blockLevel, nest)) +
           ": only a stride-0 outermost level (the stream's blocks) is decoded for a compute-feeding write";
  }
  const uint64_t blocks = readField(words, LleField::Stage14StreamPrefixBlocks) + 1;
  if (nest.limits[blockLevel] + 1 != blocks) {
    return "the write nest's stride-0 " + levelText(blockLevel, nest) + " is not the stream's " + std::to_string(blocks) +
           " blocks (" + fieldText(LleField::Stage14StreamPrefixBlocks, blocks - 1) +
           "): every corpus compute-feeding write counts its blocks there";
  }
  WriteNest below = nest;
  below.limits[blockLevel] = 0;
  if (below.revisitsAUnit()) {
    return "the write nest's levels below its block " + levelText(blockLevel, nest) +
           " come back to a unit: a block's prefix staged over itself is not decoded";
  }
  const uint64_t parts = readField(words, LleField::Stage14StreamPrefixRun) + 1;
  for (unsigned level = 1; level < blockLevel; ++level) {
    if (nest.limits[level] == 0) continue;
    if (nest.limits[level] + 1 != parts || nest.strides[level] != kPrefixPartUnits) {
      return "the write nest's " + levelText(level, nest) + " below its block level is not the prefix's " +
             std::to_string(parts) + " parts (" + fieldText(LleField::Stage14StreamPrefixRun, parts - 1) + ") one " +
             std::to_string(kPrefixPartUnits) + "-unit row apart: what else it counts is not decoded";
    }
  }
  return "";
}

}  // namespace coralsim::lle
