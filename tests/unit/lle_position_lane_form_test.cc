// The position-lane compute form (models/lle/position_lane_form.h, docs/decoding-log.md "obytes"): a depthwise whose
// lanes are its output positions and whose output element is a whole position of C channel bytes (ComputeOutputBytes
// C > 4, w4[98:80]). A synthetic packet with values no corpus compute has -- a 2 x 3 kernel over a 5-wide padded grid of
// 8 channels (2 units), 3 x 2 positions, input at unit 5, output at byte 1,000, per-tensor weights (bias prefix, zero
// point 77) -- written as the corpus's form writes its nests: Nest37 taps / positions / units, Nest29 taps then
// positions and units at stride 0, Output37 level 0 the units with step 1 - (P - 1) x U after the positions'
// walk, the positions one element (U units) apart. Each channel unit takes its own stream block (bias, then 6 tap groups). Every
// output byte is checked against a direct depthwise written here from the layout (an H x W x C output, C bytes a
// position): with 4 x P lanes (the reading of ComputeLaneGroups in the 4-byte forms) or Output37 alone the outputs land
// elsewhere. The form's relations refuse, naming the fields, an element that is not 4 x the units, positions that
// Nest37 does not walk, and an Output37 step that does not make the tensor dense.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/addressed_memory.h"
#include "models/lle/conv_compute.h"
#include "models/lle/lle_fields.h"
#include "models/lle/position_lane_form.h"

