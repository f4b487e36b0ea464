// Host-controlled sizes must not turn into allocations: a bulk-OUT record header or a program's
// output descriptor may announce up to 4 GiB, but memory grows only with the bytes that really
// arrive. Checked with glibc's count of mmap'd blocks (large allocations); under ASan malloc is
// the sanitizer's and that count means nothing, so there only the behaviour is checked.
#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>

#include "tests/unit/device_harness.h"

namespace coralsim::testing {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kMallocIsGlibc = false;
#else
constexpr bool kMallocIsGlibc = true;
#endif

size_t mappedBytes() { return mallinfo2().hblkhd; }

constexpr size_t kAllowedGrowth = size_t{256} << 20;  // far below 4 GiB, far above this test's needs

TEST(DeviceLimits, RecordHeaderAnnouncingFourGibAllocatesOnlyWhatArrives) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  const size_t before = mappedBytes();
  for (uint8_t tag : {0, 1, 2}) {
    std::vector<uint8_t> header{0xFF, 0xFF, 0xFF, 0xFF, tag, 0, 0, 0};
    h.out(concat({header, std::vector<uint8_t>(4096, 0x11)}));
    if (kMallocIsGlibc) {
      EXPECT_LT(mappedBytes(), before + kAllowedGrowth) << "tag " << int{tag};
    }
    // The host abandons the record the way libedgetpu recovers: a bridge flush.
    h.write32(csr::gcbb_credit0, 0xF);
    h.write32(csr::gcbb_credit0, 0);
  }
  // The parser is back at a record boundary: a normal program runs.
  h.sendProgram("program {\n s1 = mov 0x4\n desc[3] = s1\n push\n}\n");
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->tag, 4);
}

TEST(DeviceLimits, OutputWindowAnnouncingFourGibAllocatesOnlyWhatIsStreamed) {
  sim::DeviceOptions o;
  o.chip.cycleLimit = 100'000;
  DeviceHarness h(o);
  h.openLikeLibedgetpu();
  const size_t before = mappedBytes();
  // A tag-3 descriptor announcing 0xFFFFFFFF output bytes, two words streamed, then done.
  h.sendProgram(
      "program {\n"
      "  s1 = mov 0xffffffff\n  s2 = mov 0x3\n  desc[2] = s1\n  desc[3] = s2\n  push\n"
      "  s3 = mov 0x11223344\n  stream s3\n  stream s3\n"
      "  s5 = mov 0x4\n  desc[2] = s0\n  desc[3] = s5\n  push\n"
      "}\n");
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->tag, 4);
  if (kMallocIsGlibc) {
    EXPECT_LT(mappedBytes(), before + kAllowedGrowth);
  }
  // The host still reads the window as announced: the streamed words, then zeros.
  auto out = h.in(0x81, 4096);
  ASSERT_TRUE(out);
  ASSERT_EQ(out->data.size(), 4096u);
  EXPECT_EQ(std::vector<uint8_t>(out->data.begin(), out->data.begin() + 8),
            (std::vector<uint8_t>{0x44, 0x33, 0x22, 0x11, 0x44, 0x33, 0x22, 0x11}));
  EXPECT_EQ(std::count(out->data.begin() + 8, out->data.end(), 0), 4096 - 8);
  EXPECT_FALSE(h.device.outputsComputed());
}

}  // namespace
}  // namespace coralsim::testing
