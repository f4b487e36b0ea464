#include "models/lle/partial_sum_walk.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "models/lle/lle_fields.h"
#include "models/lle/one_row_walk.h"

namespace coralsim::lle {

namespace {

constexpr unsigned kLevels = 7;        // the w10 nest's slots (ComputeWrapW10's elements)
constexpr unsigned kCountedLevels = 7;  // every slot has a limit (levels 4-6: ComputeLimitW10High, docs/decoding-log.md "w8mid")
constexpr uint64_t kCodeWhereBit88IsTheSwitch = 2;  // the ComputeCodeW9 value under which w12 bit 88 is the walk switch

std::string wrapName(unsigned level) {
  return "ComputeWrapW10[" + std::to_string(level) + "] (the w10 nest's level-" + std::to_string(level) + " wrap)";
}

// The walk under ComputeTopLevelPasses (docs/decoding-log.md "w15b12"): level 6 counts the K passes, which add into
// the same rows (stride 0); every counting level below it is a level of positions, each keeping its own row in
// the nest's order (a level's stride is the rows of the counting levels below it). "" or the reason, after `where`.
std::string topLevelPassWalkProblem(const std::array<int64_t, kCountedLevels>& limits, const std::array<int64_t, kCountedLevels>& strides,
                                    uint64_t row) {
  constexpr unsigned kPassLevel = kCountedLevels - 1;
  if (limits[kPassLevel] == 0) {
    return "ComputeTopLevelPasses (word 15 bit 12) = 1 with ComputeLimitW10High[2] = 0: passes at level 6 that run once are not decoded";
  }
  if (strides[kPassLevel] != 0) {
    return wrapName(kPassLevel - 1) + " moves level 6 (" + std::to_string(limits[kPassLevel] + 1) + " passes) by " +
           std::to_string(strides[kPassLevel]) + " rows: the passes add into the same rows (stride 0); another walk is not decoded";
  }
  int64_t rows = 1;
  for (unsigned level = 1; level < kPassLevel; ++level) {
    if (limits[level] == 0) continue;
    if (strides[level] != rows) {
      return wrapName(level - 1) + " moves level " + std::to_string(level) + " (" + std::to_string(limits[level] + 1) +
             " positions) by " + std::to_string(strides[level]) + " rows where its positions' rows follow the " + std::to_string(rows) +
             " below them (stride " + std::to_string(rows) + "); another walk is not decoded";
    }
    rows *= limits[level] + 1;
  }
  if (row + static_cast<uint64_t>(rows) > kPartialSumRowSpace) {
    return std::to_string(rows) + " rows from it pass the " + std::to_string(kPartialSumRowSpace) + " rows of its 12-bit numbering";
  }
  return "";
}

// The walk under ComputeLevelFourPasses (docs/decoding-log.md "mdense"): levels 3-4 count the K passes, which add into
// the same rows (stride 0; level 3 may run once), levels 1-2 are positions keeping a row each in the nest's order, and
// levels 5-6 run once. model_dense's K-split Dense computes walk one position (levels 1-2 once) through 5 x 5 passes
// from row 0: row 0 is read as the walk's first row here, its 25 passes adding into it (the convolution walks' row 0
// stays their own question). voice_commands' walks (passes at levels 1 and 5 too) are refused by name.
std::string levelFourPassWalkProblem(const std::array<int64_t, kCountedLevels>& limits, const std::array<int64_t, kCountedLevels>& strides,
                                     uint64_t row) {
  constexpr unsigned kPassLevel = 4;
  if (limits[kPassLevel] == 0) {
    return "ComputeLevelFourPasses (word 15 bit 10) = 1 with ComputeLimitW10High[0] = 0: passes at level 4 that run once are not decoded";
  }
  for (const unsigned level : {3u, kPassLevel}) {
    if (limits[level] != 0 && strides[level] != 0) {
      return wrapName(level - 1) + " moves level " + std::to_string(level) + " (" + std::to_string(limits[level] + 1) + " passes) by " +
             std::to_string(strides[level]) + " rows: the passes add into the same rows (stride 0); another walk is not decoded";
    }
  }
  for (const unsigned level : {5u, 6u}) {
    if (limits[level] != 0) {
      return "level " + std::to_string(level) + " of the w10 nest counts " + std::to_string(limits[level] + 1) +
             " beside ComputeLevelFourPasses (word 15 bit 10): a walk with levels above its level-4 passes is not decoded";
    }
  }
  int64_t rows = 1;
  for (unsigned level = 1; level < 3; ++level) {
    if (limits[level] == 0) continue;
    if (strides[level] != rows) {
      return wrapName(level - 1) + " moves level " + std::to_string(level) + " (" + std::to_string(limits[level] + 1) +
             " positions) by " + std::to_string(strides[level]) + " rows where its positions' rows follow the " + std::to_string(rows) +
             " below them (stride " + std::to_string(rows) + "); another walk under ComputeLevelFourPasses is not decoded";
    }
    rows *= limits[level] + 1;
  }
  if (row + static_cast<uint64_t>(rows) > kPartialSumRowSpace) {
    return std::to_string(rows) + " rows from it pass the " + std::to_string(kPartialSumRowSpace) + " rows of its 12-bit numbering";
  }
  return "";
}

}  // namespace

std::string partialSumWalkProblem(std::span<const isa::Word128> words) {
  const uint64_t row = readField(words, LleField::ComputePartialSumRow);
  std::array<int64_t, kLevels> wraps{};
  for (unsigned i = 0; i < kLevels; ++i) wraps[i] = readSigned(words, LleField::ComputeWrapW10, i);
  const uint64_t walkOn = readField(words, LleField::ComputePartialSumWalkOn);
  // w12 bit 88 goes with the switch where ComputeCodeW9 is 2 (docs/decoding-log.md "ring88"); under the
  // other codes it is not decoded and left unread (don't-care for the bytes).
  if (const uint64_t flag = readField(words, LleField::ComputeFlagW12Bit88);
      readField(words, LleField::ComputeCodeW9) == kCodeWhereBit88IsTheSwitch && flag != walkOn) {
    return "ComputeFlagW12Bit88 (word 12 bit 88) = " + std::to_string(flag) + " with ComputeCodeW9 (word 9 bits 63:59) = 2 and " +
           "ComputePartialSumWalkOn (word 11 bit 99) = " + std::to_string(walkOn) + ": under code 2 the flag goes with the switch; another pairing is not decoded";
  }
  // A walk none of whose levels above level 0 counts is one pass (docs/decoding-log.md "kstride"): the K groups of
  // level 0 add into one row and the sum is taken whole, so the row and the wraps of the levels that run once
  // (never applied, as every nest's) move no byte -- dense_1_8_mul's one-group compute (wraps 1, row 0) and
  // model_dense's Dense computes (4 or 25 groups at level 0, wraps 0, 4 / 25, row 0) carry the switch on so.
  // Levels 4-6 count too (model_conv's last convolution: two passes at level 6, "w15b12"): a walk is one pass only
  // where none of the six counts.
  if (readField(words, LleField::ComputeLimitW10, 0) == 0 && readField(words, LleField::ComputeLimitW10, 1) == 0 &&
      readField(words, LleField::ComputeLimitW10Level3) == 0 && readField(words, LleField::ComputeLimitW10High, 0) == 0 &&
      readField(words, LleField::ComputeLimitW10High, 1) == 0 && readField(words, LleField::ComputeLimitW10High, 2) == 0) {
    return "";
  }
  // The carries' low bits (ComputeW10CarryLow, docs/decoding-log.md "w9b53" §B) are non-zero only in model_dense's
  // one-pass walks, which apply no carry: a walk that moves by part of a row is not decoded.
  for (unsigned i = 0; i < kLevels; ++i) {
    if (const uint64_t low = readField(words, LleField::ComputeW10CarryLow, i); low != 0) {
      return fieldText(LleField::ComputeW10CarryLow, low, i) + ": a walk over partial-sum rows that moves by part of a row is not decoded";
    }
  }
  const std::array<int64_t, kCountedLevels> limits{
      static_cast<int64_t>(readField(words, LleField::ComputeK4W10)), static_cast<int64_t>(readField(words, LleField::ComputeLimitW10, 0)),
      static_cast<int64_t>(readField(words, LleField::ComputeLimitW10, 1)), static_cast<int64_t>(readField(words, LleField::ComputeLimitW10Level3)),
      static_cast<int64_t>(readField(words, LleField::ComputeLimitW10High, 0)), static_cast<int64_t>(readField(words, LleField::ComputeLimitW10High, 1)),
      static_cast<int64_t>(readField(words, LleField::ComputeLimitW10High, 2))};
  // Row strides of the levels, from the wraps (the loop_nest.h reading: level i's stride is the carry
  // applied when it counts, less what the levels below it walked): level 0 stays on its row.
  std::array<int64_t, kCountedLevels> strides{};
  for (unsigned level = 1; level < kCountedLevels; ++level) {
    strides[level] = wraps[level - 1];
    for (unsigned below = 1; below < level; ++below) strides[level] += limits[below] * strides[below];
  }
  const std::string where = "ComputePartialSumRow (word 9 bits 121:110) = " + std::to_string(row) + ": ";
  // Under w15 bit 10 the passes are the nest's levels 3-4 (ComputeLevelFourPasses, "mdense"), whatever slot 0's mark.
  if (readField(words, LleField::ComputeLevelFourPasses) != 0) {
    if (readField(words, LleField::ComputeTopLevelPasses) != 0) {
      return where + "ComputeLevelFourPasses (word 15 bit 10) = 1 with ComputeTopLevelPasses (word 15 bit 12) = 1: a walk under both switches is not decoded";
    }
    const std::string problem = levelFourPassWalkProblem(limits, strides, row);
    return problem.empty() ? "" : where + problem;
  }
  // Row 0 is a row like any other: with the switch on, the walk from it is checked below as the walk from any
  // first row (docs/decoding-log.md "st13b": the 243 corpus computes that walk from row 0 and count above their
  // positions have the walk's shape, wrap +1 at level 0 and -(level 1's limit) above, as the 782 from a row > 0).
  // With the switch off a row of 0 keeps no sums, and a wrap there is a walk the rung does not read -- except under
  // ComputeTopLevelPasses, whose walks never carry slot 0's mark: there row 0 is the walk's first row as well
  // (docs/decoding-log.md "wrap10": the 179 corpus level-6 walks from row 0 have the shape of the 29 from a row > 0).
  const uint64_t topLevelPasses = readField(words, LleField::ComputeTopLevelPasses);
  if (row == 0 && walkOn == 0) {
    for (unsigned i = 0; i < kLevels; ++i) {
      if (wraps[i] != 0 && topLevelPasses == 0) {
        return wrapName(i) + " = " + std::to_string(wraps[i]) +
               " with ComputePartialSumRow (word 9 bits 121:110) = 0: a walk over partial-sum rows without its first row is not decoded";
      }
    }
    // No wrap: nothing walks (a bit without its walk is topLevelPassesProblem's to name).
    if (std::all_of(wraps.begin(), wraps.end(), [](int64_t w) { return w == 0; })) return "";
  }
  if (walkOn == 0) {
    // No slot carries: the sums are kept in the one row, level 1 counting the passes (one_row_walk.h, "mnv1psum").
    if (keepsSumsInOneRow(words)) return "";
    if (topLevelPasses == 0) {
      return where + "ComputePartialSumWalkOn (word 11 bit 99) = 0: the rows are walked only with the switch on, or under "
                     "ComputeTopLevelPasses (word 15 bit 12), here 0";
    }
    const std::string problem = topLevelPassWalkProblem(limits, strides, row);
    return problem.empty() ? "" : where + problem;
  }
  if (topLevelPasses != 0) {
    return where + "ComputePartialSumWalkOn (word 11 bit 99) = 1 with ComputeTopLevelPasses (word 15 bit 12) = 1: a walk under both switches is not decoded";
  }
  if (limits[1] > 0 && strides[1] != 1) {
    return where + wrapName(0) + " = " + std::to_string(wraps[0]) + ": the positions (level 1, " + std::to_string(limits[1] + 1) +
           ") keep one row each, a step of 1 row; another step is not decoded";
  }
  bool split = false;
  for (unsigned level = 2; level < kCountedLevels; ++level) {
    if (limits[level] == 0) continue;
    if (strides[level] != 0) {
      return where + wrapName(level - 1) + " = " + std::to_string(wraps[level - 1]) + " moves level " + std::to_string(level) + " (" +
             std::to_string(limits[level] + 1) + " iterations) by " + std::to_string(strides[level]) +
             " rows: the levels above the positions add into the same rows (stride 0); another walk is not decoded";
    }
    split = true;
  }
  if (!split) {
    return where + "no level above the positions of the w10 nest counts (ComputeLimitW10[1], ComputeLimitW10Level3, ComputeLimitW10High are 0): "
                   "partial-sum rows without a split reduction are not decoded";
  }
  if (const uint64_t rows = static_cast<uint64_t>(limits[1]) + 1; row + rows > kPartialSumRowSpace) {
    return where + std::to_string(rows) + " rows from it pass the " + std::to_string(kPartialSumRowSpace) + " rows of its 12-bit numbering";
  }
  return "";
}

}  // namespace coralsim::lle
