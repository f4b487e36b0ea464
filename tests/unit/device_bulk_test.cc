// The bulk side of the emulated device (docs/usb-protocol.md §3-§4): the EP 0x01 record parser
// under every split, backpressure, cancel, EP 0x81 chunking, EP 0x82 filtering, EP 0x83, resets.
#include <gtest/gtest.h>

#include <future>
#include <random>

#include "tests/support/simulation_thread_hold.h"

#include "tests/unit/device_harness.h"

namespace coralsim::testing::device_bulk_test {
namespace {

// Asks for `n` input bytes (tag-1 descriptor), fences on them (0x24), then signals done (tag 4).
std::string inputProgram(uint32_t n) {
  return "program {\n"
         "  s1 = mov " + std::to_string(n) + "\n"
         "  s2 = mov 0x1\n"
         "  desc[2] = s1\n"
         "  desc[3] = s2\n"
         "  push\n"
         "  sc.sync mask=0xffff\n"
         "  s3 = mov 0x4\n"
         "  desc[2] = s0\n"
         "  desc[3] = s3\n"
         "  push\n"
         "}\n";
}

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + 7 * i);
  return v;
}

// Sends `stream` cut at `cuts` (byte offsets), all transfers in flight at once, and waits for all.
void sendInPieces(DeviceHarness& h, const std::vector<uint8_t>& stream, std::vector<size_t> cuts) {
  cuts.push_back(stream.size());
  std::vector<PendingUrb> urbs;
  size_t from = 0;
  for (size_t to : cuts) {
    urbs.push_back(h.submitOut(std::vector<uint8_t>(stream.begin() + static_cast<ptrdiff_t>(from),
                                                    stream.begin() + static_cast<ptrdiff_t>(to))));
    from = to;
  }
  from = 0;
  for (size_t i = 0; i < urbs.size(); ++i) {
    ASSERT_TRUE(urbs[i].wait->waitFor(10s)) << "transfer " << i;
    EXPECT_EQ(urbs[i].wait->result().status, usb::UrbStatus::kOk);
    EXPECT_EQ(urbs[i].wait->result().actualLength, cuts[i] - from);
    from = cuts[i];
  }
}

void expectDone(DeviceHarness& h) {
  auto e = h.event();
  ASSERT_TRUE(e) << "no completion event; fault: " << h.device.lastFault();
  EXPECT_EQ(e->tag, 4);
  EXPECT_EQ(h.device.lastFault(), "");
}

TEST(DeviceBulk, HeaderSplitIntoSingleBytes) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  const std::vector<uint8_t> program = record(0, assembleBytes(inputProgram(40)));
  const std::vector<uint8_t> input = record(1, pattern(40, 3));
  const std::vector<uint8_t> stream = concat({program, input});
  std::vector<size_t> cuts;
  for (size_t i = 1; i <= 8; ++i) cuts.push_back(i);  // program header, one byte per transfer
  cuts.push_back(8 + 100);                             // payload in uneven pieces
  cuts.push_back(program.size() - 1);
  cuts.push_back(program.size());
  for (size_t i = 1; i <= 8; ++i) cuts.push_back(program.size() + i);  // input header
  cuts.push_back(program.size() + 8 + 13);
  sendInPieces(h, stream, cuts);
  expectDone(h);
}

TEST(DeviceBulk, HeaderCoalescedWithPayload) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  const std::vector<uint8_t> program = record(0, assembleBytes(inputProgram(64)));
  const std::vector<uint8_t> input = record(1, pattern(64, 9));
  // libredgetpu style: header + payload in one transfer; the second one starts mid-record.
  const std::vector<uint8_t> stream = concat({program, input});
  sendInPieces(h, stream, {program.size() + 8 + 20});
  expectDone(h);
}

TEST(DeviceBulk, SeveralRecordsInOneTransferAndDiscardedTags) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  const std::vector<uint8_t> stream =
      concat({record(7, pattern(13, 1)), record(0, assembleBytes(inputProgram(33))), record(3, pattern(5, 2)),
              record(0x14, pattern(3, 5)),  // tag byte 0x14: libedgetpu masks to tag 4 → discarded
              record(1, pattern(33, 4)), record(2, {})});
  h.out(stream);
  expectDone(h);
}

