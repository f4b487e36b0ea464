// The kept read's records (models/lle/kept_read_records.h; lle_fields.def Stage13KeptRecordsOn, w4 bit 79;
// docs/decoding-log.md "kept13"): 73 corpus kept reads with w4 bit 59 carry 84-bit records in words 4-5, marked by
// w4 bit 79, and no other corpus 0x13 has a word 5 or w4[127:80] other than zero. The records' numbers and codes are
// not decoded: the envelope pins them to the decode set's (bright 64^2's read @ 0x03e1), which is why this test
// writes those bits as they are. Everything else is this test's own: tiles 6 and 10, stream 3,003, a nest from narrow
// unit 91 (no corpus read has that mask, tag or base). A read with the records and the mark passes; records without the
// mark, the mark without records, and records in a sent read are refused naming the mark and both words; a record bit
// other than the decode set's is refused by the envelope naming it. The three numbers that vary with the read's level 1
// ("loom13": Stage13RecordsFirstNumber, ...SecondNumber, ...SecondSpan) follow it at a level-1 count no corpus read has
// (6) and are refused naming the field where they do not.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "models/lle/field_relations.h"
#include "models/lle/kept_read_records.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_kept_read_records_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 6) | (1u << 10);
constexpr uint64_t kStream = 3003;

class KeptReadRecordsTest : public ::testing::Test {
 protected:
  // A kept read (route 0, 0) with w4 bit 59 and the w4 fields on; `mark` is w4 bit 79, `records` writes the decode
  // set's two records (w4[127:76] and w4[42:35] of the form, word 5), raw bits.
  // `levelOne` is the count of the nest's level 1 over 4 units of level 0: 2 is the decode set's (32 bytes, the numbers
  // 1, 0, 40 written below).
  DecodedPacket read(uint64_t mark, bool records, uint64_t route = 0, uint64_t levelOne = 2) {
    DecodedPacket p = packets_.make(0x13, kTiles,
                                    {{LleField::Stage13Channel, kStream}, {LleField::Stage13NarrowAt4, 91}, {LleField::Stage13LoopOn, 1},
                                     {LleField::Stage13Groups, 3}, {LleField::Stage13Step, 1}, {LleField::Stage13RepeatSlot, 1},
                                     {LleField::Stage13OuterOn, 1}, {LleField::Stage13OuterLimit, levelOne - 1}, {LleField::Stage13Wrap, 1}});
    const LleFieldDef& routeBits = fieldDef(LleField::Stage13Route);
    auto& words = packets_.lastWords();
    words[routeBits.lsb / 128].setBits(routeBits.lsb % 128, 1, route);
    words[(routeBits.lsb + routeBits.stride) / 128].setBits((routeBits.lsb + routeBits.stride) % 128, 1, route);
    words[4].setBits(59, 1, 1);  // Stage13W4Bit59
    words[4].setBits(75, 1, 1);  // Stage13W4On: w4[59:43] is not zero
    if (records) {
      words[4].setBits(76, 52, 0xa320002000682ull);  // record 0 from w4 bit 76: bit 77, w4[100:80] = 104, bit 101, w4[127:112]
      words[4].setBits(35, 9, 0x143);                // w4 bits 35, 36, 41, 43 of the form
      words[5] = isa::Word128{0x0200028880008000ull, 0x0000000000000200ull};  // record 1 (and record 2's first bits, 0)
    }
    words[4].setBits(79, 1, mark);  // after the records: bit 79 lies inside w4[127:76]
    return p;
  }

  // The numbers of the two-record form, raw bits: w4[58:43], w5[14:0], w5[56:36].
  void setNumbers(uint64_t first, uint64_t second, uint64_t span) {
    auto& words = packets_.lastWords();
    words[4].setBits(43, 16, first);
    words[5].setBits(0, 15, second);
    words[5].setBits(36, 21, span);
  }

  EnvelopePackets packets_{0x400};
};

TEST_F(KeptReadRecordsTest, AKeptReadWithTheDecodeSetsRecordsAndTheMarkPassesTheEnvelope) {
  const DecodedPacket p = read(1, true);
  EXPECT_TRUE(fieldPresent(LleField::Stage13KeptRecordsOn, p.words));
  EXPECT_EQ(readField(p.words, LleField::Stage13KeptRecordsOn), 1u);
  EXPECT_EQ(keptReadRecordsProblem(p.words), "");
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
  // The read without any records (the form of the stride sweep's kept reads) is not this mark's business.
  const DecodedPacket plain = read(0, false);
  EXPECT_EQ(keptReadRecordsProblem(plain.words), "");
}

