// The level marks of a staging write (models/lle/stage14_level_marks.h, docs/decoding-log.md "dense"): the
// envelope leaves w3[100:98] and w6[104:102] to their fields, and the check holds the corpus shape -- a
// thermometer code w3[100:97], w6[104:102] 4 exactly beside a full one, 1..3 elsewhere -- in the source-side
// form; in the kept-stream form bit 98 is Stage14KeptWriteW3Bit98 and bits 100:99 Stage14KeptWriteW3High.
#include <gtest/gtest.h>

#include "models/lle/stage14_level_marks.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_stage14_level_marks_test {
namespace {

models::DecodedPacket writeWithMarks(EnvelopePackets& packets, uint64_t thermometer, uint64_t code) {
  models::DecodedPacket write = packets.make(0x14, 0x60);
  packets.lastWords()[3].setBits(97, 4, thermometer);
  packets.lastWords()[6].setBits(fieldDef(LleField::Stage14WordSixCode).lsb % 128, 3, code);
  return write;
}

TEST(LleStage14LevelMarks, EveryCorpusPairingPassesTheEnvelopeAndTheCheckAndOthersAreNamed) {
  EnvelopePackets packets(0x300);
  for (const auto& [thermometer, code] : {std::pair<uint64_t, uint64_t>{1, 1}, {3, 1}, {3, 2}, {7, 3}, {15, 4}}) {
    const models::DecodedPacket write = writeWithMarks(packets, thermometer, code);
    EXPECT_EQ(checkEnvelope(write), "") << thermometer << " / " << code;
    EXPECT_EQ(stage14LevelMarksProblem(write.words), "") << thermometer << " / " << code;
  }
  EXPECT_NE(stage14LevelMarksProblem(writeWithMarks(packets, 15, 1).words).find("Stage14WordSixCode (word 6 bits 104:102) = 1"),
            std::string::npos);
  EXPECT_NE(stage14LevelMarksProblem(writeWithMarks(packets, 11, 1).words).find("w3[100:97] = 11 is no thermometer code"),
            std::string::npos);
  EXPECT_NE(stage14LevelMarksProblem(writeWithMarks(packets, 7, 5).words).find("= 5 with w3[100:97] = 7"), std::string::npos);
}

// The kept-stream form (word 4 and 5 zero) reads w3[100:99] as Stage14KeptWriteW3High ("twice14" §D): its corpus
// thermometers 3 and 15 (code 2 / 4) pass the envelope and the check (on main the envelope refused bits 100:99 there);
// 11 is no thermometer and is named with the form's fields.
TEST(LleStage14LevelMarks, TheKeptStreamFormReadsBits100To99AsItsHighMarks) {
  EnvelopePackets packets(0x300);
  const auto kept = [&](uint64_t thermometer, uint64_t code) {
    models::DecodedPacket write = writeWithMarks(packets, thermometer, code);
    packets.lastWords()[4] = isa::Word128{};
    packets.lastWords()[5] = isa::Word128{};
    write.words = packets.lastWords();
    return write;
  };
  for (const auto& [thermometer, code] : {std::pair<uint64_t, uint64_t>{3, 2}, {15, 4}}) {
    const models::DecodedPacket write = kept(thermometer, code);
    EXPECT_EQ(checkEnvelope(write), "") << thermometer << " / " << code;
    EXPECT_EQ(stage14LevelMarksProblem(write.words), "") << thermometer << " / " << code;
  }
  const std::string why = stage14LevelMarksProblem(kept(11, 2).words);
  EXPECT_NE(why.find("Stage14KeptWriteW3High (word 3 bits 100:99) = 2 and Stage14KeptWriteW3Bit98"), std::string::npos) << why;
  EXPECT_NE(why.find("w3[100:97] = 11 is no thermometer code"), std::string::npos) << why;
}

}  // namespace
}  // namespace coralsim::lle::lle_stage14_level_marks_test
