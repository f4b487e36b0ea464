// The parameter 0x25s as segments of the run's parameter stream (models/lle/parameter_infeed_segments.h;
// docs/decoding-log.md "trk128"): made-up segments in the corpus's forms, and each field off by one place.
#include "models/lle/parameter_infeed_segments.h"

#include <gtest/gtest.h>

#include <vector>

namespace coralsim::lle::lle_parameter_infeed_segments_test {
namespace {

// The 0x25 of a segment at `start` of `length` bytes with the first-fill term `term` (InfeedFirstBeats = start / 64 - term).
ParameterInfeed segment(uint64_t start, uint64_t length, uint64_t term) {
  return ParameterInfeed{0, start % (128 * 1024), (length - 1) >> 16, (start / 64 - term) & 0xffff};
}

std::string whyOf(const std::vector<ParameterInfeed>& infeeds, uint64_t from, uint64_t delivered) {
  const auto m = checkParameterSegments(infeeds, from, delivered);
  return m ? std::to_string(m->infeed) + ": " + m->why : "accepted";
}

TEST(ParameterInfeedSegments, AWholeStreamFromByteZeroStatesItsFirstFillLessOne) {
  // A caching program's one 0x25: 3 beats (-2), and 131,264 bytes (2 wraps, the ring's 2,048 beats: -2,047).
  EXPECT_EQ(whyOf({segment(0, 192, 2)}, 0, 192), "accepted");
  EXPECT_EQ(whyOf({segment(0, 131264, 2047)}, 0, 131264), "accepted");
  EXPECT_EQ(whyOf({segment(0, 131264, 0)}, 0, 131264), "accepted");  // the oldest compiles: unstated
  // The first fill of a 192-byte stream is 3 beats, not 2.
  const std::string off = whyOf({segment(0, 192, 1)}, 0, 192);
  EXPECT_NE(off.find("InfeedFirstBeats = -1 is not the start beat 0"), std::string::npos) << off;
  // A first fill is the whole stream's: at byte 64 the form is not the stream's first fill.
  EXPECT_NE(whyOf({segment(64, 128, 1)}, 64, 192), "accepted");
}

TEST(ParameterInfeedSegments, SeveralInfeedsBeforeOneFenceLieOneAfterAnother) {
  // Ensemble's fence @ 0x0e79: four segments from byte 6,144 (6,144 ... 3,264, 192, 192, 192 bytes), term 2,044.
  const std::vector<ParameterInfeed> four = {segment(6144, 3264, 2044), segment(9408, 192, 2044), segment(9600, 192, 2044),
                                             segment(9792, 192, 2044)};
  EXPECT_EQ(whyOf(four, 6144, 9984), "accepted");
  // Delivered bytes that end elsewhere make the last segment another length: 192 + 65,536 bytes cross a 64 KiB boundary.
  const std::string longer = whyOf(four, 6144, 9984 + 65536);
  EXPECT_NE(longer.find("3: InfeedWraps64K = 0 is not (L - 1) >> 16 = 1"), std::string::npos) << longer;
  // The second's ring offset past the delivered bytes: no place for it after the first.
  std::vector<ParameterInfeed> moved = four;
  moved[1].ringOffset = 20032;
  const std::string none = whyOf(moved, 6144, 9984);
  EXPECT_NE(none.find("1: no place after the previous 0x25's segment"), std::string::npos) << none;
}

TEST(ParameterInfeedSegments, ASegmentBeyondTheRingStatesItsOffsetModulo128KiBAndItsRunningBeat) {
  // MobileNet v2 co-compiled: the segment at 131,264 lies at ring offset 192, InfeedFirstBeats 2,051 (term 0); an offset
  // that is the stream position itself (131,264, past the 128 KiB ring) is refused.
  EXPECT_EQ(whyOf({segment(131264, 24832, 0)}, 131264, 156096), "accepted");
  ParameterInfeed unwrapped = segment(131264, 24832, 0);
  unwrapped.ringOffset = 131264;
  const std::string why = whyOf({unwrapped}, 131264, 156096);
  EXPECT_NE(why.find("InfeedOffset64 x 64 = 131264 is not the start"), std::string::npos) << why;
  // No bytes delivered since the last fence: nothing for the 0x25 to describe.
  EXPECT_NE(whyOf({segment(0, 64, 0)}, 0, 0).find("no parameter bytes were delivered"), std::string::npos);
}

TEST(ParameterInfeedSegments, TheFirstFillTermHasThreeForms) {
  EXPECT_EQ(parameterFirstFillTerm(0, 6144, (0 - 2044) & 0xffff), 2044u);        // execution-only, newer compiles
  EXPECT_EQ(parameterFirstFillTerm(262144, 262144, 2052), 2044u);                // the trackers' second segment
  EXPECT_EQ(parameterFirstFillTerm(13312, 13312, 208), 0u);                       // model_dense: unstated
  EXPECT_EQ(parameterFirstFillTerm(0, 9472, (0 - 147) & 0xffff), 147u);          // a 148-beat caching stream
  EXPECT_FALSE(parameterFirstFillTerm(0, 9472, (0 - 146) & 0xffff).has_value());  // one beat short
  EXPECT_FALSE(parameterFirstFillTerm(64, 9472, (1 - 147) & 0xffff).has_value());  // a first fill not from byte 0
}

}  // namespace
}  // namespace coralsim::lle::lle_parameter_infeed_segments_test