TEST(DeviceBulk, RandomSplitsOfTheSameStream) {
  std::mt19937 random(20240521);
  for (int round = 0; round < 4; ++round) {
    DeviceHarness h;
    h.openLikeLibedgetpu();
    const std::vector<uint8_t> stream =
        concat({record(0, assembleBytes(inputProgram(200))), record(1, pattern(200, static_cast<uint8_t>(round)))});
    std::vector<size_t> cuts;
    for (size_t at = 0;;) {
      at += 1 + random() % 37;
      if (at >= stream.size()) break;
      cuts.push_back(at);
    }
    sendInPieces(h, stream, cuts);
    expectDone(h);
  }
}

TEST(DeviceBulk, FullInfeedHoldsTheTransferPendingUntilDrained) {
  sim::DeviceOptions o;
  o.chip.inputBufferBytes = 256;
  DeviceHarness h(o);
  h.openLikeLibedgetpu(/*moveToRun=*/false);
  h.out(record(0, assembleBytes(inputProgram(1024))));  // buffered while the core is idle
  PendingUrb input = h.submitOut(record(1, pattern(1024, 11)));
  // The device takes what fits: the input credit (ep_status_credit bits 21..41) drops to 0.
  int polls = 0;
  while (field(h.read64(csr::ep_status_credit), 21, 21) != 0 && polls < 2000) {
    std::this_thread::sleep_for(1ms);
    ++polls;
  }
  ASSERT_EQ(field(h.read64(csr::ep_status_credit), 21, 21), 0u);
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(input.wait->done()) << "a full infeed must hold the OUT transfer pending";
  h.write64(csr::scalarCoreRunControl, 1);  // the program drains it
  ASSERT_TRUE(input.wait->waitFor(10s));
  EXPECT_EQ(input.wait->result().status, usb::UrbStatus::kOk);
  EXPECT_EQ(input.wait->result().actualLength, 1024u + 8);
  expectDone(h);
}

// The chunk the core needs next is always taken whole; later chunks only up to
// ChipConfig::instructionBufferBytes (docs/usb-protocol.md §3.2: ~28 KiB on hardware).
TEST(DeviceBulk, InstructionQueueBoundsChunksAheadOfTheCore) {
  sim::DeviceOptions o;
  o.chip.instructionBufferBytes = 64;
  DeviceHarness h(o);
  h.openLikeLibedgetpu(/*moveToRun=*/false);
  const std::vector<uint8_t> first = record(0, assembleBytes("program {\n s1 = mov 0x4\n desc[3] = s1\n push\n}\n"));
  const std::vector<uint8_t> second =
      record(0, assembleBytes("program {\n s1 = mov 0x5\n desc[3] = s1\n push\n s2 = mov 0x1\n s3 = mov 0x2\n}\n"));
  ASSERT_GT(second.size(), 8u + 64u);
  h.out(first);  // needed next: accepted whole although larger than the buffer
  PendingUrb ahead = h.submitOut(second);
  int polls = 0;
  while (field(h.read64(csr::ep_status_credit), 0, 21) != 0 && polls < 2000) {
    std::this_thread::sleep_for(1ms);
    ++polls;
  }
  EXPECT_EQ(field(h.read64(csr::ep_status_credit), 0, 21), 0u) << "64 bytes ahead fill the buffer";
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(ahead.wait->done());
  h.write64(csr::scalarCoreRunControl, 1);  // the core takes chunk 1, chunk 2 becomes the next one
  ASSERT_TRUE(ahead.wait->waitFor(10s));
  EXPECT_EQ(ahead.wait->result().actualLength, second.size());
  auto e1 = h.event();
  auto e2 = h.event();
  ASSERT_TRUE(e1 && e2) << h.device.lastFault();
  EXPECT_EQ(e1->tag, 4);
  EXPECT_EQ(e2->tag, 5);
}

