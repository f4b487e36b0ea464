#include "models/lle/conv_compute.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "models/lle/conv_taps.h"
#include "models/lle/field_relations.h"
#include "models/lle/input_step.h"
#include "models/lle/lle_fields.h"
#include "models/lle/position_lane_form.h"
#include "models/lle/conv_undefined_outputs.h"
#include "models/lle/requantizer.h"
#include "models/lle/w0_last_run.h"
#include "models/lle/whole_walk_passes.h"

namespace coralsim::lle {
namespace {

constexpr unsigned kUnitBytes = 4;  // a nest unit: one grid position, 4 input bytes / 4 output lanes

// Steps a nest one iteration at a time (the odometer of LoopNest::forEachUnit, incrementally: the
// reduction runs to 6.5 M iterations a tile in the 40 x 40 convolutions).
class NestCursor {
 public:
  explicit NestCursor(const ComputeLoopNest& nest) : nest_(nest), unit_(nest.firstUnit) {}
  [[nodiscard]] int64_t unit() const { return unit_; }
  void next() {
    unsigned level = 0;
    while (level < ComputeLoopNest::kLevels && count_[level] == nest_.limits[level]) {
      unit_ -= static_cast<int64_t>(count_[level]) * nest_.strides[level];
      count_[level++] = 0;
    }
    if (level == ComputeLoopNest::kLevels) return;  // past the end: back at the first unit
    ++count_[level];
    unit_ += nest_.strides[level];
  }

