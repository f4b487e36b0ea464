// The marks a kept-stream write shares with its kept read (models/lle/kept_write_marks.h; docs/decoding-log.md
// "twice14" §D): the write's thermometer w3[100:97] 15 beside the read's Stage13Flags 8, 3 beside 4. Packets on tiles
// 9 and 10 (a mask no corpus pair has): both corpus pairs pass; 15 beside 4, 3 beside 8, 3 beside 2 (a flag value the
// corpus reads carry elsewhere) and 7 beside 8 are refused naming both fields. Through the partner watch: a write
// copying a read kept with flags 8 passes with 15 and is refused with 3.
#include <gtest/gtest.h>

#include <string>

#include "models/lle/kept_stream_write.h"
#include "models/lle/kept_write_marks.h"
#include "models/lle/lle_fields.h"
#include "models/lle/partner_copy.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_kept_write_marks_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 9) | (1u << 10);
constexpr uint64_t kStream = 1234;

class KeptWriteMarksTest : public ::testing::Test {
 protected:
  // A read kept in its tiles (route 0, 0) under kStream with Stage13Flags `flags`.
  DecodedPacket read(uint64_t flags) {
    return packets_.make(0x13, kTiles, {{LleField::Stage13Route, 0}, {LleField::Stage13Channel, kStream}, {LleField::Stage13Flags, flags}});
  }
  // A kept-stream write (words 4 and 5 zero) with w3[100:97] = `thermometer`, its copied bits those of `kept` (its
  // stream tag among them: kept_stream_write.h).
  DecodedPacket write(uint64_t thermometer, const DecodedPacket& kept) {
    DecodedPacket p = packets_.make(0x14, kTiles);
    auto& words = packets_.lastWords();
    words[4] = isa::Word128{};
    words[5] = isa::Word128{};
    words[3].setBits(97, 4, thermometer);
    const KeptStreamCopy c = keptStreamCopy();
    for (uint32_t b = c.writeFirst; b < c.writeEnd; ++b) {
      const uint32_t r = c.readFirst + (b - c.writeFirst);
      words[b / 128].setBits(b % 128, 1, kept.words[r / 128].bits(r % 128, 1));
    }
    p.words = words;
    return p;
  }
  DecodedPacket write(uint64_t thermometer) { return write(thermometer, read(4)); }
  static void refused(const std::string& why, const std::string& expected) { EXPECT_NE(why.find(expected), std::string::npos) << why; }

  EnvelopePackets packets_{0x900};
};

TEST_F(KeptWriteMarksTest, TheCorpusPairsPassAndOthersAreRefusedNamingBoth) {
  EXPECT_EQ(keptWriteMarksProblem(write(15).words, read(8).words), "");
  EXPECT_EQ(keptWriteMarksProblem(write(3).words, read(4).words), "");
  refused(keptWriteMarksProblem(write(15).words, read(4).words),
          "its w3[100:97] = 15 (Stage14KeptWriteW3High (word 3 bits 100:99) = 3) beside its kept read's Stage13Flags (word 6 bits 35:32) = 4");
  refused(keptWriteMarksProblem(write(3).words, read(8).words), "w3[100:97] = 3 (Stage14KeptWriteW3High (word 3 bits 100:99) = 0)");
  refused(keptWriteMarksProblem(write(3).words, read(2).words), "Stage13Flags (word 6 bits 35:32) = 2");
  refused(keptWriteMarksProblem(write(7).words, read(8).words), "w3[100:97] = 7");
}

// The partner watch compares a kept-stream write with the read kept under its stream on each tile (docs/decoding-log.md
// "dma14"), now with its marks too.
TEST_F(KeptWriteMarksTest, ThePartnerWatchChecksTheMarksAgainstTheKeptRead) {
  const auto observe = [&](const DecodedPacket& r, const DecodedPacket& w) {
    PartnerCopyWatch watch;
    EXPECT_EQ(watch.observe(r, checkEnvelope(r)), "");
    return watch.observe(w, checkEnvelope(w));
  };
  const DecodedPacket kept = read(8);
  EXPECT_EQ(observe(kept, write(15, kept)), "");
  refused(observe(kept, write(3, kept)), "beside its kept read's Stage13Flags (word 6 bits 35:32) = 8");
}

}  // namespace
}  // namespace coralsim::lle::lle_kept_write_marks_test
