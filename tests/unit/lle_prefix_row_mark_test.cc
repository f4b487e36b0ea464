// The weight stream's prefix length in 8-byte units read as whole 256-byte rows (models/lle/prefix_row_mark.h,
// docs/decoding-log.md "w3b103" §B): 33 is one row with the newer compiler's mark, not a row and 8 bytes.
#include "models/lle/prefix_row_mark.h"

#include <gtest/gtest.h>

namespace coralsim::lle::lle_prefix_row_mark_test {
namespace {

TEST(LlePrefixRowMark, WholeRowsAreTheirArraysAndThirtyThreeIsOneMarkedRow) {
  EXPECT_EQ(prefixArraysOfBytes8(0), 0u);
  EXPECT_EQ(prefixArraysOfBytes8(32), 1u);  // the bias (older compiles: google-coral+test_data)
  EXPECT_EQ(prefixArraysOfBytes8(64), 2u);  // scale and offset (RingCanary)
  EXPECT_EQ(prefixArraysOfBytes8(96), 3u);  // scale, bias, offset (PoseNet / BodyPix 16-channel decoders)
  // The newer compiler's one-array prefix: one row, as its broadcast's beats say (49 / 49 corpus streams).
  EXPECT_EQ(prefixArraysOfBytes8(33), 1u);
}

TEST(LlePrefixRowMark, RefusesLengthsNoCorpusStreamCarries) {
  // The mark with two or three arrays, a mark of more than one unit, and a part row: not decoded.
  EXPECT_FALSE(prefixArraysOfBytes8(65).has_value());
  EXPECT_FALSE(prefixArraysOfBytes8(97).has_value());
  EXPECT_FALSE(prefixArraysOfBytes8(34).has_value());
  EXPECT_FALSE(prefixArraysOfBytes8(1).has_value());
  EXPECT_FALSE(prefixArraysOfBytes8(16).has_value());
}

}  // namespace
}  // namespace coralsim::lle::lle_prefix_row_mark_test