TEST(DeviceBulk, CancelSemantics) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  // Pending: cancel succeeds and the callback never runs.
  PendingUrb idle = h.submitIn(0x82, 16);
  EXPECT_TRUE(h.device.cancel(idle.id));
  h.sendProgram("program {\n s1 = mov 0x4\n desc[3] = s1\n push\n}\n");
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(idle.wait->completions(), 0);
  // Completed: cancel reports false; the event went to the next URB.
  PendingUrb next = h.submitIn(0x82, 16);
  ASSERT_TRUE(next.wait->waitFor(10s));
  EXPECT_EQ(decodeEvent(next.wait->result().data).tag, 4);
  EXPECT_FALSE(h.device.cancel(next.id));
  EXPECT_FALSE(h.device.cancel(987654321));
  EXPECT_EQ(next.wait->completions(), 1);
}

TEST(DeviceBulk, CancelIsAnsweredWhileALongComputationHoldsTheSimulationThread) {
  // A datapath computation runs on the simulation thread for as long as it takes (seconds for a
  // large CPU twin under a sanitizer); a USB/IP client's unlink must not wait for it, as a real
  // host controller's does not (design notes, debt 25).
  DeviceHarness h;
  h.openLikeLibedgetpu();
  PendingUrb idle = h.submitIn(0x82, 16);
  (void)h.device.cycles();  // a synchronous call: the submission above has reached the USB function
  coralsim::testing::SimulationThreadHold hold;
  auto cancel = std::async(std::launch::async, [&] { return h.device.cancel(idle.id); });
  const bool answered = cancel.wait_for(5s) == std::future_status::ready;
  hold.release();
  ASSERT_TRUE(answered) << "cancel waited for the busy simulation thread";
  EXPECT_TRUE(cancel.get());
  // The withdrawn URB takes nothing: the next event goes to the URB submitted after it.
  PendingUrb next = h.submitIn(0x82, 16);
  h.sendProgram("program {\n s1 = mov 0x4\n desc[3] = s1\n push\n}\n");
  ASSERT_TRUE(next.wait->waitFor(10s));
  EXPECT_EQ(decodeEvent(next.wait->result().data).tag, 4);
  EXPECT_EQ(idle.wait->completions(), 0);
}

TEST(DeviceBulk, CancelPendingOutTransfer) {
  sim::DeviceOptions o;
  o.chip.inputBufferBytes = 64;
  DeviceHarness h(o);
  h.openLikeLibedgetpu(false);
  PendingUrb stuck = h.submitOut(record(1, pattern(500, 1)));  // nobody asks for these bytes
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(stuck.wait->done());
  EXPECT_TRUE(h.device.cancel(stuck.id));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(stuck.wait->completions(), 0);
}

// 2100 bytes streamed from the scalar core: words 0, 1, ..., 524 (little-endian).
constexpr const char* kStreamProgram =
    "program {\n"
    "  s1 = mov 2100\n"
    "  s2 = mov 0x3\n"
    "  desc[2] = s1\n"
    "  desc[3] = s2\n"
    "  push\n"
    "  loop n=525 body=1\n"
    "  s5 = add s5, 0x1 ; stream s5\n"
    "  s3 = mov 0x4\n"
    "  desc[2] = s0\n"
    "  desc[3] = s3\n"
    "  push\n"
    "}\n";

std::vector<uint8_t> expectedStream() {
  std::vector<uint8_t> v;
  for (uint32_t i = 0; i < 525; ++i) {
    for (int b = 0; b < 4; ++b) v.push_back(static_cast<uint8_t>(i >> (8 * b)));
  }
  return v;
}

// Reads EP 0x81 with URBs of `urbBytes` until 2100 bytes arrived; returns each completion's size.
std::vector<size_t> readOutputs(DeviceHarness& h, uint32_t urbBytes, std::vector<uint8_t>& all) {
  std::vector<size_t> sizes;
  while (all.size() < 2100 && sizes.size() < 100) {
    auto r = h.in(0x81, urbBytes);
    if (!r) break;
    sizes.push_back(r->data.size());
    all.insert(all.end(), r->data.begin(), r->data.end());
  }
  return sizes;
}

