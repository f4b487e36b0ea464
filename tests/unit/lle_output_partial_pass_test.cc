// The compute's partial-pass codes (models/lle/output_partial_pass.h; lle_fields.def ComputeOutPartialUnits,
// ComputeOutLevelsWalked, ComputeOutPartialRestPairs, w7[25:22], w7[42:40], w7[49:46]; docs/decoding-log.md
// "w7codes"): computed from the output nest's step, the position's units and the highest counting Output37 level.
// Computes on tiles 2 and 11, 16 units a position with a level-0 step of 7 (k = 6 units past a whole pass: no corpus
// compute has it -- the corpus's set codes are k = 2, 4, 8, 14 of 16 and 16 of 32) or 12 units with step 11 (k = 10),
// output levels 0 and 2 counting: the codes the fields call for pass the relations, any other codes -- the corpus's
// step-9 codes, none, a level one too high, codes beside an odd k -- are refused naming the codes and the fields.
#include <gtest/gtest.h>

#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/output_partial_pass.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_output_partial_pass_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 2) | (1u << 11);

class OutputPartialPassTest : public ::testing::Test {
 protected:
  // A compute writing `laneGroups` + 1 units a position, `positions` + 1 positions at output level 0 stepping `step`,
  // `rows` + 1 rows at level 2; `codes` named only where the test is about them.
  DecodedPacket compute(uint64_t laneGroups, uint64_t step, uint64_t positions, uint64_t rows,
                        const OutputPartialPassCodes* codes = nullptr) {
    std::vector<std::pair<LleField, uint64_t>> fields{{LleField::ComputeLaneGroups, laneGroups},
                                                      {LleField::ComputeOut37Step, step},
                                                      {LleField::ComputeOut37Limit0, positions},
                                                      {LleField::ComputeOut37Limit2, rows}};
    if (codes != nullptr) {
      fields.emplace_back(LleField::ComputeOutPartialUnits, codes->partialUnits);
      fields.emplace_back(LleField::ComputeOutLevelsWalked, codes->levelsWalked);
      fields.emplace_back(LleField::ComputeOutPartialRestPairs, codes->partialRestPairs);
    }
    return packets_.make(0x01, kTiles, fields);
  }

  EnvelopePackets packets_{0x500};
};

TEST_F(OutputPartialPassTest, TheCodesFollowTheStepTheUnitsAndTheHighestCountingLevel) {
  // 16 units, step 7: a position 22 units long, 6 past its pass -> 5, level 2 + 1, (16 - 6) / 2.
  EXPECT_EQ(expectedOutputPartialPassCodes(compute(15, 7, 5, 2).words), (OutputPartialPassCodes{5, 3, 5}));
  // Level 0 running once beside the counting level 2 (voice_commands' form): the same codes.
  EXPECT_EQ(expectedOutputPartialPassCodes(compute(15, 7, 0, 2).words), (OutputPartialPassCodes{5, 3, 5}));
  // 12 units, step 11: 22 units, 10 past the pass -> 9, 3, 1.
  EXPECT_EQ(expectedOutputPartialPassCodes(compute(11, 11, 4, 2).words), (OutputPartialPassCodes{9, 3, 1}));
  // Step 23 (k = 6 again, a pass and a half on): the residue, not the step, counts.
  EXPECT_EQ(expectedOutputPartialPassCodes(compute(15, 23, 5, 2).words), (OutputPartialPassCodes{5, 3, 5}));
  // No codes: k odd (step 8 -> 7), k = 0 (step 17: whole passes), or no level above 0 counting.
  EXPECT_EQ(expectedOutputPartialPassCodes(compute(15, 8, 5, 2).words), OutputPartialPassCodes{});
  EXPECT_EQ(expectedOutputPartialPassCodes(compute(15, 17, 5, 2).words), OutputPartialPassCodes{});
  EXPECT_EQ(expectedOutputPartialPassCodes(compute(15, 7, 5, 0).words), OutputPartialPassCodes{});
}

TEST_F(OutputPartialPassTest, CodesThatFollowTheFieldsPassTheRelations) {
  const DecodedPacket p = compute(15, 7, 5, 2);
  EXPECT_EQ(p.words[7].bits(22, 4), 5u);
  EXPECT_EQ(p.words[7].bits(40, 3), 3u);
  EXPECT_EQ(p.words[7].bits(46, 4), 5u);
  EXPECT_EQ(outputPartialPassProblem(p.words), "");
  EXPECT_EQ(checkFieldRelations(0x01, p.words), "") << checkFieldRelations(0x01, p.words);
  const DecodedPacket none = compute(15, 8, 5, 2);
  EXPECT_EQ(none.words[7].bits(22, 28), 0u);
  EXPECT_EQ(checkFieldRelations(0x01, none.words), "") << checkFieldRelations(0x01, none.words);
}

TEST_F(OutputPartialPassTest, CodesThatDisagreeWithTheFieldsAreRefusedNamingThem) {
  const OutputPartialPassCodes stepNine{7, 3, 4};  // MobileNet v2's codes at step 9, here beside step 7
  const std::string wrong = checkFieldRelations(0x01, compute(15, 7, 5, 2, &stepNine).words);
  EXPECT_NE(wrong.find("ComputeOutPartialUnits (word 7 bits 25:22) = 7"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("ComputeOut37Step = 7, ComputeLaneGroups = 15"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("ComputeOutPartialUnits (word 7 bits 25:22) = 5, ComputeOutLevelsWalked (word 7 bits 42:40) = 3, "
                       "ComputeOutPartialRestPairs (word 7 bits 49:46) = 5"),
            std::string::npos)
      << wrong;
  const OutputPartialPassCodes zero{};
  const std::string missing = checkFieldRelations(0x01, compute(15, 7, 5, 2, &zero).words);
  EXPECT_NE(missing.find("ComputeOutPartialUnits (word 7 bits 25:22) = 0"), std::string::npos) << missing;
  const OutputPartialPassCodes levelTooHigh{5, 4, 5};
  const std::string level = checkFieldRelations(0x01, compute(15, 7, 5, 2, &levelTooHigh).words);
  EXPECT_NE(level.find("highest counting Output37 level 2"), std::string::npos) << level;
  const OutputPartialPassCodes stray{5, 3, 5};  // codes beside an odd k
  const std::string odd = checkFieldRelations(0x01, compute(15, 8, 5, 2, &stray).words);
  EXPECT_NE(odd.find("ComputeOut37Step = 8"), std::string::npos) << odd;
}

}  // namespace
}  // namespace coralsim::lle::lle_output_partial_pass_test
