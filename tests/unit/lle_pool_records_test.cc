// The pool form's record slots (models/lle/pool_records.h; lle_fields.def Stage13PoolRecordNumber / Span / SizeCode /
// SizeMark / SignMark; docs/decoding-log.md "pool13"). The bits that are constant over the 22 corpus pool reads (the
// form's flags, the codes' low bits, w4 bit 43) are written as raw bits, as the envelope pins them; the slots that vary
// are written through the fields with values no corpus pool read has (numbers 5 / 4 / -5, spans 156, 60, -112, 32).
// Everything else is this test's own: tiles 7 and 13, stream 3,017, a nest from narrow unit 37 with level 1 counting 16.
// A read whose slots keep the relations passes the envelope and the relation check; each relation broken is refused
// naming its field; a pinned bit of the form changed is still refused by the envelope.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/lle/pool_records.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_pool_records_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 7) | (1u << 13);
constexpr uint64_t kStream = 3017;

struct Slots {
  int64_t number0;
  int64_t number1;
  int64_t span0;
  int64_t span1;
  uint64_t code;
};

class PoolRecordSlotsTest : public ::testing::Test {
 protected:
  // A kept read (route 0, 0, w4 bit 59, the w4 fields on) in the pool form of the records, its slots from `slots`, the
  // sign and the copies kept as the relations say.
  DecodedPacket poolRead(const Slots& slots) {
    DecodedPacket p = packets_.make(0x13, kTiles,
                                    {{LleField::Stage13Channel, kStream}, {LleField::Stage13NarrowAt4, 37}, {LleField::Stage13LoopOn, 1},
                                     {LleField::Stage13Groups, 3}, {LleField::Stage13Step, 1}, {LleField::Stage13RepeatSlot, 1},
                                     {LleField::Stage13OuterOn, 1}, {LleField::Stage13OuterLimit, 15}, {LleField::Stage13Wrap, 1}});
    auto& words = packets_.lastWords();
    words[4].setBits(59, 1, 1);  // Stage13W4Bit59
    words[4].setBits(75, 1, 1);  // Stage13W4On
    // The constant bits of the form (every corpus pool read): w4 bit 43, the records mark 79, bit 101, the code's 0x3200
    // (w4[123:108]); record 1's flags and code 0x1a00 (w5 bits 15, 31, 33, 35, 57, w5[79:64]), record 2's flags and code
    // 0x04800 (w5 bits 99, 115, w5[127:124] + w6).
    words[4].setBits(43, 1, 1);
    words[4].setBits(79, 1, 1);
    words[4].setBits(101, 1, 1);
    words[4].setBits(108, 16, 0x3200);
    words[5] = isa::Word128{0x0200000a80008000ull, 0x0008000800001a00ull};
    set(LleField::Stage13PoolRecordNumber, 0, static_cast<uint64_t>(slots.number0));
    set(LleField::Stage13PoolRecordNumber, 1, static_cast<uint64_t>(slots.number1));
    set(LleField::Stage13PoolRecordNumber, 2, static_cast<uint64_t>(slots.number1));
    set(LleField::Stage13PoolRecordSpan, 0, static_cast<uint64_t>(slots.span0));
    set(LleField::Stage13PoolRecordSpan, 1, static_cast<uint64_t>(slots.span1));
    set(LleField::Stage13PoolSizeCode, 0, slots.code);
    set(LleField::Stage13PoolSizeCode, 1, slots.code);
    set(LleField::Stage13PoolSizeMark, 0, slots.code);
    set(LleField::Stage13PoolSignMark, 0, slots.number0 < 0 ? 1 : 0);
    set(LleField::Stage13PoolSignMark, 1, slots.number0 < 0 ? 1 : 0);
    return p;
  }

  void set(LleField field, unsigned element, uint64_t value) {
    const uint64_t mask = (uint64_t{1} << fieldDef(field).width) - 1;
    setFieldElement(packets_.lastWords(), field, element, value & mask);
  }