namespace coralsim::lle::lle_position_lane_form_test {
namespace {

constexpr unsigned kKh = 2, kKw = 3, kTaps = kKh * kKw;  // kernel rows, columns (no corpus kernel is 2 x 3)
constexpr unsigned kOutW = 3, kOutH = 2, kPositions = kOutW * kOutH;
constexpr unsigned kUnits = 2, kC = 4 * kUnits;          // channel units of a position, channels
constexpr int64_t kG = kOutW + kKw - 1;                  // padded grid width, positions
constexpr int64_t kInputAt4 = 5;
constexpr uint64_t kOutputAt = 1000;
constexpr int32_t kZpIn = 3, kZpOut = 11, kZpWeight = 77;
constexpr float kMult = 0.0003f, kLo = -10.0f, kHi = 200.0f;

struct Packet {
  std::vector<isa::Word128> words = std::vector<isa::Word128>(17);
  void field(LleField f, uint64_t v) { isa::writePacketBits(words, fieldDef(f).lsb, fieldDef(f).width, v); }
  void slot(isa::ComputeNest nest, unsigned level, uint64_t limit, int64_t carry) {
    const isa::ComputeNestDef& def = isa::computeNestDef(nest);
    isa::writePacketBits(words, def.limitLsb(level), def.limitWidth, limit);
    isa::writePacketBits(words, def.wrapLsb(level), def.wrapWidth, static_cast<uint64_t>(carry) & ((uint64_t{1} << def.wrapWidth) - 1));
  }
};

uint8_t lcg(uint32_t& s) {
  s = 1664525u * s + 1013904223u;
  return static_cast<uint8_t>(s >> 24);
}

Packet positionLanePacket() {
  Packet p;
  using N = isa::ComputeNest;
  // Nest37 from the strides (units): level 0 idle, tap column U, tap row a grid row, position column U, position row a
  // grid row, channel unit 1 -- each carry the next stride less the walk below it.
  const std::array<uint64_t, 6> limits{0, kKw - 1, kKh - 1, kOutW - 1, kOutH - 1, kUnits - 1};
  const std::array<int64_t, 6> strides{1, kUnits, kG * kUnits, kUnits, kG * kUnits, 1};
  int64_t walked = 0;
  for (unsigned level = 0; level < 6; ++level) {
    walked += static_cast<int64_t>(limits[level]) * strides[level];
    p.slot(N::Nest37, level, limits[level], level + 1 < 6 ? strides[level + 1] - walked : 0);
  }
  // Nest29: the taps' groups, then the positions and the units at stride 0 (each unit the stream's next block).
  p.slot(N::Nest29, 0, kTaps - 1, -static_cast<int64_t>(kTaps - 1));
  p.slot(N::Nest29, 1, kPositions - 1, -static_cast<int64_t>(kTaps - 1));
  p.slot(N::Nest29, 2, kUnits - 1, 0);
  // Output37: level 0 the units; its step applies after the positions' walk (one element, U units, apart).
  p.slot(N::Output37, 0, kUnits - 1, 0);
  const int64_t step = 1 - static_cast<int64_t>(kPositions - 1) * kUnits;
  p.field(LleField::ComputeOut37Step, static_cast<uint64_t>(step) & ((uint64_t{1} << 17) - 1));
  p.field(LleField::ComputeLaneGroups, kPositions - 1);
  p.field(LleField::ComputeOutputBytes, kC);
  p.field(LleField::ComputeOut37Flags6, 3);
  p.field(LleField::ComputeInputAt4, kInputAt4);
  p.field(LleField::ComputeOutputAt, kOutputAt);
  p.field(LleField::ComputeParamPrefix, 1);
  p.field(LleField::ComputeZpIn, kZpIn);
  p.field(LleField::ComputeZpWeight, kZpWeight);
  p.field(LleField::ComputeZpOut, kZpOut);
  p.field(LleField::ComputeMult, std::bit_cast<uint32_t>(kMult));
  p.field(LleField::ComputeClampLo, std::bit_cast<uint32_t>(kLo));
  p.field(LleField::ComputeClampHi, std::bit_cast<uint32_t>(kHi));
  return p;
}

TEST(LlePositionLaneForm, EachPositionWritesItsChannelUnitsOneAfterAnotherEachUnitFromItsOwnStreamBlock) {
  const Packet p = positionLanePacket();
  ASSERT_TRUE(isPositionLaneForm(p.words));
  ASSERT_EQ(positionLaneFormProblem(p.words), "");
  ConvCompute conv = ConvCompute::fromPacket(p.words);
  conv.streamBlocks = kUnits;  // the feeding write's blocks (the rung's WeightStream)
  ASSERT_EQ(conv.lanes, 4u);
  ASSERT_EQ(conv.unsupported(), "");
  ASSERT_EQ(conv.reduction(), kTaps);
  ASSERT_EQ(conv.blocks(), kUnits);
  uint32_t s = 4242;
  std::vector<uint8_t> grid(kC * kG * (kOutH + kKh - 1));  // H x W x C bytes, padded
  for (uint8_t& b : grid) b = lcg(s);
  // Block u: its bias array (4 lanes), then one 16-byte group a tap; lane c's bytes at 4 c (a full 4 x 4 group, so a
  // lane reading another unit's bytes changes the sum).
  std::array<int32_t, kC> bias{};
  std::vector<uint8_t> wide;
  std::vector<uint8_t> taps(kUnits * kTaps * 16);
  for (uint8_t& w : taps) w = lcg(s);
  for (unsigned u = 0; u < kUnits; ++u) {
    for (unsigned c = 0; c < 4; ++c) {
      bias[4 * u + c] = 310 * static_cast<int32_t>(4 * u + c) - 1100;
      uint8_t v[4];
      std::memcpy(v, &bias[4 * u + c], 4);
      wide.insert(wide.end(), v, v + 4);
    }
    wide.insert(wide.end(), taps.begin() + u * kTaps * 16, taps.begin() + (u + 1) * kTaps * 16);
  }
  const auto expected = [&](unsigned y, unsigned x, unsigned ch) {
    const unsigned u = ch / 4, c = ch % 4;
    int64_t acc = bias[ch];
    for (unsigned ky = 0; ky < kKh; ++ky) {
      for (unsigned kx = 0; kx < kKw; ++kx) {
        const unsigned at = static_cast<unsigned>(((y + ky) * kG + x + kx) * kC + 4 * u);  // unit u of the tap's position
        for (unsigned i = 0; i < 4; ++i) {
          acc += (int32_t{grid[at + i]} - kZpIn) * (int32_t{taps[(u * kTaps + ky * kKw + kx) * 16 + 4 * c + i]} - kZpWeight);
        }
      }
    }
    const float v = std::clamp(static_cast<float>(acc) * kMult, kLo, kHi);
    return static_cast<uint8_t>(std::clamp(std::nearbyint(v) + static_cast<float>(kZpOut), 0.0f, 255.0f));
  };
  AddressedMemory narrow{8192};
  ASSERT_TRUE(narrow.write(4 * kInputAt4, grid));
  uint64_t macs = 0;
  ASSERT_EQ(runConvCompute(conv, narrow, wide, models::RequantRounding::kFp32HalfEven, macs), "");
  const auto out = narrow.read(kOutputAt, kC * kPositions);
  for (unsigned y = 0; y < kOutH; ++y) {
    for (unsigned x = 0; x < kOutW; ++x) {
      for (unsigned ch = 0; ch < kC; ++ch) {
        EXPECT_EQ(int{out[(y * kOutW + x) * kC + ch]}, int{expected(y, x, ch)}) << "position (" << y << ", " << x << ") channel " << ch;
      }
    }
  }
  EXPECT_GT(std::set<uint8_t>(out.begin(), out.end()).size(), 12u);
  // Exactly the tensor: every byte of it written, the byte after it not.
  EXPECT_EQ(narrow.firstUnwritten(kOutputAt, kC * kPositions), std::nullopt);
  EXPECT_EQ(narrow.firstUnwritten(kOutputAt + kC * kPositions, 1), std::optional<uint64_t>(kOutputAt + kC * kPositions));
}

TEST(LlePositionLaneForm, FieldsThatDisagreeWithTheFormAreRefusedNamingThem) {
  {
    Packet p = positionLanePacket();
    p.field(LleField::ComputeOutputBytes, kC + 4);
    const std::string why = positionLaneFormProblem(p.words);
    EXPECT_NE(why.find("ComputeOutputBytes (word 4 bits 98:80) = 12"), std::string::npos) << why;
    EXPECT_NE(why.find("ComputeOut37Limit0"), std::string::npos) << why;
  }
  {
    Packet p = positionLanePacket();
    p.field(LleField::ComputeLaneGroups, kPositions);
    const std::string why = positionLaneFormProblem(p.words);
    EXPECT_NE(why.find("ComputeLaneGroups (word 4 bits 118:99) = 6"), std::string::npos) << why;
  }
  {
    Packet p = positionLanePacket();
    p.field(LleField::ComputeOut37Step, 1);  // positions overlapping their units: not the dense step 1 - 5 x 2
    const std::string why = positionLaneFormProblem(p.words);
    EXPECT_NE(why.find("ComputeOut37Step (word 4 bit 119, 17 bits) = 1"), std::string::npos) << why;
  }
  {
    Packet p = positionLanePacket();
    p.slot(isa::ComputeNest::Output37, 1, 1, 0);
    const std::string why = positionLaneFormProblem(p.words);
    EXPECT_NE(why.find("Output37 level 1 counts 2"), std::string::npos) << why;
  }
  // The 4-byte unit and the one byte are no position element: the form's check says nothing about them.
  Packet four = positionLanePacket();
  four.field(LleField::ComputeOutputBytes, 4);
  EXPECT_FALSE(isPositionLaneForm(four.words));
  EXPECT_EQ(positionLaneFormProblem(four.words), "");
}

}  // namespace
}  // namespace coralsim::lle::lle_position_lane_form_test
