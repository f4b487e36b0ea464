// The prefixed pointwise (1 x 1) convolution that writes into the next layer's padded grid (docs/decoding-log.md
// "stride2"): the MobileNet / PoseNet pointwise layers' form. Their input positions are read one after the other,
// K groups each, and their output rows are laid T positions of a row into a grid whose rows are wider than T (the
// halo the next 3 x 3 layer reads), so the output nest's level-1 carry is the grid's row step and the carries of
// the levels that run once are never applied. The compiler writes those idle carries with values the relation
// table read as K-loop wraps of another stride (ComputeKWrap37[0] = +1 where the positions count at Nest37 level
// 3, ComputeKWrapW7 = +1, ComputeOutWrap[0] = a rewind of the whole grid): with a parameter prefix the relation
// table leaves them to the convolution executor, which walks the three nests as address generators.
// Sizes no corpus compute has: 3 K groups (12 input channels), 8 lanes, 5 x 3 positions, a grid row of 7 positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "models/chip_config.h"
#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/addressed_memory.h"
#include "models/lle/conv_compute.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle::lle_pointwise_grid_test {
namespace {

constexpr unsigned kGroups = 3;                      // K groups of 4 input channels
constexpr unsigned kLanes = 8;                       // output channels: two 4-byte units a position
constexpr unsigned kUnitsAPosition = kLanes / 4;
constexpr unsigned kRowPositions = 5, kRows = 3;     // T x R output positions on the tile
constexpr unsigned kPositions = kRowPositions * kRows;
constexpr unsigned kGridRowPositions = kRowPositions + 2;         // one halo position each side
constexpr int64_t kGridRowUnits = kGridRowPositions * kUnitsAPosition;
constexpr uint64_t kGridAt4 = 300;                                // the next layer's grid, in 4-byte units
constexpr uint64_t kOutputAt4 = kGridAt4 + kGridRowUnits + kUnitsAPosition;  // its first interior position
constexpr uint64_t kInputAt4 = 40;
constexpr int32_t kZpIn = 3, kZpWeight = 77, kZpOut = 11;
constexpr float kMult = 0.0006f, kLo = -20.0f, kHi = 230.0f;

struct Packet {
  std::vector<isa::Word128> words = std::vector<isa::Word128>(17);
  void field(LleField f, uint64_t v) { isa::writePacketBits(words, fieldDef(f).lsb, fieldDef(f).width, v); }
  void element(LleField f, unsigned e, uint64_t v) {
    isa::writePacketBits(words, fieldDef(f).lsb + e * fieldDef(f).stride, fieldDef(f).width, v);
  }
  void slot(isa::ComputeNest nest, unsigned level, uint64_t limit, int64_t carry) {
    const isa::ComputeNestDef& def = isa::computeNestDef(nest);
    isa::writePacketBits(words, def.limitLsb(level), def.limitWidth, limit);
    isa::writePacketBits(words, def.wrapLsb(level), def.wrapWidth, static_cast<uint64_t>(carry) & ((uint64_t{1} << def.wrapWidth) - 1));
  }
};

// Where the input nest counts the positions: Nest37 level 2 (the google-coral test_data compiles' 0x0178) or level 3
// (the edgetpu test_data compiles', levels 1 and 2 running once).
enum class PositionLevel { kTwo, kThree };

Packet pointwisePacket(PositionLevel level, unsigned prefix) {
  Packet p;
  using N = isa::ComputeNest;
  const int64_t allIterations = int64_t{kGroups} * kPositions;
  // Nest37: the K groups of a position side by side, then the next position one unit on (carry +1 from the last
  // group); the other slots' carries belong to levels that run once -- the corpus's values: -(iterations - 1).
  // (Slot i holds level i's limit and the carry applied when level i + 1 counts.)
  p.slot(N::Nest37, 0, kGroups - 1, 1);
  p.slot(N::Nest37, 1, 0, 1);  // level 2 counting: the next position one unit after the last group
  if (level == PositionLevel::kTwo) {
    p.slot(N::Nest37, 2, kPositions - 1, 1 - allIterations);
    for (unsigned s = 3; s < 7; ++s) p.slot(N::Nest37, s, 0, 1 - allIterations);
  } else {
    p.slot(N::Nest37, 2, 0, 1);  // ComputeKWrap37[0] = +1: the step to the next position, applied when level 3 counts
    p.slot(N::Nest37, 3, kPositions - 1, 1 - allIterations);
    for (unsigned s = 4; s < 7; ++s) p.slot(N::Nest37, s, 0, 1 - allIterations);
  }
  // Nest29 (the weights): the K groups, back to the first for every position. Where the positions count at level 3
  // (Nest29's level 2) the compiler writes +1 at slot 0 (ComputeKWrapW7), the carry of a level that runs once.
  p.slot(N::Nest29, 0, kGroups - 1, level == PositionLevel::kTwo ? -int64_t{kGroups - 1} : 1);
  p.slot(N::Nest29, 1, level == PositionLevel::kTwo ? kPositions - 1 : 0, -int64_t{kGroups - 1});
  p.slot(N::Nest29, 2, level == PositionLevel::kTwo ? 0 : kPositions - 1, -int64_t{kGroups - 1});
  for (unsigned s = 3; s < 7; ++s) p.slot(N::Nest29, s, 0, -int64_t{kGroups - 1});
  // The w0 and w10 nests count the same iterations (docs/decoding-log.md "w1lo").
  p.field(LleField::ComputeK4W0, kGroups - 1);
  p.element(LleField::ComputeLimitW0, level == PositionLevel::kTwo ? 0 : 2, kPositions - 1);
  p.field(LleField::ComputeK4W10, kGroups - 1);
  p.element(LleField::ComputeLimitW10, 0, kPositions - 1);
  // Output37: a row's T positions side by side (step 1: each position's units together), then the carry to the
  // next grid row from the row's last unit; the rows; slots 2-6 idle, carrying a rewind to the grid's second
  // position as the corpus's computes do (-1,079 in MobileNet v1 0.25's @ 0x0178).
  const int64_t rowLastUnit = (kRowPositions - 1) * kUnitsAPosition + kUnitsAPosition - 1;
  const int64_t lastUnit = (kRows - 1) * kGridRowUnits + rowLastUnit;
  p.slot(N::Output37, 0, kRowPositions - 1, kGridRowUnits - rowLastUnit);
  p.slot(N::Output37, 1, kRows - 1, kUnitsAPosition - lastUnit);
  for (unsigned s = 2; s < 6; ++s) p.slot(N::Output37, s, 0, kUnitsAPosition - lastUnit);
  p.field(LleField::ComputeOut37Step, 1);
  p.field(LleField::ComputePositionLoopOn, 1);
  p.field(LleField::ComputeInputAt4, kInputAt4);
  p.field(LleField::ComputeOutputAt, 4 * kOutputAt4);
  p.field(LleField::ComputeInputBytes, 4);
  p.field(LleField::ComputeInputLevelMoves, level == PositionLevel::kTwo ? 0b101 : 0b1001);
  p.field(LleField::ComputeLaneGroups, kUnitsAPosition - 1);
  p.field(LleField::ComputeParamPrefix, prefix);
  p.field(LleField::ComputeZpIn, kZpIn);
  p.field(LleField::ComputeZpWeight, kZpWeight);
  p.field(LleField::ComputeZpOut, kZpOut);
  p.field(LleField::ComputeMult, std::bit_cast<uint32_t>(kMult));
  p.field(LleField::ComputeClampLo, std::bit_cast<uint32_t>(kLo));
  p.field(LleField::ComputeClampHi, std::bit_cast<uint32_t>(kHi));
  return p;
}

uint8_t lcg(uint32_t& s) {
  s = 1664525u * s + 1013904223u;
  return static_cast<uint8_t>(s >> 24);
}

struct Layer {
  std::vector<uint8_t> input;    // kPositions x kGroups units: position p's group g at unit kGroups p + g
  std::vector<uint8_t> weights;  // kGroups groups of 4 x kLanes bytes: (lane c, byte i) at 4 c + i
  std::vector<int32_t> bias{-900, 35, 0, 1200, -7, 410, 99, -2000};

