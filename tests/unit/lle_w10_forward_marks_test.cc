// The w10 nest's forward marks (models/lle/w10_forward_marks.h; lle_fields.def ComputePartialSumWalkOn w11 bit 99,
// ComputeW10ForwardMark w11 bits 100-105, ComputeW10CarryLow; docs/decoding-log.md "w9b53" §B): one mark a slot, set
// exactly where the slot's carry 4 x wrap + low is positive. Computes on tiles 4 and 11 with carries no corpus compute
// has -- slot 0 forward by its low bits alone (2), slots 1, 3, 5 forward by 3, 1, 2 (no corpus slot 5 moves forward)
// in a one-pass walk -- pass the envelope and the relations with their marks; model_dense's Dense @ 0x0160 (slot 0's
// low bit beside w11 bits 99-100) was refused on main naming w10 bit 23, model_conv's @ 0x0599 w11 bits 103:101. A
// mark that disagrees with its carry is refused naming both; low bits in a walk that is not one pass are refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/lle/w10_forward_marks.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_w10_forward_marks_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 4) | (1u << 11);

struct Slot {
  int64_t wrap;
  uint64_t low;
  uint64_t mark;
};

class W10ForwardMarksTest : public ::testing::Test {
 protected:
  // A compute whose w10 nest's level 0 counts 6 K groups (one pass unless `levels` say otherwise), with the
  // seven slots' wraps, low bits and marks written as raw bits at their fields' places.
  DecodedPacket compute(const std::vector<Slot>& slots, const std::vector<std::pair<LleField, uint64_t>>& levels = {}) {
    std::vector<std::pair<LleField, uint64_t>> fields = {{LleField::ComputeK4W10, 5}, {LleField::ComputeW10Level0Once, 0},
                                                         {LleField::ComputeOutputBytes, 4}};
    fields.insert(fields.end(), levels.begin(), levels.end());
    DecodedPacket p = packets_.make(0x01, kTiles, fields);
    auto& words = packets_.lastWords();
    for (unsigned i = 0; i < slots.size(); ++i) {
      setFieldElement(words, LleField::ComputeWrapW10, i, static_cast<uint64_t>(slots[i].wrap) & 0x1fff);
      setFieldElement(words, LleField::ComputeW10CarryLow, i, slots[i].low);
      if (i == 0) setFieldElement(words, LleField::ComputePartialSumWalkOn, 0, slots[i].mark);
      else setFieldElement(words, LleField::ComputeW10ForwardMark, i - 1, slots[i].mark);
    }
    return p;
  }

  EnvelopePackets packets_{0x400};
};

// Slot 0 forward by its low bits alone, slots 1, 3, 5 by whole wraps, slots 2, 4, 6 still.
const std::vector<Slot> kAgreeing = {{0, 2, 1}, {3, 0, 1}, {0, 0, 0}, {1, 0, 1}, {0, 0, 0}, {2, 0, 1}, {0, 0, 0}};

TEST_F(W10ForwardMarksTest, MarksSetExactlyWhereTheCarryIsPositivePassTheEnvelopeAndTheRelations) {
  const DecodedPacket p = compute(kAgreeing);
  EXPECT_EQ(p.words[11].bits(99, 7), 0b0101011u);
  EXPECT_EQ(readField(p.words, LleField::ComputeW10CarryLow, 0), 2u);
  EXPECT_EQ(readSigned(p.words, LleField::ComputeWrapW10, 5), 2);
  EXPECT_EQ(w10ForwardMarksProblem(p.words), "");
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
}

TEST_F(W10ForwardMarksTest, AMarkThatDisagreesWithItsCarryIsRefusedNamingBoth) {
  std::vector<Slot> markWithoutCarry = kAgreeing;
  markWithoutCarry[2].mark = 1;
  const std::string a = checkEnvelope(compute(markWithoutCarry));
  EXPECT_NE(a.find("ComputeW10ForwardMark[1] (word 11 bit 101) = 1 with ComputeWrapW10[2] = 0"), std::string::npos) << a;
  EXPECT_NE(a.find("moves forward"), std::string::npos) << a;
  std::vector<Slot> carryWithoutMark = kAgreeing;
  carryWithoutMark[3].mark = 0;
  const std::string b = checkEnvelope(compute(carryWithoutMark));
  EXPECT_NE(b.find("ComputeW10ForwardMark[2] (word 11 bit 102) = 0 with ComputeWrapW10[3] = 1"), std::string::npos) << b;
  std::vector<Slot> lowWithoutMark = kAgreeing;
  lowWithoutMark[0].mark = 0;
  const std::string c = checkEnvelope(compute(lowWithoutMark));
  EXPECT_NE(c.find("ComputePartialSumWalkOn (word 11 bit 99) = 0 with ComputeWrapW10[0] = 0 and ComputeW10CarryLow[0]"), std::string::npos)
      << c;
  std::vector<Slot> returnMarked = kAgreeing;
  returnMarked[4] = {-3, 0, 1};  // a return (negative carry) is never marked
  const std::string d = checkEnvelope(compute(returnMarked));
  EXPECT_NE(d.find("ComputeW10ForwardMark[3] (word 11 bit 103) = 1 with ComputeWrapW10[4] = -3"), std::string::npos) << d;
}

TEST_F(W10ForwardMarksTest, LowBitsInAWalkThatIsNotOnePassAreRefusedByName) {
  // Three positions one row apart (level 1), two K passes into the same rows (level 3: wrap[2] returns by -2), from row 100.
  const std::vector<std::pair<LleField, uint64_t>> walk = {{LleField::ComputeLimitW10, 2}, {LleField::ComputeLimitW10Level3, 1},
                                                           {LleField::ComputePartialSumRow, 100}};
  const std::vector<Slot> whole = {{1, 0, 1}, {0, 0, 0}, {-2, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  EXPECT_EQ(checkEnvelope(compute(whole, walk)), "") << checkEnvelope(compute(whole, walk));
  std::vector<Slot> quarter = whole;
  quarter[0].low = 1;
  const std::string why = checkEnvelope(compute(quarter, walk));
  EXPECT_NE(why.find("ComputeW10CarryLow[0] (word 10 bits 24:23) = 1: a walk over partial-sum rows that moves by part of a row"),
            std::string::npos)
      << why;
}

}  // namespace
}  // namespace coralsim::lle::lle_w10_forward_marks_test
