// The compute's second word-12 code w12[35:32] = 2N + 1 (lle_fields.def ComputeCodeW12HighMark, docs/decoding-log.md
// "trkfc" §A): bit 32 marks it written, set in exactly the 8,544 corpus computes whose w12[35:32] is not 0, so N's bits
// (33-35) without the mark are a form no corpus compute has and are refused naming the field; the mark alone (N = 0)
// and with N are the form. The packets are the envelope's compute with only word 12's bits 32-35 set here.
#include <gtest/gtest.h>

#include <string>

#include "models/lle/lle_fields.h"
#include "models/lle/word12_form.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_word12_second_code_test {
namespace {

class Word12SecondCodeTest : public ::testing::Test {
 protected:
  std::string problem(uint64_t code) {
    packets_.make(0x01, 1u << 4);
    auto& words = packets_.lastWords();
    words[12].setBits(32, 4, code);
    return word12FormProblem(words);
  }

  EnvelopePackets packets_{0x800};
};

TEST_F(Word12SecondCodeTest, ZeroAndOddCodesHaveTheForm) {
  for (const uint64_t code : {0u, 1u, 3u, 5u, 7u, 9u, 11u, 13u, 15u}) EXPECT_EQ(problem(code), "") << code;
}

TEST_F(Word12SecondCodeTest, NsBitsWithoutTheMarkAreRefusedNamingIt) {
  for (const uint64_t code : {2u, 4u, 6u, 8u, 10u, 12u, 14u}) {
    const std::string why = problem(code);
    EXPECT_NE(why.find("ComputeCodeW12HighMark (word 12 bit 32) = 0"), std::string::npos) << code << ": " << why;
    EXPECT_NE(why.find("w12[35:33] = " + std::to_string(code >> 1)), std::string::npos) << code << ": " << why;
  }
}

}  // namespace
}  // namespace coralsim::lle::lle_word12_second_code_test