TEST(DeviceBulk, OutputChunkingFollowsOutfeedChunkLength) {
  struct Case {
    usb::UsbSpeed speed;
    uint64_t chunkLength;
    uint32_t urbBytes;
    std::vector<size_t> sizes;
  };
  const std::vector<Case> cases = {
      // SuperSpeed, 1 KiB chunks, libedgetpu's 1,024-byte URBs: full, full, short tail.
      {usb::UsbSpeed::kSuper, 0x80, 1024, {1024, 1024, 52}},
      // 256-byte chunks are short packets on SuperSpeed: each ends the transfer.
      {usb::UsbSpeed::kSuper, 0x20, 1024, {256, 256, 256, 256, 256, 256, 256, 256, 52}},
      // A big URB collects full chunks until the short tail.
      {usb::UsbSpeed::kSuper, 0x80, 4096, {2100}},
      // High speed: libedgetpu's 256-byte chunks and URBs.
      {usb::UsbSpeed::kHigh, 0x20, 256, {256, 256, 256, 256, 256, 256, 256, 256, 52}},
      // Never more than the URB length.
      {usb::UsbSpeed::kSuper, 0x80, 1000, {1000, 1000, 100}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("chunk " + std::to_string(c.chunkLength) + " urb " + std::to_string(c.urbBytes));
    sim::DeviceOptions o;
    o.speed = c.speed;
    DeviceHarness h(o);
    h.openLikeLibedgetpu();
    h.write64(csr::outfeed_chunk_length, c.chunkLength);
    h.sendProgram(kStreamProgram);
    std::vector<uint8_t> all;
    EXPECT_EQ(readOutputs(h, c.urbBytes, all), c.sizes);
    EXPECT_EQ(all, expectedStream());
    expectDone(h);
    EXPECT_TRUE(h.device.outputsComputed()) << "every byte came from stream words";
  }
}

TEST(DeviceBulk, UnfilledWindowIsProducedAsNotComputedZeros) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.sendProgram(
      "program {\n"
      "  s1 = mov 0x10\n  s2 = mov 0x3\n  desc[2] = s1\n  desc[3] = s2\n  push\n"
      "  s3 = mov 0xaabbccdd\n  stream s3\n"
      "}\n");
  auto r = h.in(0x81, 1024);
  ASSERT_TRUE(r);
  std::vector<uint8_t> expected(16, 0);
  expected[0] = 0xDD;
  expected[1] = 0xCC;
  expected[2] = 0xBB;
  expected[3] = 0xAA;
  EXPECT_EQ(r->data, expected);
  EXPECT_FALSE(h.device.outputsComputed());
  const auto runs = h.device.runLog();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(runs[0].finished);
  EXPECT_EQ(runs[0].outputBytes, 16u);
  EXPECT_EQ(runs[0].notComputedBytes, 12u);
}

constexpr const char* kAllTagsProgram =
    "program {\n"
    "  s1 = mov 0x100\n  desc[0] = s1\n  s2 = mov 0x0\n  desc[3] = s2\n  push\n"   // tag 0
    "  s1 = mov 0x101\n  desc[0] = s1\n  s2 = mov 0x1\n  desc[3] = s2\n  push\n"   // tag 1, length 0
    "  s1 = mov 0x102\n  desc[0] = s1\n  s2 = mov 0x2\n  desc[3] = s2\n  push\n"   // tag 2, length 0
    "  s1 = mov 0x103\n  desc[0] = s1\n  s2 = mov 0x3\n  desc[3] = s2\n  push\n"   // tag 3, length 0
    "  s1 = mov 0x105\n  desc[0] = s1\n  s2 = mov 0x5\n  desc[3] = s2\n  push\n"   // tag 5
    "  s1 = mov 0x104\n  desc[0] = s1\n  s2 = mov 0x4\n  desc[3] = s2\n  push\n"   // tag 4
    "}\n";

