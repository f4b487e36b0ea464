// The 4-byte identity copy (models/lle/identity_copy4.h, docs/decoding-log.md "ring4copy" §C): the
// output nest with the K groups as an implicit inner level, and the copy's bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/identity_copy4.h"
#include "models/lle/lle_fields.h"
#include "models/lle/output_nest.h"

namespace coralsim::lle::lle_identity_copy4_test {
namespace {

// A small twin of the RingCanary 12 x 128 x 32 identity compute: 3 K groups a position (C = 12; the
// corpus has 8), T = 4 positions a row, 2 rows, a padded grid of G = T + 2 positions a row; the
// output starts at grid position (1, 1) and slot 0's carry is 3 C/4 - (C/4 - 1) (17 in the corpus).
constexpr uint64_t kGroups = 3, kColumns = 4, kRows = 2, kGrid = kColumns + 2;
constexpr int64_t kFirstUnit = static_cast<int64_t>((kGrid + 1) * kGroups);

std::vector<isa::Word128> copyPacketWords() {
  std::vector<isa::Word128> words(17);
  const isa::ComputeNestDef& def = isa::computeNestDef(isa::ComputeNest::Output37);
  const auto slot = [&](unsigned level, uint64_t limit, int64_t carry) {
    isa::writePacketBits(words, def.limitLsb(level), def.limitWidth, limit);
    isa::writePacketBits(words, def.wrapLsb(level), def.wrapWidth, static_cast<uint64_t>(carry) & ((uint64_t{1} << def.wrapWidth) - 1));
  };
  const LleFieldDef& step = fieldDef(LleField::ComputeOut37Step);
  isa::writePacketBits(words, step.lsb, step.width, 1);
  slot(0, kColumns - 1, static_cast<int64_t>(3 * kGroups - (kGroups - 1)));
  slot(1, kRows - 1, 833);  // the corpus's value; the last counting level's carry is never applied
  return words;
}

TEST(GroupIdentityCopyTest, TheKGroupsAreAnImplicitInnerLevelOfTheOutputNest) {
  const auto words = copyPacketWords();
  const GroupedOutputNest nest = groupedOutputNest(words, kFirstUnit, kGroups);
  ASSERT_EQ(nest.units(), kGroups * kColumns * kRows);
  std::vector<int64_t> units;
  nest.forEachUnit([&](int64_t unit) { units.push_back(unit); });
  // Group g of position x of row r lands in grid position (1 + r, 1 + x), its g-th unit.
  for (uint64_t r = 0; r < kRows; ++r) {
    for (uint64_t x = 0; x < kColumns; ++x) {
      for (uint64_t g = 0; g < kGroups; ++g) {
        EXPECT_EQ(units[(r * kColumns + x) * kGroups + g], static_cast<int64_t>(((1 + r) * kGrid + 1 + x) * kGroups + g))
            << "row " << r << " position " << x << " group " << g;
      }
    }
  }
  EXPECT_FALSE(nest.revisitsAUnit());
  // Read without the group level, the same packet would put the positions one unit apart.
  const OutputNest plain = OutputNest::fromPacket(words, kFirstUnit);
  EXPECT_EQ(plain.units(), kColumns * kRows);
}

TEST(GroupIdentityCopyTest, EachKGroupOfEachPassIsWeightedByTheBlockIntoOneUnit) {
  const auto words = copyPacketWords();
  const GroupedOutputNest nest = groupedOutputNest(words, kFirstUnit, kGroups);
  StagingWindow window{100, kGroups * kColumns, 3, {}, 0};
  // Pass 0 is not the copy's (the window's first pass was read by an earlier compute): passes 1 and 2.
  for (uint64_t p = 0; p < 3; ++p) {
    std::vector<uint8_t> pass(4 * kGroups * kColumns);
    for (uint64_t i = 0; i < pass.size(); ++i) pass[i] = static_cast<uint8_t>(7 * p + 3 * i + 1);
    window.passBytes.push_back(pass);
  }
  // Lane c weighs byte c by 1 (the identity), and lane 0 also byte 1 by 2: the orientation shows.
  std::vector<uint8_t> block(16, 0);
  for (unsigned c = 0; c < 4; ++c) block[4 * c + c] = 1;
  block[1] = 2;
  const Requantizer requant(1.0f, 1.0f, -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(), 0,
                            models::RequantRounding::kFp32HalfEven);
  AddressedMemory narrow(4096);
  GroupIdentityCopy{kGroups, kColumns, kRows}.run(window, 1, block, requant, nest, narrow);
  for (uint64_t r = 0; r < kRows; ++r) {
    for (uint64_t x = 0; x < kColumns; ++x) {
      for (uint64_t g = 0; g < kGroups; ++g) {
        const uint64_t unit = ((1 + r) * kGrid + 1 + x) * kGroups + g;
        const auto got = narrow.read(4 * unit, 4);
        const std::vector<uint8_t>& pass = window.passBytes[1 + r];
        const uint64_t at = 4 * (kGroups * x + g);
        const int lane0 = pass[at] + 2 * pass[at + 1];
        EXPECT_EQ(got[0], static_cast<uint8_t>(std::min(lane0, 255))) << "unit " << unit;
        for (unsigned c = 1; c < 4; ++c) EXPECT_EQ(got[c], pass[at + c]) << "unit " << unit << " lane " << c;
      }
    }
  }
  // The units between the rows' positions (the grid's padding) are not written.
  EXPECT_TRUE(narrow.firstUnwritten(4 * ((1 * kGrid) * kGroups), 4 * kGroups).has_value());
}

}  // namespace
}  // namespace coralsim::lle::lle_identity_copy4_test