TEST_F(KeptReadRecordsTest, RecordsWithoutTheMarkOrTheMarkWithoutRecordsAreRefusedNamingBoth) {
  // Without the mark the three numbers are no field and the envelope's row holds 0 there: the records here keep them 0.
  DecodedPacket records = read(0, true);
  setNumbers(0, 0, 0);
  // The form bit (w4 bit 77, Stage13TwoRecordForm) is a field only with the mark: set, the envelope names it first (its
  // rows hold it cleared); clear, the decode set's row takes the packet and the check names the mark.
  EXPECT_NE(checkEnvelope(records).find("bits 77 have no decoded meaning"), std::string::npos) << checkEnvelope(records);
  packets_.lastWords()[4].setBits(77, 1, 0);
  const std::string unmarked = checkEnvelope(records);
  EXPECT_NE(unmarked.find("Stage13KeptRecordsOn (word 4 bit 79) = 0 with word 4 bits 127:80 not zero and word 5 not zero"),
            std::string::npos)
      << unmarked;
  const std::string empty = checkEnvelope(read(1, false));
  EXPECT_NE(empty.find("Stage13KeptRecordsOn (word 4 bit 79) = 1 with word 4 bits 127:80 zero and word 5 zero"), std::string::npos)
      << empty;
}

TEST_F(KeptReadRecordsTest, RecordsInASentReadAreRefused) {
  const DecodedPacket sent = read(1, true, 1);
  EXPECT_FALSE(fieldPresent(LleField::Stage13KeptRecordsOn, sent.words));
  const std::string why = keptReadRecordsProblem(sent.words);
  EXPECT_NE(why.find("word 4 bit 79 (Stage13KeptRecordsOn: a field only in kept reads with w4 bit 59) = 1 with word 4 bits 127:80 not "
                     "zero and word 5 not zero"),
            std::string::npos)
      << why;
}

TEST_F(KeptReadRecordsTest, ARecordBitOtherThanTheDecodeSetsIsRefusedByTheEnvelope) {
  DecodedPacket p = read(1, true);
  packets_.lastWords()[4].setBits(80, 1, 1);  // record 0's number 105 for 104: not decoded, pinned
  const std::string number = checkEnvelope(p);
  EXPECT_NE(number.find("word 4 = "), std::string::npos) << number;
  EXPECT_NE(number.find("bits 80 have no decoded meaning"), std::string::npos) << number;
  DecodedPacket q = read(1, true);
  packets_.lastWords()[5].setBits(32, 3, 2);  // record 1's code w5[34:32] = 2 (the pool reads', not the decode set's)
  const std::string code = checkEnvelope(q);
  EXPECT_NE(code.find("word 5 = "), std::string::npos) << code;
}

TEST_F(KeptReadRecordsTest, TheRecordsNumbersFollowTheReadsLevelOneAtACountNoCorpusReadHas) {
  // Level 1 counting 4 (64 bytes): looming's ADD read's numbers 2, 1, 72; counting 6 (96 bytes): 3, 2, 104, no corpus read.
  for (const auto& [levelOne, first, second, span] : {std::tuple{4u, 2u, 1u, 72u}, std::tuple{6u, 3u, 2u, 104u}}) {
    const DecodedPacket p = read(1, true, 0, levelOne);
    setNumbers(first, second, span);
    EXPECT_EQ(readField(p.words, LleField::Stage13RecordsFirstNumber), first);
    EXPECT_EQ(readField(p.words, LleField::Stage13RecordsSecondSpan), span);
    EXPECT_EQ(keptReadRecordsProblem(p.words), "") << levelOne;
    EXPECT_EQ(checkEnvelope(p), "") << levelOne << ": " << checkEnvelope(p);
  }
}

TEST_F(KeptReadRecordsTest, RecordsNumbersThatDoNotFollowTheReadsLevelOneAreRefusedNamingTheField) {
  const DecodedPacket first = read(1, true, 0, 6);
  setNumbers(2, 1, 104);  // the first number of a level 1 counting 4
  EXPECT_NE(checkEnvelope(first).find("Stage13RecordsFirstNumber (word 4 bits 58:43) = 2 where level 1 of the read's nest counts 6"),
            std::string::npos)
      << checkEnvelope(first);
  const DecodedPacket odd = read(1, true, 0, 3);
  setNumbers(1, 0, 56);
  EXPECT_NE(checkEnvelope(odd).find("Stage13RecordsFirstNumber"), std::string::npos) << checkEnvelope(odd);
  const DecodedPacket second = read(1, true, 0, 6);
  setNumbers(3, 3, 104);
  EXPECT_NE(checkEnvelope(second).find("Stage13RecordsSecondNumber"), std::string::npos) << checkEnvelope(second);
  const DecodedPacket span = read(1, true, 0, 6);
  setNumbers(3, 2, 72);
  EXPECT_NE(checkEnvelope(span).find("Stage13RecordsSecondSpan"), std::string::npos) << checkEnvelope(span);
  EXPECT_NE(checkEnvelope(span).find("cover 96 bytes"), std::string::npos) << checkEnvelope(span);
}

