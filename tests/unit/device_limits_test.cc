// Host-controlled sizes must not turn into allocations: a bulk-OUT record header or a program's
// output descriptor may announce up to 4 GiB, but memory grows only with the bytes that really
// arrive. Checked with glibc's count of mmap'd blocks (large allocations); under ASan malloc is
// the sanitizer's and that count means nothing, so there only the behaviour is checked.
#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>

#include "sim/usb_function.h"
#include "tests/unit/device_harness.h"

namespace coralsim::testing::device_limits_test {
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


// The bounds of sim/usb_function.h, each hit from the host side.
TEST(DeviceLimits, InUrbLongerThanTheBoundIsInvalidAtOnce) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  for (uint8_t endpoint : {0x81, 0x82, 0x83}) {
    auto r = h.in(endpoint, sim::UsbFunction::kMaxInUrbBytes + 1, 5s);
    ASSERT_TRUE(r) << "EP " << std::hex << int{endpoint} << " kept an over-long IN URB pending";
    EXPECT_EQ(r->status, usb::UrbStatus::kInvalid);
    EXPECT_TRUE(r->data.empty());
  }
  // At the bound the URB is an ordinary pending one.
  PendingUrb atBound = h.submitIn(0x81, sim::UsbFunction::kMaxInUrbBytes);
  EXPECT_FALSE(atBound.wait->waitFor(100ms));
  EXPECT_TRUE(h.device.cancel(atBound.id));
}

TEST(DeviceLimits, PendingUrbsPerEndpointAreBounded) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  std::vector<PendingUrb> pending;
  for (size_t i = 0; i < sim::UsbFunction::kMaxPendingUrbsPerEndpoint; ++i) pending.push_back(h.submitIn(0x83, 4));
  // One more on the same endpoint is refused; another endpoint is unaffected.
  auto over = h.in(0x83, 4, 5s);
  ASSERT_TRUE(over);
  EXPECT_EQ(over->status, usb::UrbStatus::kInvalid);
  PendingUrb otherEndpoint = h.submitIn(0x82, 16);
  EXPECT_FALSE(otherEndpoint.wait->waitFor(100ms));
  EXPECT_TRUE(h.device.cancel(otherEndpoint.id));
  for (const PendingUrb& u : pending) {
    EXPECT_FALSE(u.wait->done());
    EXPECT_TRUE(h.device.cancel(u.id));
  }
  // Bulk OUT: an input record larger than the input buffer (32 KiB) that nothing drains holds
  // the first URB, so the ones behind it queue up to the bound.
  DeviceHarness asleep;
  std::vector<PendingUrb> outs;
  const std::vector<uint8_t> header{0xFF, 0xFF, 0xFF, 0x7F, 1, 0, 0, 0};  // one long input record
  outs.push_back(asleep.submitOut(concat({header, std::vector<uint8_t>(1u << 20, 1)})));
  for (size_t i = 1; i < sim::UsbFunction::kMaxPendingUrbsPerEndpoint; ++i) outs.push_back(asleep.submitOut(std::vector<uint8_t>(64, 1)));
  PendingUrb refused = asleep.submitOut(std::vector<uint8_t>(64, 1));
  ASSERT_TRUE(refused.wait->waitFor(5s));
  EXPECT_EQ(refused.wait->result().status, usb::UrbStatus::kInvalid);
  for (const PendingUrb& u : outs) (void)asleep.device.cancel(u.id);
}

TEST(DeviceLimits, OversizedInstructionRecordIsDiscardedWithAFatalInterrupt) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.write64(csr::fatal_err_int_control, 1);
  const uint32_t announced = sim::UsbFunction::kMaxInstructionRecordBytes + 1;
  const std::vector<uint8_t> header{static_cast<uint8_t>(announced), static_cast<uint8_t>(announced >> 8),
                                    static_cast<uint8_t>(announced >> 16), static_cast<uint8_t>(announced >> 24), 0, 0, 0, 0};
  h.out(header);
  auto interrupt = h.in(0x83, 4, 5s);
  ASSERT_TRUE(interrupt) << "no fatal-error interrupt for an instruction record over the bound";
  ASSERT_EQ(interrupt->data.size(), 4u);
  EXPECT_EQ(interrupt->data[0] & 1, 1);
  // The record's bytes are consumed (the stream stays in step) without reaching the chip: send
  // them all, in 4 MiB transfers, then a normal program runs.
  const size_t chunk = size_t{4} << 20;
  for (size_t left = announced; left > 0;) {
    const size_t n = std::min(left, chunk);
    h.out(std::vector<uint8_t>(n, 0xEE));
    left -= n;
  }
  h.sendProgram("program {\n s1 = mov 0x4\n desc[3] = s1\n push\n}\n");
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->tag, 4);
}

}  // namespace
}  // namespace coralsim::testing::device_limits_test