  EnvelopePackets packets_{0x500};
};

constexpr Slots kCodeThree{5, 4, 16 * 9 + 12, 16 * 3 + 12, 3};
constexpr Slots kCodeFourNegative{-5, -5, -16 * 7, 16 * 2, 4};

TEST_F(PoolRecordSlotsTest, SlotsThatKeepTheRelationsPassAtValuesNoCorpusReadHas) {
  for (const Slots& slots : {kCodeThree, kCodeFourNegative}) {
    const DecodedPacket p = poolRead(slots);
    ASSERT_TRUE(fieldPresent(LleField::Stage13PoolRecordNumber, p.words));
    EXPECT_EQ(readField(p.words, LleField::Stage13TwoRecordForm), 0u);
    EXPECT_EQ(readSigned(p.words, LleField::Stage13PoolRecordNumber, 0), slots.number0);
    EXPECT_EQ(readSigned(p.words, LleField::Stage13PoolRecordSpan, 0), slots.span0);
    EXPECT_EQ(poolRecordsProblem(p.words), "");
    EXPECT_EQ(checkFieldRelations(0x13, p.words), "") << checkFieldRelations(0x13, p.words);
    EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
  }
}

TEST_F(PoolRecordSlotsTest, EachBrokenRelationIsRefusedNamingItsField) {
  const auto refusal = [&](LleField field, unsigned element, uint64_t value) {
    const DecodedPacket p = poolRead(kCodeThree);
    set(field, element, value);
    return poolRecordsProblem(p.words);
  };
  const std::string code = refusal(LleField::Stage13PoolSizeCode, 1, 4);
  EXPECT_NE(code.find("Stage13PoolSizeCode[1]"), std::string::npos) << code;
  const std::string mark = refusal(LleField::Stage13PoolSizeMark, 0, 4);
  EXPECT_NE(mark.find("Stage13PoolSizeMark"), std::string::npos) << mark;
  const std::string sign = refusal(LleField::Stage13PoolSignMark, 1, 1);
  EXPECT_NE(sign.find("Stage13PoolSignMark[1]"), std::string::npos) << sign;
  const std::string number = refusal(LleField::Stage13PoolRecordNumber, 2, 3);
  EXPECT_NE(number.find("Stage13PoolRecordNumber[2]"), std::string::npos) << number;
  const std::string span = refusal(LleField::Stage13PoolRecordSpan, 1, 16 * 3 + 8);
  EXPECT_NE(span.find("Stage13PoolRecordSpan[1]"), std::string::npos) << span;
  EXPECT_NE(span.find("modulo 16"), std::string::npos) << span;
  // The relation check runs these with the records (field_relations.cc).
  const DecodedPacket p = poolRead(kCodeThree);
  set(LleField::Stage13PoolSignMark, 0, 1);
  const std::string why = checkFieldRelations(0x13, p.words);
  EXPECT_NE(why.find("Stage13PoolSignMark[0]"), std::string::npos) << why;
}

TEST_F(PoolRecordSlotsTest, APinnedBitOfTheFormIsStillRefusedByTheEnvelope) {
  DecodedPacket p = poolRead(kCodeThree);
  packets_.lastWords()[4].setBits(43, 1, 0);  // w4 bit 43: 1 in every corpus pool read, not decoded
  const std::string why = checkEnvelope(p);
  EXPECT_NE(why.find("word 4 = "), std::string::npos) << why;
  EXPECT_NE(why.find("43"), std::string::npos) << why;
  // The two-record form's numbers are not these fields.
  DecodedPacket two = poolRead(kCodeThree);
  packets_.lastWords()[4].setBits(77, 1, 1);
  EXPECT_FALSE(fieldPresent(LleField::Stage13PoolRecordNumber, two.words));
}

}  // namespace
}  // namespace coralsim::lle::lle_pool_records_test