std::vector<uint8_t> eventTags(DeviceHarness& h, std::vector<uint64_t>* addresses) {
  std::vector<uint8_t> tags;
  for (;;) {
    auto e = h.event(tags.empty() ? 10000ms : 300ms);
    if (!e) break;
    tags.push_back(e->tag);
    addresses->push_back(e->address);
  }
  return tags;
}

TEST(DeviceBulk, DescrEpFiltersEventsByTag) {
  for (uint64_t descrEp : {0xF0ull, 0xFFull}) {
    SCOPED_TRACE("descr_ep " + std::to_string(descrEp));
    DeviceHarness h;
    h.openLikeLibedgetpu();
    h.write64(csr::descr_ep, descrEp);
    h.sendProgram(kAllTagsProgram);
    std::vector<uint64_t> addresses;
    const std::vector<uint8_t> tags = eventTags(h, &addresses);
    if (descrEp == 0xF0) {
      EXPECT_EQ(tags, (std::vector<uint8_t>{5, 4}));
      EXPECT_EQ(addresses, (std::vector<uint64_t>{0x105, 0x104}));
    } else {
      EXPECT_EQ(tags, (std::vector<uint8_t>{1, 2, 3, 5, 4})) << "tag 0 never leaves the device";
    }
    // Every descriptor is logged, whatever the filter.
    std::vector<uint8_t> logged;
    for (const usb::EventPacket& d : h.device.descriptorLog()) logged.push_back(d.tag);
    EXPECT_EQ(logged, (std::vector<uint8_t>{0, 1, 2, 3, 5, 4}));
  }
}

TEST(DeviceBulk, InterruptEndpointStaysSilentNormally) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  PendingUrb interrupt = h.submitIn(0x83, 4);
  h.sendProgram(kStreamProgram);
  std::vector<uint8_t> all;
  readOutputs(h, 4096, all);
  expectDone(h);
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(interrupt.wait->done());
  EXPECT_EQ(h.read64(csr::hib_error_status), 0u);
  EXPECT_TRUE(h.device.cancel(interrupt.id));
}

TEST(DeviceBulk, BusResetCompletesPendingUrbsAndFlushesButKeepsCsrs) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.write64(csr::descr_ep, 0xFF);
  h.sendProgram("program {\n s1 = mov 0x4\n desc[3] = s1\n push\n push\n}\n");
  ASSERT_TRUE(h.event());  // the second event stays queued
  PendingUrb output = h.submitIn(0x81, 1024);
  PendingUrb interrupt = h.submitIn(0x83, 4);
  h.device.busReset();
  ASSERT_TRUE(output.wait->waitFor(5s));
  EXPECT_EQ(output.wait->result().status, usb::UrbStatus::kShutdown);
  ASSERT_TRUE(interrupt.wait->waitFor(5s));
  EXPECT_EQ(interrupt.wait->result().status, usb::UrbStatus::kShutdown);
  EXPECT_FALSE(h.event(300ms)) << "queued events are flushed";
  EXPECT_EQ(h.read64(csr::descr_ep), 0xFFu);
}

TEST(DeviceBulk, GcbbCreditPulseFlushesTheBridge) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.sendProgram("program {\n s1 = mov 0x4\n desc[3] = s1\n push\n push\n}\n");
  ASSERT_TRUE(h.event());
  h.write32(csr::gcbb_credit0, 0xF);
  h.write32(csr::gcbb_credit0, 0);
  EXPECT_FALSE(h.event(300ms));
}

// A flush in the middle of a tag-0 record abandons it; the next record is a program of its own.
TEST(DeviceBulk, FlushMidRecordAbandonsIt) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  const std::vector<uint8_t> program = record(0, assembleBytes("program {\n s1 = mov 0x4\n desc[3] = s1\n push\n}\n"));
  h.out(std::vector<uint8_t>(program.begin(), program.begin() + 40));  // header + 32 payload bytes
  h.write32(csr::gcbb_credit0, 0xF);
  h.write32(csr::gcbb_credit0, 0);
  h.out(program);
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->tag, 4);
  EXPECT_EQ(h.device.lastFault(), "");
}

}  // namespace
}  // namespace coralsim::testing::device_bulk_test
