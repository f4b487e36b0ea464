// The second nest's level 1 of a kept 0x13 read (models/lle/kept_read_second_nest.h; lle_fields.def Stage13RepeatLevel1On,
// w3 bit 102, docs/decoding-log.md "st13") and the kept read's take count (models/lle/kept_take_units.h; Stage13KeptTakeUnits,
// w4[58:43]). The reads here are this test's own: tiles 5 and 9, stream 3,011, a first nest of 4 groups x 8 x 3 x 5 x 2 (no
// corpus read has that shape). With bit 102 the second nest's two levels (15 x 2 = 30) count the first nest's rows (levels
// 2-4: 3 x 5 x 2 = 30), its carry is +1 and its returns -29: accepted; a count other than the rows, a carry other than +1,
// a return other than -(positions - 1), or the bit in a sent read are refused naming the field. A kept read with w4 bit 59
// and no records names its bytes in 32-byte units (or 0xffff): 96 bytes -> 3 accepted, 0xffff accepted, 2 refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/kept_read_second_nest.h"
#include "models/lle/kept_take_units.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_kept_read_second_nest_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 5) | (1u << 9);
constexpr uint64_t kStream = 3011;
class KeptReadSecondNestTest : public ::testing::Test {
 protected:
  // A kept read (route 0, 0) of 4 groups x 8 x 3 x 5 x 2 from narrow unit 0 (level 0 steps 8 units, level 1 one unit on, the
  // levels above one row of 32 units on); its second nest counts `repeats` x `limitOne` positions with w3 bit 102, carry
  // `carry` and returns `back`.
  DecodedPacket read(uint64_t repeats, uint64_t limitOne, int64_t carry, int64_t back, uint64_t route = 0) {
    DecodedPacket p = packets_.make(0x13, kTiles,
                                    {{LleField::Stage13Channel, kStream}, {LleField::Stage13LoopOn, 1}, {LleField::Stage13Groups, 3},
                                     {LleField::Stage13Step, 8}, {LleField::Stage13RepeatSlot, 1}, {LleField::Stage13RepeatOn, 1},
                                     {LleField::Stage13RepeatLevel1On, 1}});
    // Level 1 (8 counts): back from the last group (24) to one unit past the first; levels 2-4 go on by a row of 32 units
    // from the last unit of the row before (31): +1, and the last returns over the whole read.
    const int64_t wraps[5] = {-23, 1, 1, 1, -(32 * 3 * 5 * 2 - 1)};
    const uint64_t limits[4] = {7, 2, 4, 1};
    for (unsigned e = 0; e < 4; ++e) {
      packets_.setElement(LleField::Stage13OuterOn, e, 1);
      packets_.setElement(LleField::Stage13OuterLimit, e, limits[e]);
    }
    for (unsigned e = 0; e < 5; ++e) packets_.setSignedElement(LleField::Stage13Wrap, e, wraps[e]);
    packets_.setElement(LleField::Stage13Repeats, 0, repeats - 1);
    packets_.setElement(LleField::Stage13RepeatLimit1, 0, limitOne - 1);
    packets_.setSignedElement(LleField::Stage13RepeatCarry1, 0, carry);
    for (unsigned e = 0; e < 2; ++e) packets_.setSignedElement(LleField::Stage13RepeatReturn, e, back);
    for (unsigned e = 0; e < 2; ++e) packets_.setElement(LleField::Stage13Route, e, route);
    return p;
  }

  EnvelopePackets packets_{0x500};
};

TEST_F(KeptReadSecondNestTest, ATwoLevelSecondNestCountingTheFirstNestsRowsIsAccepted) {
  const DecodedPacket p = read(15, 2, 1, -29);
  EXPECT_TRUE(fieldPresent(LleField::Stage13RepeatLevel1On, p.words));
  EXPECT_EQ(readField(p.words, LleField::Stage13RepeatLevel1On), 1u);
  // The one-level wraps and a sent read's beats are no fields where the second nest has its level 1.
  EXPECT_FALSE(fieldPresent(LleField::Stage13RepeatWrap, p.words));
  EXPECT_FALSE(fieldPresent(LleField::Stage13StreamBeats, p.words));
  EXPECT_EQ(readField(p.words, LleField::Stage13RepeatLimit1), 1u);
  EXPECT_EQ(keptReadSecondNestProblem(p.words), "");
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
  // The same rows split the other way (3 x 10) are the same count.
  const DecodedPacket q = read(3, 10, 1, -29);
  EXPECT_EQ(checkEnvelope(q), "") << checkEnvelope(q);
}

TEST_F(KeptReadSecondNestTest, ASecondNestNotCountingTheRowsIsRefusedNamingBothCounts) {
  const DecodedPacket p = read(16, 2, 1, -31);  // 32 positions against 30 rows
  const std::string why = checkEnvelope(p);
  EXPECT_NE(why.find("the second nest counts 32 positions"), std::string::npos) << why;
  EXPECT_NE(why.find("30 rows"), std::string::npos) << why;
}