  Layer() {
    uint32_t s = 2027;
    input.resize(4 * kGroups * kPositions);
    for (uint8_t& b : input) b = lcg(s);
    weights.resize(kGroups * 4 * kLanes);
    for (uint8_t& b : weights) b = lcg(s);
  }
  // The stream's bytes: the bias array (prefix 1), then the weight groups.
  [[nodiscard]] std::vector<uint8_t> wide() const {
    std::vector<uint8_t> out(4 * bias.size());
    std::memcpy(out.data(), bias.data(), out.size());
    out.insert(out.end(), weights.begin(), weights.end());
    return out;
  }
  // The 1 x 1 convolution written from the layout: position p, lane c.
  [[nodiscard]] uint8_t expected(unsigned p, unsigned c) const {
    int64_t acc = bias[c];
    for (unsigned g = 0; g < kGroups; ++g) {
      for (unsigned i = 0; i < 4; ++i) {
        acc += (int32_t{input[4 * (kGroups * p + g) + i]} - kZpIn) * (int32_t{weights[g * 4 * kLanes + 4 * c + i]} - kZpWeight);
      }
    }
    const float v = std::clamp(static_cast<float>(acc) * kMult, kLo, kHi);
    return static_cast<uint8_t>(std::clamp(std::nearbyint(v) + static_cast<float>(kZpOut), 0.0f, 255.0f));
  }
};

// Both compiles' forms pass the relation table with the idle carries they carry, run on the convolution
// executor, and write each position's lanes at its place in the grid, the halo units left unwritten. Without a
// parameter prefix (a compute the table still holds to the K-loop and output-carry relations) the same packet is
// refused naming the carry.
TEST(LlePointwiseGrid, ThePrefixedPointwiseConvolutionWritesItsRowsIntoTheNextLayersPaddedGrid) {
  const Layer layer;
  for (const PositionLevel level : {PositionLevel::kTwo, PositionLevel::kThree}) {
    const std::string form = level == PositionLevel::kTwo ? "positions at Nest37 level 2" : "positions at Nest37 level 3";
    const Packet packet = pointwisePacket(level, 1);
    EXPECT_EQ(checkFieldRelations(0x01, packet.words), "") << form;
    const ConvCompute conv = ConvCompute::fromPacket(packet.words);
    ASSERT_EQ(conv.unsupported(), "") << form;
    EXPECT_EQ(conv.outputs(), uint64_t{kPositions}) << form;
    AddressedMemory narrow(8192);
    ASSERT_TRUE(narrow.write(4 * kInputAt4, layer.input));
    const std::vector<uint8_t> wide = layer.wide();
    uint64_t macs = 0;
    ASSERT_EQ(runConvCompute(conv, narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "") << form;
    std::set<uint8_t> values;
    for (int64_t unit = 0; unit < (kRows + 2) * kGridRowUnits; ++unit) {
      const uint64_t at = 4 * (kGridAt4 + static_cast<uint64_t>(unit));
      const int64_t row = unit / kGridRowUnits - 1;
      const int64_t column = (unit % kGridRowUnits) / kUnitsAPosition - 1;
      const bool interior = row >= 0 && row < kRows && column >= 0 && column < kRowPositions;
      if (!interior) {
        EXPECT_TRUE(narrow.firstUnwritten(at, 4).has_value()) << form << ": halo unit " << unit << " written";
        continue;
      }
      ASSERT_FALSE(narrow.firstUnwritten(at, 4).has_value()) << form << ": grid unit " << unit;
      const auto got = narrow.read(at, 4);
      const auto p = static_cast<unsigned>(row * kRowPositions + column);
      for (unsigned i = 0; i < 4; ++i) {
        const unsigned c = 4 * static_cast<unsigned>(unit % kUnitsAPosition) + i;
        EXPECT_EQ(int{got[i]}, int{layer.expected(p, c)}) << form << ": position " << p << " lane " << c;
        values.insert(got[i]);
      }
    }
    EXPECT_GT(values.size(), 20u) << form << ": the outputs are not constants";
    // Unprefixed, the element-wise relations read the position step and the carries as theirs and refuse them.
    const std::string unprefixed = checkFieldRelations(0x01, pointwisePacket(level, 0).words);
    EXPECT_NE(unprefixed.find("a loop the rung does not model"), std::string::npos) << form << ": " << unprefixed;
    if (level == PositionLevel::kThree) {
      EXPECT_NE(unprefixed.find("ComputeKWrap37[0]"), std::string::npos) << unprefixed;
    }
  }
}

// The single-position (Dense) executor reads its K groups as one run: the K-loop wraps the relation table leaves
// to the prefixed form are held there as before (singlePositionKWrapProblem): the level-3 form's idle carries are
// named, the level-2 form's wraps (all -(iterations - 1) and -ComputeK4W0) pass.
TEST(LlePointwiseGrid, TheSinglePositionExecutorStillHoldsTheKLoopWrapsOfAPrefixedCompute) {
  const std::string why = singlePositionKWrapProblem(pointwisePacket(PositionLevel::kThree, 1).words);
  EXPECT_NE(why.find("ComputeKWrap37[0] (word 2 bits 82:66) = 1 is not -1 x (iterations of ComputeK4W7 and ComputeLimit29 - 1) = -44"),
            std::string::npos)
      << why;
  EXPECT_EQ(singlePositionKWrapProblem(pointwisePacket(PositionLevel::kTwo, 1).words), "");
}

}  // namespace
}  // namespace coralsim::lle::lle_pointwise_grid_test
