// The compute-feeding write's forward marks (models/lle/forward_marks.h; lle_fields.def
// Stage14StreamPrefixForward, w1[85:83]; docs/decoding-log.md "dense11"): one mark a wrap of the staged prefix's
// loop, set exactly where that wrap is +1. Writes on tiles 5 and 13 (a mask no corpus 0x14 has) with levels 1 and 3
// marked together, and level 3 alone (no corpus packet marks element 2): a mark beside its +1 wrap passes the
// envelope and the relations (on main the envelope refused w1 bits 83-85 in every form, model_dense @ 0x0159 among
// them); a mark without the +1 wrap, a +1 wrap without its mark, a +2 wrap, and a +1 wrap beside a run it should
// return by are refused naming the fields; in the partner-copy form the same bits stay pinned.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/lle/forward_marks.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_stream_prefix_forward_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 5) | (1u << 13);

class StreamPrefixForwardTest : public ::testing::Test {
 protected:
  // A compute-feeding write after no prefixed stream (run as given, no arrays, no blocks) with the marks and wraps given.
  DecodedPacket write(std::array<uint64_t, 3> marks, std::array<int64_t, 3> wraps, uint64_t run = 0, uint64_t feeds = 1) {
    DecodedPacket p = packets_.make(0x14, kTiles, {{LleField::Stage14FeedsCompute, feeds}, {LleField::Stage14StreamPrefixRun, run}});
    auto& words = packets_.lastWords();
    const LleFieldDef& mark = fieldDef(LleField::Stage14StreamPrefixForward);
    const LleFieldDef& wrap = fieldDef(LleField::Stage14StreamPrefixWrap);
    for (unsigned i = 0; i < 3; ++i) {
      const uint32_t m = mark.lsb + i * mark.stride;
      words[m / 128].setBits(m % 128, mark.width, marks[i]);
      const uint32_t w = wrap.lsb + i * wrap.stride;
      words[w / 128].setBits(w % 128, wrap.width, static_cast<uint64_t>(wraps[i]) & ((1ull << wrap.width) - 1));
    }
    p.words = words;
    return p;
  }
  static void refused(const std::string& why, const std::string& expected) {
    EXPECT_NE(why.find(expected), std::string::npos) << why;
  }

  EnvelopePackets packets_{0x500};
};

TEST_F(StreamPrefixForwardTest, AMarkBesideItsForwardWrapPassesTheEnvelopeAndTheRelations) {
  const DecodedPacket both = write({1, 0, 1}, {1, 0, 1});
  EXPECT_EQ(both.words[1].bits(83, 3), 5u);
  EXPECT_EQ(forwardMarksProblem(0x14, both.words), "");
  EXPECT_EQ(checkEnvelope(both), "") << checkEnvelope(both);
  const DecodedPacket third = write({0, 0, 1}, {0, 0, 1});
  EXPECT_EQ(checkEnvelope(third), "") << checkEnvelope(third);
  // Unmarked levels return: by 0 where the run is 0, by -run where it is not (the relation's, unchanged).
  EXPECT_EQ(checkEnvelope(write({0, 0, 0}, {0, 0, 0})), "");
  EXPECT_EQ(checkEnvelope(write({0, 0, 0}, {-6, -6, -6}, 6)), "");
}

TEST_F(StreamPrefixForwardTest, AMarkAndAWrapThatDisagreeAreRefusedNamingBoth) {
  refused(checkEnvelope(write({1, 0, 0}, {0, 0, 0})),
          "Stage14StreamPrefixForward[0] (word 1 bit 83) = 1 with Stage14StreamPrefixWrap[0] (word 0 bits 127:111) = 0 (0)");
  refused(checkEnvelope(write({0, 0, 0}, {0, 1, 0})),
          "Stage14StreamPrefixForward[1] (word 1 bit 84) = 0 with Stage14StreamPrefixWrap[1]");
  refused(forwardMarksProblem(0x14, write({0, 0, 1}, {0, 0, 2}).words),
          "Stage14StreamPrefixForward[2] (word 1 bit 85) = 1 with Stage14StreamPrefixWrap[2] (word 1 bits 65:49) = 2 (2)");
  // A run that returns by -6 at every level: a forward step there is no corpus shape; the relation names the wrap.
  refused(checkEnvelope(write({1, 0, 0}, {1, -6, -6}, 6)), "Stage14StreamPrefixWrap[0]");
}

TEST_F(StreamPrefixForwardTest, ThePartnerCopyFormKeepsTheBitsPinned) {
  const DecodedPacket copy = write({1, 0, 0}, {0, 0, 0}, 0, 0);
  EXPECT_EQ(forwardMarksProblem(0x14, copy.words), "");  // not this form's field
  refused(checkEnvelope(copy), "83");
}

}  // namespace
}  // namespace coralsim::lle::lle_stream_prefix_forward_test