TEST_F(KeptReadSecondNestTest, ACarryOtherThanOneOrAReturnNotOverTheWholeWalkIsRefusedNamingTheField) {
  const std::string carry = checkEnvelope(read(15, 2, 2, -29));
  EXPECT_NE(carry.find("Stage13RepeatCarry1 (word 3 bits 18:2) = 2"), std::string::npos) << carry;
  const std::string back = checkEnvelope(read(15, 2, 1, -14));  // back over level 0 only (the one-level wraps' value)
  EXPECT_NE(back.find("Stage13RepeatReturn[0] (word 3 bits 51:35) = -14"), std::string::npos) << back;
}

TEST_F(KeptReadSecondNestTest, TheSecondNestsLevelOneInASentReadIsRefused) {
  const DecodedPacket p = read(15, 2, 1, -29, 1);
  const std::string why = keptReadSecondNestProblem(p.words);
  EXPECT_NE(why.find("Stage13RepeatLevel1On (word 3 bit 102) = 1 in a read routed (1, 1)"), std::string::npos) << why;
}

TEST_F(KeptReadSecondNestTest, WithoutBit102TheOneLevelWrapsStillReturnOverTheRepeats) {
  DecodedPacket p = read(15, 2, 1, -29);
  packets_.setElement(LleField::Stage13RepeatLevel1On, 0, 0);
  EXPECT_FALSE(fieldPresent(LleField::Stage13RepeatLimit1, p.words));
  EXPECT_EQ(keptReadSecondNestProblem(p.words), "");
  const std::string why = checkEnvelope(p);
  EXPECT_NE(why.find("Stage13RepeatWrap[0] (word 3 bits 18:2) = 1"), std::string::npos) << why;
}

class KeptTakeUnitsTest : public ::testing::Test {
 protected:
  // A kept read with w4 bit 59 and no records, of `groups` 4-byte groups (one level), its w4[58:43] = `units`; w4 bits 35,
  // 37, 40, 41 as the decode set's (MobileNet v2 1.0 224's read @ 0x0316: marks not decoded in this form, pinned).
  DecodedPacket read(uint64_t groups, uint64_t units) {
    DecodedPacket p = packets_.make(0x13, kTiles,
                                    {{LleField::Stage13Channel, kStream}, {LleField::Stage13LoopOn, 1}, {LleField::Stage13Groups, groups - 1},
                                     {LleField::Stage13Step, 1}, {LleField::Stage13RepeatSlot, 1}, {LleField::Stage13W4Bit59, 1},
                                     {LleField::Stage13W4On, 1}, {LleField::Stage13ConsumerMark, 3}});
    auto& words = packets_.lastWords();
    for (const unsigned bit : {35u, 37u, 40u, 41u}) words[4].setBits(bit, 1, 1);
    packets_.setElement(LleField::Stage13KeptTakeUnits, 0, units);
    return p;
  }

  EnvelopePackets packets_{0x600};
};

TEST_F(KeptTakeUnitsTest, TheBytesIn32ByteUnitsOrNoneAreAccepted) {
  const DecodedPacket p = read(24, 3);  // 96 bytes
  EXPECT_TRUE(fieldPresent(LleField::Stage13KeptTakeUnits, p.words));
  EXPECT_EQ(keptTakeUnitsProblem(p.words), "");
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
  const DecodedPacket rounded = read(10, 2);  // 40 bytes: two units, the last part filled
  EXPECT_EQ(checkEnvelope(rounded), "") << checkEnvelope(rounded);
  const DecodedPacket none = read(24, 0xffff);
  EXPECT_EQ(checkEnvelope(none), "") << checkEnvelope(none);
}

TEST_F(KeptTakeUnitsTest, ACountTheReadDoesNotHaveIsRefusedNamingTheField) {
  const DecodedPacket p = read(24, 2);
  const std::string why = checkEnvelope(p);
  EXPECT_NE(why.find("Stage13KeptTakeUnits (word 4 bits 58:43) = 2 in a kept read of 96 bytes"), std::string::npos) << why;
}

TEST_F(KeptTakeUnitsTest, ASentReadsW4IsNotTheTakeCount) {
  DecodedPacket p = read(24, 3);
  for (unsigned e = 0; e < 2; ++e) packets_.setElement(LleField::Stage13Route, e, 1);
  EXPECT_FALSE(fieldPresent(LleField::Stage13KeptTakeUnits, p.words));
  EXPECT_EQ(keptTakeUnitsProblem(p.words), "");
}

}  // namespace
}  // namespace coralsim::lle::lle_kept_read_second_nest_test
