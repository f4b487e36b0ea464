// The kept read's records (models/lle/kept_read_records.h; lle_fields.def Stage13KeptRecordsOn, w4 bit 79;
// docs/decoding-log.md "kept13"): 73 corpus kept reads with w4 bit 59 carry 84-bit records in words 4-5, marked by
// w4 bit 79, and no other corpus 0x13 has a word 5 or w4[127:80] other than zero. The records' numbers and codes are
// not decoded: the envelope pins them to the decode set's (bright 64^2's read @ 0x03e1), which is why this test
// writes those bits as they are. Everything else is this test's own: tiles 6 and 10, stream 3,003, a nest of 3 units
// from narrow unit 91 (no corpus read has that mask, tag, base or length). A read with the records and the mark
// passes; records without the mark, the mark without records, and records in a sent read are refused naming the mark
// and both words; a record bit other than the decode set's is refused by the envelope naming it.
#include <gtest/gtest.h>

#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/kept_read_records.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 6) | (1u << 10);
constexpr uint64_t kStream = 3003;

class KeptReadRecordsTest : public ::testing::Test {
 protected:
  // A kept read (route 0, 0) with w4 bit 59 and the w4 fields on; `mark` is w4 bit 79, `records` writes the decode
  // set's two records (w4[127:76] and w4[42:35] of the form, word 5), raw bits.
  DecodedPacket read(uint64_t mark, bool records, uint64_t route = 0) {
    DecodedPacket p = packets_.make(0x13, kTiles,
                                    {{LleField::Stage13Channel, kStream}, {LleField::Stage13NarrowAt4, 91}, {LleField::Stage13LoopOn, 1},
                                     {LleField::Stage13Groups, 2}, {LleField::Stage13Step, 1}, {LleField::Stage13RepeatSlot, 1}});
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
  const std::string unmarked = checkEnvelope(read(0, true));
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
  packets_.lastWords()[5].setBits(41, 2, 2);  // record 1's w5[42:41] = 2 (deeplab's, not the decode set's)
  const std::string code = checkEnvelope(q);
  EXPECT_NE(code.find("word 5 = "), std::string::npos) << code;
}

}  // namespace
}  // namespace coralsim::lle
