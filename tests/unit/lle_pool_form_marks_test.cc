// The average pool's compute form (ComputeInputBytes 0; docs/decoding-log.md "gabp4"): its bits of unknown meaning --
// w9[58:51] = 63 (bit 52 the declared ComputeFlagW9Bit52), w12[39:32] = 9, w14 bits 52-54 / 59-60, w6 bits 122-124 (since
// "w6b122" the declared don't-care ComputeOut37Slot6Code), w7 bit 75 -- are one value over the corpus's 42 distinct pool computes, whatever the window (1 / 16 ... 1 / 1,089). They
// stay pinned: the envelope holds them at gabor 128^2 p4's values (its decode set) and nothing reads them. A pool of a
// window no corpus compute has (5 x 5: 25 taps, ComputeK4W10 24, ComputeMult 1 / 25) on tiles 6 and 12 with those marks
// passes the envelope -- gabor p4's pool @ 0x0119 was refused on main naming w9 bits 56:55 --; one more set bit beside
// them, or one of the run's bits missing, is refused naming its word and bits.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_pool_form_marks_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 6) | (1u << 12);
constexpr uint64_t kWindowTapsLimit = 24;  // 5 x 5 taps - 1: no corpus pool sums 25 positions

class PoolFormMarksTest : public ::testing::Test {
 protected:
  // A pool compute carrying the form's marks as raw bits (no field holds them).
  DecodedPacket pool(void (*extra)(std::vector<isa::Word128>&) = nullptr) {
    DecodedPacket p = packets_.make(0x01, kTiles,
                                    {{LleField::ComputeInputBytes, 0},
                                     {LleField::ComputeK4W10, kWindowTapsLimit},
                                     {LleField::ComputeW10Level0Once, 0},
                                     {LleField::ComputeMult, std::bit_cast<uint32_t>(1.0f / 25.0f)},
                                     {LleField::ComputeCodeW12, 7},
                                     {LleField::ComputeOutputBytes, 4},
                                     {LleField::ComputeOut37Flags6, 3},
                                     {LleField::ComputeFlagW9Bit52, 1}});
    auto& words = packets_.lastWords();
    words[9].setBits(51, 1, 1);   // w9[58:51] = 63: bit 51 and bits 53-56 beside the declared bit 52
    words[9].setBits(53, 4, 0xf);
    words[12].setBits(32, 8, 9);  // w12[39:32] = 9 (bits 33 / 34 are declared flags, clear here)
    words[14].setBits(52, 3, 7);  // w14 bits 52-54 and 59-60
    words[14].setBits(59, 2, 3);
    words[6].setBits(122, 3, 7);  // w6 bits 122-124
    words[7].setBits(75, 1, 1);   // w7 bit 75
    if (extra) extra(words);
    return p;
  }

  EnvelopePackets packets_{0x500};
};

TEST_F(PoolFormMarksTest, ThePoolFormsMarksPassTheEnvelopeAtAWindowNoCorpusPoolHas) {
  const DecodedPacket p = pool();
  EXPECT_EQ(p.words[9].bits(51, 8), 63u);
  EXPECT_EQ(readField(p.words, LleField::ComputeInputBytes), 0u);
  EXPECT_EQ(readField(p.words, LleField::ComputeK4W10), kWindowTapsLimit);
  EXPECT_EQ(checkEnvelope(p), "") << checkEnvelope(p);
}

TEST_F(PoolFormMarksTest, AMarkNoCorpusPoolCarriesIsRefusedNamingItsWordAndBits) {
  const std::string w9 = checkEnvelope(pool([](std::vector<isa::Word128>& w) { w[9].setBits(57, 1, 1); }));
  EXPECT_NE(w9.find("word 9"), std::string::npos) << w9;
  EXPECT_NE(w9.find("bits 57 have no decoded meaning"), std::string::npos) << w9;
  const std::string w12 = checkEnvelope(pool([](std::vector<isa::Word128>& w) { w[12].setBits(36, 1, 1); }));
  EXPECT_NE(w12.find("word 12"), std::string::npos) << w12;
  EXPECT_NE(w12.find("bits 36 have no decoded meaning"), std::string::npos) << w12;
  const std::string w14 = checkEnvelope(pool([](std::vector<isa::Word128>& w) { w[14].setBits(57, 1, 1); }));
  EXPECT_NE(w14.find("word 14"), std::string::npos) << w14;
  EXPECT_NE(w14.find("bits 57 have no decoded meaning"), std::string::npos) << w14;
}

TEST_F(PoolFormMarksTest, TheRunIsPinnedWholeNotBitByBit) {
  // w9[58:51] = 0b10111011: bit 55 of the run missing, every other bit as the form carries it.
  const std::string gap = checkEnvelope(pool([](std::vector<isa::Word128>& w) { w[9].setBits(55, 1, 0); }));
  EXPECT_NE(gap.find("word 9"), std::string::npos) << gap;
  EXPECT_NE(gap.find("have no decoded meaning"), std::string::npos) << gap;
}

}  // namespace
}  // namespace coralsim::lle::lle_pool_form_marks_test