// The three-record (pool) form (Stage13TwoRecordForm, w4 bit 77, clear; docs/decoding-log.md "ninkept"): its numbers are
// no function of the read, so the two-record form's number fields are not present there; its own varying slots are fields
// held to relations since "pool13" (lle_pool_records_test.cc), its constant bits pinned to the decode set's
// (nin_cnn's pool read @ 0x0762: w4[127:76] = 0x33200020002c8, first number 3, marks w4 bits 40-41, word 5 as below),
// written here as raw bits on this test's own read (tiles 6 / 10, stream 3,003, unit 91, level 1 counting 16).
class PoolRecordsTest : public KeptReadRecordsTest {
 protected:
  DecodedPacket poolRead(uint64_t levelOne = 16) {
    DecodedPacket p = read(1, false, 0, levelOne);
    auto& words = packets_.lastWords();
    words[4].setBits(76, 52, 0x33200020002c8ull);  // record 0: form bit 77 clear, w4[100:80] = 44, bit 101, w4[127:108]
    words[4].setBits(35, 24, 0x60);                // marks w4 bits 40-41 (w4[42:35] = 0x60), first number w4[58:43] ...
    words[4].setBits(43, 16, 3);                   // ... = 3
    words[5] = isa::Word128{0x020002ca80008000ull, 0x0008000800031a00ull};  // record 1 (number 0, code 2, 44, 0x31a00) ...
    return p;
  }
};

TEST_F(PoolRecordsTest, APoolReadWithTheDecodeSetsRecordsPassesAndItsNumbersAreNoFields) {
  const DecodedPacket p = poolRead();
  ASSERT_TRUE(fieldPresent(LleField::Stage13TwoRecordForm, p.words));
  EXPECT_EQ(readField(p.words, LleField::Stage13TwoRecordForm), 0u);
  EXPECT_FALSE(fieldPresent(LleField::Stage13RecordsFirstNumber, p.words));
  EXPECT_FALSE(fieldPresent(LleField::Stage13RecordsSecondSpan, p.words));
  // Level 1 counts 16 and the first number is 3: the two-record relation (count / 2) is not this form's.
  EXPECT_EQ(keptReadRecordsProblem(p.words), "");
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
  // The two-record form keeps its relation: bright's read with the form bit passes, as above.
  const DecodedPacket two = read(1, true);
  EXPECT_EQ(readField(two.words, LleField::Stage13TwoRecordForm), 1u);
  EXPECT_TRUE(fieldPresent(LleField::Stage13RecordsFirstNumber, two.words));
}

// Since "pool13" the pool form's varying slots are fields held to their relations (pool_records.h), no longer pinned:
// MobileNet v1 0.25's numbers on nin_cnn's nest pass where the sign is written with them and are refused naming the
// relation's field where it is not.
TEST_F(PoolRecordsTest, APoolFormNumberOtherThanTheDecodeSetsIsAFieldHeldToItsRelations) {
  // MobileNet v1 0.25's first number: w4[58:43] = 0xfffd (record 0's number -2, bit 43 set) under nin_cnn's clear sign.
  DecodedPacket first = poolRead();
  packets_.lastWords()[4].setBits(43, 16, 0xfffd);
  // No longer "no decoded meaning": the relation (checked with the envelope) names the sign.
  const std::string whyFirst = checkEnvelope(first);
  EXPECT_NE(whyFirst.find("Stage13PoolSignMark[0]"), std::string::npos) << whyFirst;
  EXPECT_EQ(whyFirst.find("have no decoded meaning"), std::string::npos) << whyFirst;
  packets_.lastWords()[4].setBits(127, 1, 1);
  packets_.lastWords()[5].setBits(83, 1, 1);
  EXPECT_EQ(checkEnvelope(first), "") << checkEnvelope(first);
  EXPECT_EQ(checkFieldRelations(0x13, first.words), "") << checkFieldRelations(0x13, first.words);
  // Record 1's signed number -84 for 44 (MobileNet v1 0.25's): 12 modulo 16 like nin_cnn's, with the size code 3; -86 is not.
  DecodedPacket span = poolRead();
  packets_.lastWords()[5].setBits(36, 21, (uint64_t{1} << 21) - 84);
  EXPECT_EQ(checkEnvelope(span), "") << checkEnvelope(span);
  EXPECT_EQ(checkFieldRelations(0x13, span.words), "") << checkFieldRelations(0x13, span.words);
  packets_.lastWords()[5].setBits(36, 21, (uint64_t{1} << 21) - 86);
  const std::string whySpan = checkFieldRelations(0x13, span.words);
  EXPECT_NE(whySpan.find("Stage13PoolRecordSpan[1]"), std::string::npos) << whySpan;
}

}  // namespace
}  // namespace coralsim::lle::lle_kept_read_records_test