 private:
  const ComputeLoopNest& nest_;
  std::array<uint64_t, ComputeLoopNest::kLevels> count_{};
  int64_t unit_;
};

// One 4-byte group's contribution to a lane's accumulator, in its arithmetic: modulo 2^32 as the
// 32-bit accumulator wraps, so no offset a program's prefix holds can overflow a signed product.
int32_t accumulateGroup(int32_t acc, const uint8_t* x, const uint8_t* w, int32_t zpIn, int32_t offset) {
  auto sum = static_cast<uint32_t>(acc);
  for (unsigned i = 0; i < kUnitBytes; ++i) {
    sum += (uint32_t{x[i]} - static_cast<uint32_t>(zpIn)) * (uint32_t{w[i]} - static_cast<uint32_t>(offset));
  }
  return static_cast<int32_t>(sum);
}

int32_t readLane32(std::span<const uint8_t> wide, uint64_t at) {
  uint32_t v = 0;
  std::memcpy(&v, wide.data() + at, 4);
  return static_cast<int32_t>(v);
}

// How a nest's iterations split at every `count`-th one: when `count` iterations are exactly its inner
// levels, every run of `count` visits the same units relative to where the run starts (the taps of a
// convolution, the same for every output position), and the runs' starts are the walk of the outer
// levels alone. Precomputing those offsets takes the odometer out of the reduction's inner loop, where
// the 40 x 40 convolutions spend their time.
struct SplitNest {
  std::vector<int64_t> innerOffsets;  // units, relative to the run's first unit, `count` of them
  ComputeLoopNest outer;              // the nest with its inner levels run once: one unit per run
};

std::optional<SplitNest> splitAtInnerLevels(const ComputeLoopNest& nest, uint64_t count) {
  uint64_t product = 1;
  unsigned inner = 0;
  while (product < count && inner < ComputeLoopNest::kLevels) product *= nest.limits[inner++] + 1;
  if (product != count) return std::nullopt;
  SplitNest split;
  split.innerOffsets.reserve(count);
  NestCursor cursor(nest);
  for (uint64_t r = 0; r < count; ++r, cursor.next()) split.innerOffsets.push_back(cursor.unit() - nest.firstUnit);
  split.outer = nest;
  for (unsigned level = 0; level < inner; ++level) split.outer.limits[level] = 0;
  return split;
}

}  // namespace

ConvCompute ConvCompute::fromPacket(std::span<const isa::Word128> words) {
  ConvCompute conv;
  // Level 0 steps one 4-byte unit, or a tap column of a channel grid (C bytes, input_step.h; unsupported() refuses a
  // step that is not whole units).
  const int64_t inputUnits = walksAChannelGrid(words) ? static_cast<int64_t>(inputStepBytes(words) / kUnitBytes) : 1;
  conv.input = computeNestFromPacket(isa::ComputeNest::Nest37, words,
                                     static_cast<int64_t>(readField(words, LleField::ComputeInputAt4)), inputUnits);
  conv.inputStep = walksAChannelGrid(words) ? inputStepBytes(words) : kUnitBytes;
  // In a pixel walk the w0 nest's level 0 counts pixels, not K groups ("colour43" §B), and Nest29's level 0 counts
  // the same iterations: the one weight group the reduction of 1 takes weighs every pixel (its stream carries one
  // transfer; split_concat's golden bytes, "split2" §C). Elsewhere level 0 steps one weight group a K group.
  conv.weights = computeNestFromPacket(isa::ComputeNest::Nest29, words, 0, isPixelWalk(words) ? 0 : 1);
  conv.lanes = 4 * (static_cast<unsigned>(readField(words, LleField::ComputeLaneGroups)) + 1);
  if (readField(words, LleField::ComputeW0LastRunLevel) != 0) {
    conv.droppedIterations = w0LastRunShortfall(words);
    conv.droppedAreTheTail = w0LastRunEndsTheWalk(words);
  }
  conv.output = OutputNest::fromPacket(words, static_cast<int64_t>(readField(words, LleField::ComputeOutputAt) / kUnitBytes),
                                       conv.lanes / kUnitBytes);
  // The position-lane form (position_lane_form.h, docs/decoding-log.md "obytes"): the lanes are the output positions,
  // each writing one 4-byte unit of 4 channels a channel unit -- a convolution of 4 lanes whose outputs are the P
  // positions at ComputePositionStep37, then Output37's level 0 (the units, each the weight stream's next block).
  if (isPositionLaneForm(words)) {
    conv.lanes = kUnitBytes;
    conv.output = positionLaneOutputNest(words);
  }
  conv.prefix = static_cast<unsigned>(readField(words, LleField::ComputeParamPrefix));
  // The packet's own codes (checked against its nest and step by outputPartialPassProblem): k - 1 and the level + 1.
  if (const uint64_t levels = readField(words, LleField::ComputeOutLevelsWalked); levels != 0) {
    conv.partialUnits = readField(words, LleField::ComputeOutPartialUnits) + 1;
    conv.partialLevel = static_cast<unsigned>(levels - 1);
  }
  conv.zpWeight = static_cast<int32_t>(readField(words, LleField::ComputeZpWeight));
  conv.epilogue = readComputeEpilogue(words);
  conv.passes = wholeWalkPasses(words);
  conv.inputPassStride = levelSevenStride(isa::ComputeNest::Nest37, words, conv.input);
  conv.weightPassStride = levelSevenStride(isa::ComputeNest::Nest29, words, conv.weights);
  if (readField(words, LleField::ComputeTopLevelPasses) != 0) conv.kPassLevel = ComputeLoopNest::kLevels - 1;
  return conv;
}

uint64_t ConvCompute::prefixBytes() const {
  // The scale comes with the weight offset (Dense, RingCanary: 2 arrays); the bias is one more
  // (depthwise: 1; posenet / bodypix 324: scale, bias, offset = 3).
  const unsigned arrays = ((prefix & 2) ? 2 : 0) + (prefix & 1) + (streamOffsetArray ? 1 : 0);
  return arrays * groupBytes();
}

uint64_t ConvCompute::unitsOfOutput(uint64_t o) const {
  const uint64_t whole = lanes / kUnitBytes;
  if (partialUnits == 0 || partialLevel >= ComputeLoopNest::kLevels) return whole;
  // The levels above the partial one run once (it is the highest counting level), so its last iteration is the
  // walk's last outputs / (limit + 1) outputs.
  const uint64_t last = outputs() / (output.limits[partialLevel] + 1);
  return o + last >= outputs() ? partialUnits : whole;
}

uint64_t ConvCompute::blocks() const {
  const auto split = splitReduction();
  return split ? split->blocks : 1;
}

std::optional<ConvCompute::SplitReduction> ConvCompute::splitReduction() const {
  if (outputs() == 0) return std::nullopt;
  // Levels of the weight nest: the taps (inner levels that move the weights), then levels that do not move
  // them -- the positions, the K groups (their product the reduction / taps), the output blocks (positions x
  // blocks = the outputs), in that order.
  unsigned level = 0;
  uint64_t taps = 1;
  for (; level < ComputeLoopNest::kLevels; ++level) {
    if (weights.limits[level] != 0 && weights.strides[level] == 0) break;
    taps *= weights.limits[level] + 1;
  }
  // A level above the taps that moves the weight nest would be a walk the stream reading below does not describe.
  for (unsigned above = level; above < ComputeLoopNest::kLevels; ++above) {
    if (weights.limits[above] != 0 && weights.strides[above] != 0) return std::nullopt;
  }
  if (taps == 0 || reduction() % taps != 0) return std::nullopt;
  const uint64_t groups = reduction() / taps;
  const auto product = [&](unsigned from, unsigned to) {
    uint64_t n = 1;
    for (unsigned i = from; i < to; ++i) n *= weights.limits[i] + 1;
    return n;
  };
  // Side-by-side blocks over one K pass: the positions, then levels whose product is the blocks.
  if (sideBySideBlocks > 1) {
    if (groups != 1 || outputs() % sideBySideBlocks != 0) return std::nullopt;
    for (unsigned blocksFrom = level; blocksFrom <= ComputeLoopNest::kLevels; ++blocksFrom) {
      if (product(level, blocksFrom) * sideBySideBlocks == outputs() && product(blocksFrom, ComputeLoopNest::kLevels) == sideBySideBlocks) {
        return SplitReduction{taps, outputs() / sideBySideBlocks, 1, sideBySideBlocks};
      }
    }
    return std::nullopt;
  }
  // A stream's blocks one after another over one K pass: the positions, then levels whose product is the blocks.
  if (groups == 1 && streamBlocks > 1) {
    if (outputs() % streamBlocks != 0) return std::nullopt;
    for (unsigned blocksFrom = level; blocksFrom <= ComputeLoopNest::kLevels; ++blocksFrom) {
      if (product(level, blocksFrom) * streamBlocks == outputs() && product(blocksFrom, ComputeLoopNest::kLevels) == streamBlocks) {
        return SplitReduction{taps, outputs() / streamBlocks, 1, streamBlocks};
      }
    }
    return std::nullopt;
  }
  if (groups < 2) return std::nullopt;
  for (unsigned groupsFrom = level; groupsFrom <= ComputeLoopNest::kLevels; ++groupsFrom) {
    if (kPassLevel != 0 && groupsFrom != kPassLevel) continue;
    const uint64_t positions = product(level, groupsFrom);
    if (outputs() % positions != 0) continue;
    unsigned blocksFrom = groupsFrom;
    uint64_t counted = 1;
    while (blocksFrom < ComputeLoopNest::kLevels && counted < groups) counted *= weights.limits[blocksFrom++] + 1;
    if (counted != groups) continue;
    // Where the stream names its output blocks (a 0x12's levels 2-3, a host stream's feeding write), the levels above the
    // K passes count exactly them: a level of positions whose count equals the passes' (MobileNet v1's pointwise layers:
    // 4 positions beside 4 K passes of 32 channels) is not the passes (docs/decoding-log.md "blk").
    if (streamBlocks > 1 && product(blocksFrom, ComputeLoopNest::kLevels) != streamBlocks) continue;
    if (positions * product(blocksFrom, ComputeLoopNest::kLevels) == outputs()) {
      return SplitReduction{taps, positions, groups, outputs() / positions};
    }
  }
  return std::nullopt;
}

std::optional<OutputNest> ConvCompute::onePassOutput() const {
  if (passes == 0 || outputs() % passes != 0) return std::nullopt;
  const uint64_t perPass = outputs() / passes;
  uint64_t below = 1;
  unsigned level = 0;
  while (level < ComputeLoopNest::kLevels && below < perPass) below *= output.limits[level++] + 1;
  if (below != perPass) return std::nullopt;
  OutputNest one = output;
  for (unsigned above = level; above < ComputeLoopNest::kLevels; ++above) one.limits[above] = 0;
  return one;
}

std::optional<ConvCompute::SplitReduction> ConvCompute::onePassSplit() const {
  const auto onePass = onePassOutput();
  if (passes < 2 || !onePass) return std::nullopt;
  ConvCompute one = *this;
  one.passes = 1;
  one.sideBySideBlocks = 1;
  one.streamBlocks = 1;
  one.output = *onePass;
  const auto split = one.splitReduction();
  if (!split || split->blocks != 1 || split->groups < 2) return std::nullopt;
  return split;
}

std::string ConvCompute::passesProblem() const {
  const std::string field = "ComputeLimitW0Level7 (word 1 bits 45:32) = " + std::to_string(passes - 1) + ": ";
  if (sideBySideBlocks > 1 && sideBySideBlocks != passes) {
    return field + "a stream of " + std::to_string(sideBySideBlocks) + " side-by-side blocks (the feeding write's) for " +
           std::to_string(passes) + " passes is not decoded";
  }
  if (input.units() == 0 || input.units() * passes % outputs() != 0 || outputs() % passes != 0) {
    return field + "Output37 (w5 bit 8) counts " + std::to_string(outputs()) + " outputs, not a whole number of positions a pass";
  }
  if (!onePassOutput()) {
    return field + "Output37's top levels do not count the " + std::to_string(passes) + " passes (an output block a pass)";
  }
  // Each pass walks the input and the weight window again ("w3b103": the nests' level-7 strides, 0 in 519 / 519).
  if (inputPassStride != 0) {
    return field + "Nest37's level 7 (ComputeNest37Level7, its carry ComputeKWrap37[4], word 3 bits 102:86) steps " +
           std::to_string(inputPassStride) + " input units a pass: a pass reading other input is not decoded";
  }
  if (weightPassStride != 0) {
    return field + "Nest29's level 7 (ComputeNest29Level7, its carry ComputeKWrap29[5], word 9 bits 36:24) steps " +
           std::to_string(weightPassStride) + " weight groups a pass: a pass walking another weight window is not decoded";
  }
  // One pass is a plain reduction (its K groups the weight nest's inner levels), or a reduction split into K passes
  // above the positions (the w0 nest's level 6, 150 corpus computes: docs/decoding-log.md "wrap10"), run as the split
  // form runs it -- pass by pass over the stream's next window, into one sum a position -- within the block.
  uint64_t innerWeights = 1;
  for (unsigned i = 0; i < ComputeLoopNest::kLevels; ++i) {
    if (weights.limits[i] != 0 && weights.strides[i] == 0) break;
    innerWeights *= weights.limits[i] + 1;
  }
  if (innerWeights != reduction()) {
    const auto split = onePassSplit();
    if (!split) {
      return field + "a pass whose reduction (" + std::to_string(reduction()) + " iterations an output) is neither the inner " +
             std::to_string(innerWeights) + " of the weight nest nor K passes above the positions of one block is not executed";
    }
    if (sideBySideBlocks > 1) {
      return field + "K passes above the positions (" + std::to_string(split->groups) + ") in a stream of " +
             std::to_string(sideBySideBlocks) + " side-by-side blocks are not decoded";
    }
  }
  return "";
}

std::string ConvCompute::unsupported() const {
  if (inputStep % kUnitBytes != 0) {
    return "the input nest's level-0 step (ComputeInputBytes + 8 x ComputeInputStepHigh, word 1 bits 99:81) = " +
           std::to_string(inputStep) + " bytes: a channel grid of C not a multiple of 4 is not decoded (units of 4 bytes are read)";
  }
  if (passes > 1) {
    if (std::string why = passesProblem(); !why.empty()) return why;
  }
  // A shorter last iteration (w0_last_run.h): only the tail of one output's last K pass of a split reduction is executed.
  if (droppedIterations > 0) {
    const std::string field = "a shorter last iteration of the w0 nest (ComputeW0LastRun / ComputeW0LastRunLevel, word 1 bits 61:46) "
                              "dropping " + std::to_string(droppedIterations) + " iterations";
    const auto split = splitReduction();
    if (!droppedAreTheTail) return field + " while a level above it counts: which later iterations it shortens is not decoded";
    if (passes != 1 || !split || split->positions != 1 || split->blocks != 1 || split->groups < 2) {
      return field + " outside a one-output reduction split into K passes: not executed";
    }
    if (droppedIterations >= split->taps) {
      return field + ", not fewer than a K pass's " + std::to_string(split->taps) + ": a pass dropped whole is not decoded";
    }
  }
  if (weights.units() != input.units()) {
    return "Nest29 (the weight nest, w7 bit 90) counts " + std::to_string(weights.units()) + " iterations, Nest37 (the input nest) " +
           std::to_string(iterations());
  }
  if (outputs() == 0 || iterations() % outputs() != 0) {
    return "Output37 (w5 bit 8) counts " + std::to_string(outputs()) + " outputs, which do not divide the " +
           std::to_string(iterations()) + " iterations";
  }
  // The reduction must be the innermost iterations of the weight nest (its levels up to the first
  // counting one that does not move the weights): RingCanary's multi-channel convolutions loop their
  // K groups outside the positions, with a weight level of stride 0 -- not decoded.
  uint64_t innerWeights = 1;
  for (unsigned i = 0; i < ComputeLoopNest::kLevels; ++i) {
    if (weights.limits[i] != 0 && weights.strides[i] == 0) break;
    innerWeights *= weights.limits[i] + 1;
  }
  // With passes of the whole walk, passesProblem has read one pass's reduction (plain or split into K passes).
  if (passes == 1 && innerWeights != reduction() && !splitReduction()) {
    return "the reduction (" + std::to_string(reduction()) + " iterations an output) is not the inner " + std::to_string(innerWeights) +
           " iterations of the weight nest (Nest29): an accumulation across outer loops is not decoded";
  }
  if (zpWeight > 255) return "zero point above 255 (ComputeZpWeight)";
  if (std::string problem = epilogueProblem(epilogue); !problem.empty()) return problem;
  if ((prefix & 2) && zpWeight != 0) {
    return "ComputeZpWeight (word 14 bits 70:62) = " + std::to_string(zpWeight) +
           " with a per-lane weight offset in the prefix (ComputeParamPrefix bit 1): how the two combine is not decoded (no corpus compute has both)";
  }
  if (weights.lowestUnit() < 0) return "Nest29 reaches weight group " + std::to_string(weights.lowestUnit()) + ", before the first";
  return "";
}

std::string runConvCompute(const ConvCompute& conv, AddressedMemory& narrow, std::span<const uint8_t> wide,
                           models::RequantRounding rounding, uint64_t& macs, uint64_t* undefinedOutputs) {
  if (std::string why = conv.unsupported(); !why.empty()) return why;
  if (conv.passes > 1) {
    // Passes of the whole walk (whole_walk_passes.h): each runs the one-block compute with the stream's next block --
    // its prefix arrays and its weight groups, after the block before -- and writes the next block of outputs, where
    // Output37's odometer stands after the passes before (its lower levels back at 0, so one pass's walk from there
    // visits the units the full nest does).
    ConvCompute one = conv;
    one.passes = 1;
    one.sideBySideBlocks = 1;
    one.streamBlocks = 1;
    one.output = *conv.onePassOutput();
    const uint64_t perPass = one.outputs();
    // A block is its prefix and the weight window, or, where the pass splits its reduction into K passes above the
    // positions ("wrap10"), its prefix and one window a K pass, one after another (the split form's reading below).
    const auto kSplit = one.splitReduction();
    const uint64_t kPasses = kSplit ? kSplit->groups : 1;
    const auto windowUnits = static_cast<uint64_t>(conv.weights.highestUnit() - conv.weights.lowestUnit() + 1);
    const uint64_t blockBytes =
        conv.prefixBytes() + (static_cast<uint64_t>(conv.weights.highestUnit()) + 1 + (kPasses - 1) * windowUnits) * conv.groupBytes();
    if (wide.size() < conv.passes * blockBytes) {
      return "the " + std::to_string(conv.passes) + " passes (ComputeLimitW0Level7) read wide bytes up to " +
             std::to_string(conv.passes * blockBytes) + "; the tile holds " + std::to_string(wide.size());
    }
    // Where the feeding write names as many blocks as passes, they lie side by side ("bias14"): each prefix array holds
    // every block's lanes, each weight group's row every block's group; pass p gathers block p's (the scratch below).
    const bool sideBySide = conv.sideBySideBlocks == conv.passes;
    const uint64_t group = conv.groupBytes();
    std::vector<uint8_t> gathered(sideBySide ? blockBytes : 0);
    NestCursor out(conv.output);
    for (uint64_t pass = 0; pass < conv.passes; ++pass) {
      one.output.firstUnit = out.unit();
      std::span<const uint8_t> block = wide.subspan(pass * blockBytes, blockBytes);
      if (sideBySide) {
        for (uint64_t row = 0; row < blockBytes / group; ++row) {
          std::memcpy(gathered.data() + row * group, wide.data() + (row * conv.passes + pass) * group, group);
        }
        block = gathered;
      }
      if (std::string why = runConvCompute(one, narrow, block, rounding, macs); !why.empty()) {
        return "pass " + std::to_string(pass) + " of " + std::to_string(conv.passes) + ": " + why;
      }
      for (uint64_t o = 0; o < perPass; ++o) out.next();
    }
    return "";
  }
  const uint64_t capacityUnits = narrow.capacity() / kUnitBytes;
  // The input nest revisits grid units (each tap row is read again by the next positions): a 40 x 40
  // kernel walks 1,600 taps x the positions, more iterations than the memory has units.
  if (!conv.input.reachStaysInside(capacityUnits) || !conv.output.staysInside(capacityUnits)) {
    return "the input (Nest37 from ComputeInputAt4) or output (Output37 from ComputeOutputAt) nest leaves the " +
           std::to_string(narrow.capacity()) + "-byte narrow memory";
  }
  const uint64_t firstInput = static_cast<uint64_t>(conv.input.lowestUnit()) * kUnitBytes;
  const uint64_t inputSpan = (static_cast<uint64_t>(conv.input.highestUnit()) + 1) * kUnitBytes - firstInput;
  // Input bytes no packet wrote are undefined: the positions they reach are marked so after the run
  // (conv_undefined_outputs.h), the others computed as ever.
  const std::vector<bool> undefinedPositions = convUndefinedPositions(conv, narrow);
  // A split reduction's later passes read the stream's next windows, each output block its own prefix
  // and windows after the block before (below).
  const auto split = conv.splitReduction();
  const uint64_t passes = split ? split->groups : 1;
  const uint64_t blocks = split ? split->blocks : 1;
  const auto windowUnits = static_cast<uint64_t>(conv.weights.highestUnit() - conv.weights.lowestUnit() + 1);
  // Where block b's prefix arrays and weight groups lie (below): one block after another, or side by side.
  const bool sideBySide = split && conv.sideBySideBlocks > 1;
  const uint64_t blockBytes = conv.prefixBytes() + passes * windowUnits * conv.groupBytes();
  const uint64_t weightEnd =
      sideBySide ? (conv.prefixBytes() + (static_cast<uint64_t>(conv.weights.highestUnit()) + 1) * conv.groupBytes()) * blocks
                 : (blocks - 1) * blockBytes + conv.prefixBytes() +
                       (static_cast<uint64_t>(conv.weights.highestUnit()) + 1 + (passes - 1) * windowUnits - conv.droppedIterations) *
                           conv.groupBytes();
  if (wide.size() < weightEnd) {
    return "the weight nest (Nest29) reads wide bytes up to " + std::to_string(weightEnd) + "; the tile holds " +
           std::to_string(wide.size());
  }
  const unsigned lanes = conv.lanes;
  // Per block and lane (block b's lane c at b x lanes + c).
  std::vector<float> scale(blocks * lanes, 1.0f);
  std::vector<int32_t> bias(blocks * lanes, 0);
  std::vector<int32_t> weightOffset(blocks * lanes, conv.zpWeight);
  // Array order: scale, bias, weight offset (the arrays present, each 4 x lanes bytes), at each block's start; side
  // by side, each array holds every block's lanes, block b's at 4 x lanes x b.
  const uint64_t array = conv.groupBytes() * (sideBySide ? blocks : 1);
  const uint64_t biasAt = (conv.prefix & 2) ? array : 0;
  const uint64_t offsetAt = (conv.prefix & 1) ? 2 * array : array;
  for (uint64_t block = 0; block < blocks; ++block) {
    const uint64_t at = block * (sideBySide ? conv.groupBytes() : blockBytes);
    for (unsigned c = 0; c < lanes; ++c) {
      const uint64_t lane = block * lanes + c;
      if (conv.prefix & 2) {
        scale[lane] = std::bit_cast<float>(static_cast<uint32_t>(readLane32(wide, at + 4 * c)));
        weightOffset[lane] = readLane32(wide, at + offsetAt + 4 * c);
      }
      if (conv.prefix & 1) bias[lane] = readLane32(wide, at + biasAt + 4 * c);
      if (conv.streamOffsetArray) weightOffset[lane] = readLane32(wide, at + 4 * c);
    }
  }
  std::vector<Requantizer> requant;
  requant.reserve(blocks * lanes);
  for (const float laneScale : scale) requant.emplace_back(laneScale, conv.epilogue.mult, conv.epilogue.lo, conv.epilogue.hi, conv.epilogue.zpOut, rounding);
  // Copies: the output may land inside the span the input reaches (it does not in the corpus).
  const std::vector<uint8_t> input = narrow.readAnyway(firstInput, inputSpan);
  const uint8_t* weights = wide.data() + conv.prefixBytes() * (sideBySide ? blocks : 1);
  const uint64_t reduction = conv.reduction();
  std::array<uint8_t, kUnitBytes> results{};
  // A position's lane groups side by side from its unit (output_nest.h).
  const auto writeOutput = [&](int64_t unit, std::span<const int32_t> acc, uint64_t o, uint64_t block = 0) {
    const Requantizer* laneRequant = requant.data() + block * lanes;
    const uint64_t units = conv.unitsOfOutput(o);
    for (unsigned g = 0; g < units; ++g) {
      for (unsigned c = 0; c < kUnitBytes; ++c) results[c] = laneRequant[kUnitBytes * g + c](acc[kUnitBytes * g + c]);
      if (!narrow.write(static_cast<uint64_t>(unit + g) * kUnitBytes, results)) return false;
    }
    return true;
  };
  NestCursor out(conv.output);
  if (split && (split->taps != reduction || sideBySide || split->blocks > 1)) {
    // A reduction split around the positions (docs/decoding-log.md "ring88"): the K groups are counted
    // outside the positions, each pass over them adding into one partial sum a position (the rows
    // "ring9" decoded). The weight nest returns to its first unit for every pass; the ring-fed weight
    // stream has brought the pass's groups there by then, so in the rung's memory, which holds the
    // whole stream, pass g reads the window the nest reaches g windows further on. Output blocks
    // ("ring128" §C) repeat the positions and passes with the stream's next block: its prefix, then its windows.
    const auto window = static_cast<int64_t>(windowUnits);
    const uint64_t sums = split->positions * split->blocks;
    std::vector<int32_t> acc(static_cast<size_t>(sums) * lanes);
    for (uint64_t o = 0; o < sums; ++o) {
      const auto blockBias = bias.begin() + static_cast<int64_t>((o / split->positions) * lanes);
      std::copy(blockBias, blockBias + lanes, acc.begin() + static_cast<int64_t>(o * lanes));
    }
    NestCursor in(conv.input);
    NestCursor w(conv.weights);
    const uint64_t blockIterations = split->taps * split->positions * split->groups;
    // The w0 nest's shorter last K pass (unsupported() has held it to one output's last pass): its tail is not walked.
    const uint64_t walked = conv.iterations() - conv.droppedIterations;
    for (uint64_t i = 0; i < walked; ++i, in.next(), w.next()) {
      const uint64_t block = i / blockIterations;
      const uint64_t position = (i / split->taps) % split->positions;
      const auto pass = static_cast<int64_t>((i % blockIterations) / (split->taps * split->positions));
      const uint8_t* x = input.data() + (static_cast<uint64_t>(in.unit()) * kUnitBytes - firstInput);
      const uint8_t* g = sideBySide ? weights + (static_cast<uint64_t>(w.unit()) * blocks + block) * conv.groupBytes()
                                    : weights + block * blockBytes + static_cast<uint64_t>(w.unit() + pass * window) * conv.groupBytes();
      int32_t* a = acc.data() + (block * split->positions + position) * lanes;
      const int32_t* offsets = weightOffset.data() + block * lanes;
      for (unsigned c = 0; c < lanes; ++c) a[c] = accumulateGroup(a[c], x, g + kUnitBytes * c, conv.epilogue.zpIn, offsets[c]);
    }
    for (uint64_t o = 0; o < conv.outputs(); ++o, out.next()) {
      if (!writeOutput(out.unit(), std::span<const int32_t>(acc.data() + o * lanes, lanes), o, o / split->positions)) {
        return "output unit " + std::to_string(out.unit()) + " leaves the narrow memory";
      }
    }
    macs += walked * lanes * kUnitBytes;
    const uint64_t marked = forgetUndefinedPositions(conv, undefinedPositions, narrow);
    if (undefinedOutputs) *undefinedOutputs += marked;
    return "";
  }
  const auto inputSplit = splitAtInnerLevels(conv.input, reduction);
  const auto weightSplit = splitAtInnerLevels(conv.weights, reduction);
  if (inputSplit && weightSplit && inputSpan <= UINT32_MAX) {
    // Every output reads the same taps from its own run start (conv_taps.h); outputs that share a
    // weight run go through the kernel in batches.
    std::vector<uint32_t> inputAt(reduction), weightAt(reduction);  // byte offsets within a run
    for (uint64_t r = 0; r < reduction; ++r) {
      inputAt[r] = static_cast<uint32_t>(inputSplit->innerOffsets[r] * kUnitBytes);
      weightAt[r] = static_cast<uint32_t>(static_cast<uint64_t>(weightSplit->innerOffsets[r]) * conv.groupBytes());
    }
    const ConvTaps taps{inputAt, weightAt, lanes};
    const MacPath path = macPath();
    const auto zpIn = static_cast<uint32_t>(conv.epilogue.zpIn);
    const uint32_t terms = static_cast<uint32_t>(reduction) * kUnitBytes;
    // sum w per lane over a weight run, the same for every output that uses the run.
    std::map<const uint8_t*, std::vector<uint32_t>> weightSums;
    const auto sumsOf = [&](const uint8_t* run) -> const std::vector<uint32_t>& {
      auto [it, added] = weightSums.try_emplace(run, lanes, 0u);
      if (added) {
        for (uint64_t r = 0; r < reduction; ++r) {
          for (unsigned b = 0; b < conv.groupBytes(); ++b) it->second[b / kUnitBytes] += run[weightAt[r] + b];
        }
      }
      return it->second;
    };
    std::array<uint32_t, kTapBatch> runStart{};
    std::array<int64_t, kTapBatch> outUnit{};
    std::array<uint64_t, kTapBatch> outIndex{};
    std::vector<uint32_t> dot(static_cast<size_t>(kTapBatch) * lanes);
    std::array<uint32_t, kTapBatch> sumX{};
    std::vector<int32_t> acc(lanes);
    unsigned batched = 0;
    const uint8_t* batchWeights = nullptr;
    const auto flush = [&]() -> std::string {
      if (batched == 0) return "";
      dotConvTaps(input.data(), runStart.data(), batched, batchWeights, taps, dot.data(), sumX.data(), path);
      const std::vector<uint32_t>& sumW = sumsOf(batchWeights);
      for (unsigned o = 0; o < batched; ++o) {
        for (unsigned c = 0; c < lanes; ++c) {
          const auto offset = static_cast<uint32_t>(weightOffset[c]);
          acc[c] = static_cast<int32_t>(static_cast<uint32_t>(bias[c]) + dot[static_cast<size_t>(o) * lanes + c] - offset * sumX[o] -
                                        zpIn * sumW[c] + terms * zpIn * offset);
        }
        if (!writeOutput(outUnit[o], acc, outIndex[o])) return "output unit " + std::to_string(outUnit[o]) + " leaves the narrow memory";
      }
      batched = 0;
      return "";
    };
    NestCursor inRun(inputSplit->outer);
    NestCursor wRun(weightSplit->outer);
    for (uint64_t o = 0; o < conv.outputs(); ++o, out.next(), inRun.next(), wRun.next()) {
      const uint8_t* gRun = weights + static_cast<uint64_t>(wRun.unit()) * conv.groupBytes();
      if (batched == kTapBatch || (batched != 0 && gRun != batchWeights)) {
        if (std::string why = flush(); !why.empty()) return why;
      }
      batchWeights = gRun;
      runStart[batched] = static_cast<uint32_t>(static_cast<uint64_t>(inRun.unit()) * kUnitBytes - firstInput);
      outIndex[batched] = o;
      outUnit[batched++] = out.unit();
    }
    if (std::string why = flush(); !why.empty()) return why;
  } else {
    // Taps that do not fill whole inner levels of both nests: the odometers step every iteration.
    NestCursor in(conv.input);
    NestCursor w(conv.weights);
    for (uint64_t o = 0; o < conv.outputs(); ++o, out.next()) {
      std::vector<int32_t> acc(bias);
      for (uint64_t r = 0; r < reduction; ++r, in.next(), w.next()) {
        const uint8_t* x = input.data() + (static_cast<uint64_t>(in.unit()) * kUnitBytes - firstInput);
        const uint8_t* g = weights + static_cast<uint64_t>(w.unit()) * conv.groupBytes();
        for (unsigned c = 0; c < lanes; ++c) acc[c] = accumulateGroup(acc[c], x, g + kUnitBytes * c, conv.epilogue.zpIn, weightOffset[c]);
      }
      if (!writeOutput(out.unit(), acc, o)) return "output unit " + std::to_string(out.unit()) + " leaves the narrow memory";
    }
  }
  macs += conv.iterations() * lanes * kUnitBytes;
  const uint64_t marked = forgetUndefinedPositions(conv, undefinedPositions, narrow);
  if (undefinedOutputs) *undefinedOutputs += marked;
  return "";
}

}  // namespace coralsim::lle
