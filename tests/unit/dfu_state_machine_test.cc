// DfuStateMachine against the host sequences of docs/usb-protocol.md §1.4: libedgetpu (GETSTATUS
// after every block expecting state 5, state 2 after the zero-length block, verification by UPLOAD
// until a short block), LibrEdgeTPU / edgetpuxray (exactly 129 UPLOADs, none may STALL), CO (no
// GETSTATUS after the zero-length block), and the error paths of DFU 1.1.
#include <gtest/gtest.h>

#include <vector>

#include "sim/dfu_state_machine.h"
#include "traces/sha256.h"

namespace coralsim::sim::dfu_state_machine_test {
namespace {

using Bytes = std::vector<uint8_t>;

usb::ControlSetup dfuOut(uint8_t request, uint16_t value, uint16_t length) { return {0x21, request, value, 0, length}; }
usb::ControlSetup dfuIn(uint8_t request, uint16_t value, uint16_t length) { return {0xA1, request, value, 0, length}; }

// A stand-in image of the single-EP firmware's size (10,783 bytes: 42 full blocks + 31 bytes).
Bytes syntheticImage(size_t size) {
  Bytes image(size);
  uint32_t x = 0x12345678;
  for (auto& b : image) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(x >> 24);
  }
  image[0] = 0x02;  // LJMP, as 8051 images start
  return image;
}

usb::UrbResult run(DfuStateMachine& dfu, const usb::ControlSetup& s, std::span<const uint8_t> data = {}) {
  auto r = dfu.handle(s, data);
  EXPECT_TRUE(r.has_value()) << "bRequest " << int{s.bRequest};
  return r.value_or(usb::UrbResult{usb::UrbStatus::kInvalid, {}, 0, std::nullopt});
}

Bytes getStatus(DfuStateMachine& dfu) { return run(dfu, dfuIn(dfu_request::kGetStatus, 0, 6)).data; }

// Downloads `image` block by block; calls `afterBlock` after every data block.
void download(DfuStateMachine& dfu, const Bytes& image, const std::function<void()>& afterBlock) {
  uint16_t block = 0;
  for (size_t at = 0; at < image.size(); at += 256, ++block) {
    const size_t n = std::min<size_t>(256, image.size() - at);
    const usb::UrbResult r = run(dfu, dfuOut(dfu_request::kDnload, block, static_cast<uint16_t>(n)),
                            std::span(image).subspan(at, n));
    ASSERT_EQ(r.status, usb::UrbStatus::kOk) << "block " << block;
    afterBlock();
  }
  ASSERT_EQ(run(dfu, dfuOut(dfu_request::kDnload, block, 0)).status, usb::UrbStatus::kOk);
}

TEST(DfuStateMachine, InitialStatusIsIdle) {
  DfuStateMachine dfu;
  EXPECT_EQ(getStatus(dfu), (Bytes{0, 1, 0, 0, 2, 0}));
  EXPECT_EQ(run(dfu, dfuIn(dfu_request::kGetState, 0, 1)).data, (Bytes{2}));
  EXPECT_FALSE(dfu.downloadComplete());
}

TEST(DfuStateMachine, LibedgetpuDownloadAndVerify) {
  DfuStateMachine dfu;
  const Bytes image = syntheticImage(10783);
  int blocks = 0;
  download(dfu, image, [&] {
    ++blocks;
    EXPECT_EQ(getStatus(dfu), (Bytes{0, 1, 0, 0, 5, 0})) << "after block " << blocks;
  });
  EXPECT_EQ(blocks, 43);  // 42 full + one of 31 bytes; the zero-length block carries wValue 43
  EXPECT_EQ(getStatus(dfu), (Bytes{0, 1, 0, 0, 2, 0})) << "state 2 after the zero-length block";
  ASSERT_TRUE(dfu.downloadComplete());
  EXPECT_EQ(dfu.completedImage()->size, image.size());
  EXPECT_EQ(dfu.completedImage()->sha256, traces::Sha256::hex(image));
  EXPECT_EQ(dfu.completedImage()->knownAs, "");

  // Verification: UPLOAD until a block shorter than 256; the prefix must be the image.
  Bytes readBack;
  for (uint16_t block = 0;; ++block) {
    const usb::UrbResult r = run(dfu, dfuIn(dfu_request::kUpload, block, 256));
    ASSERT_EQ(r.status, usb::UrbStatus::kOk);
    readBack.insert(readBack.end(), r.data.begin(), r.data.end());
    if (r.data.size() < 256) break;
    ASSERT_LT(block, 1000) << "upload never ends";
  }
  ASSERT_GE(readBack.size(), image.size());
  EXPECT_TRUE(std::equal(image.begin(), image.end(), readBack.begin()));
  EXPECT_EQ(readBack.size(), DfuStateMachine::kRegionBytes);  // image, then zeros, then a 0-byte block
  EXPECT_EQ(getStatus(dfu), (Bytes{0, 1, 0, 0, 2, 0}));
}

TEST(DfuStateMachine, LibrEdgeTpuIssues129UploadsAndNoneStalls) {
  DfuStateMachine dfu;
  const Bytes image = syntheticImage(12117);
  download(dfu, image, [&] { (void)getStatus(dfu); });
  (void)getStatus(dfu);
  for (uint16_t block = 0; block < 0x81; ++block) {
    const usb::UrbResult r = run(dfu, dfuIn(dfu_request::kUpload, block, 256));
    ASSERT_EQ(r.status, usb::UrbStatus::kOk) << "block " << block;
    EXPECT_EQ(r.data.size(), block < 128 ? 256u : 0u) << "block " << block;
    for (size_t i = 0; i < r.data.size(); ++i) {
      const size_t at = size_t{block} * 256 + i;
      ASSERT_EQ(r.data[i], at < image.size() ? image[at] : 0) << "byte " << at;
    }
  }
}

TEST(DfuStateMachine, CoEndsWithTheZeroLengthBlockAlone) {
  DfuStateMachine dfu;
  download(dfu, syntheticImage(1000), [&] { (void)getStatus(dfu); });
  EXPECT_TRUE(dfu.downloadComplete()) << "complete without a GETSTATUS after the zero-length block";
  EXPECT_EQ(dfu.state(), DfuState::kIdle);
}

TEST(DfuStateMachine, UploadNeverStallsEvenBeforeADownload) {
  DfuStateMachine dfu;
  for (uint16_t block : {0, 1, 127, 128, 500, 65535}) {
    const usb::UrbResult r = run(dfu, dfuIn(dfu_request::kUpload, block, 256));
    EXPECT_EQ(r.status, usb::UrbStatus::kOk);
    EXPECT_EQ(r.data.size(), block < 128 ? 256u : 0u);
  }
  // Shorter requests get what they ask for.
  EXPECT_EQ(run(dfu, dfuIn(dfu_request::kUpload, 0, 10)).data.size(), 10u);
  // Even in the error state.
  (void)dfu.handle(dfuOut(dfu_request::kDnload, 0, 0), {});
  EXPECT_EQ(dfu.state(), DfuState::kError);
  EXPECT_EQ(run(dfu, dfuIn(dfu_request::kUpload, 0, 256)).status, usb::UrbStatus::kOk);
}

TEST(DfuStateMachine, ZeroLengthBlockWithoutDataIsErrNotDone) {
  DfuStateMachine dfu;
  EXPECT_EQ(run(dfu, dfuOut(dfu_request::kDnload, 0, 0)).status, usb::UrbStatus::kStall);
  EXPECT_EQ(getStatus(dfu), (Bytes{0x09, 1, 0, 0, 10, 0}));
  EXPECT_FALSE(dfu.downloadComplete());
  // Data is refused until CLRSTATUS.
  const Bytes block(16, 1);
  EXPECT_EQ(run(dfu, dfuOut(dfu_request::kDnload, 0, 16), block).status, usb::UrbStatus::kStall);
  EXPECT_EQ(run(dfu, dfuOut(dfu_request::kClrStatus, 0, 0)).status, usb::UrbStatus::kOk);
  EXPECT_EQ(getStatus(dfu), (Bytes{0, 1, 0, 0, 2, 0}));
  EXPECT_EQ(run(dfu, dfuOut(dfu_request::kDnload, 0, 16), block).status, usb::UrbStatus::kOk);
}

TEST(DfuStateMachine, OversizedBlocksAndAddressesStall) {
  DfuStateMachine dfu;
  const Bytes big(257, 0);
  EXPECT_EQ(run(dfu, dfuOut(dfu_request::kDnload, 0, 257), big).status, usb::UrbStatus::kStall);
  EXPECT_EQ(dfu.status(), DfuStatus::kErrStalledPkt);
  ASSERT_EQ(run(dfu, dfuOut(dfu_request::kClrStatus, 0, 0)).status, usb::UrbStatus::kOk);
  const Bytes block(256, 0);
  EXPECT_EQ(run(dfu, dfuOut(dfu_request::kDnload, 128, 256), block).status, usb::UrbStatus::kStall);  // beyond 32 KiB
  EXPECT_EQ(dfu.status(), DfuStatus::kErrAddress);
}

TEST(DfuStateMachine, AbortAndClrStatusReturnToIdle) {
  DfuStateMachine dfu;
  const Bytes block(256, 7);
  ASSERT_EQ(run(dfu, dfuOut(dfu_request::kDnload, 0, 256), block).status, usb::UrbStatus::kOk);
  EXPECT_EQ(dfu.state(), DfuState::kDnloadIdle);
  EXPECT_EQ(run(dfu, dfuOut(dfu_request::kAbort, 0, 0)).status, usb::UrbStatus::kOk);
  EXPECT_EQ(dfu.state(), DfuState::kIdle);
  EXPECT_EQ(dfu.image().size(), 0u) << "an aborted download is dropped";
  EXPECT_EQ(run(dfu, dfuOut(dfu_request::kDnload, 0, 0)).status, usb::UrbStatus::kStall) << "nothing to complete";
}

TEST(DfuStateMachine, DetachInDfuModeIsAnAck) {
  DfuStateMachine dfu;
  EXPECT_EQ(run(dfu, dfuOut(dfu_request::kDetach, 100, 0)).status, usb::UrbStatus::kOk);
  EXPECT_EQ(dfu.state(), DfuState::kIdle);
}

TEST(DfuStateMachine, ForeignRequestsAreNotHandledAndBadOnesStall) {
  DfuStateMachine dfu;
  EXPECT_FALSE(dfu.handle({0x80, 6, 0x0100, 0, 18}, {}));  // standard GET_DESCRIPTOR
  EXPECT_FALSE(dfu.handle({0xC0, 1, 0, 0, 4}, {}));        // vendor CSR read
  EXPECT_FALSE(dfu.handle({0xA1, dfu_request::kGetStatus, 0, 1, 6}, {}));  // interface 1
  EXPECT_FALSE(dfu.handle({0xA2, dfu_request::kGetStatus, 0, 0, 6}, {}));  // endpoint recipient
  EXPECT_EQ(run(dfu, dfuIn(7, 0, 1)).status, usb::UrbStatus::kStall);         // no bRequest 7
  ASSERT_EQ(run(dfu, dfuOut(dfu_request::kClrStatus, 0, 0)).status, usb::UrbStatus::kOk);
  EXPECT_EQ(run(dfu, dfuOut(dfu_request::kGetStatus, 0, 0)).status, usb::UrbStatus::kStall);  // wrong direction
}

TEST(DfuStateMachine, RequestTableNamesEveryRequestOnce) {
  EXPECT_EQ(std::size(kDfuRequests), 7u);
  for (uint8_t r = 0; r < 7; ++r) {
    EXPECT_FALSE(DfuStateMachine::requestName(r).empty()) << int{r};
    EXPECT_EQ(kDfuRequests[r].bRequest, r);
    // Requests that return data are device-to-host (DFU 1.1 §3).
    const bool returnsData = r == dfu_request::kUpload || r == dfu_request::kGetStatus || r == dfu_request::kGetState;
    EXPECT_EQ(kDfuRequests[r].bmRequestType, returnsData ? 0xA1 : 0x21) << kDfuRequests[r].name;
  }
  EXPECT_EQ(DfuStateMachine::requestName(7), "");
}

TEST(DfuStateMachine, ResetForgetsEverything) {
  DfuStateMachine dfu;
  download(dfu, syntheticImage(300), [] {});
  ASSERT_TRUE(dfu.downloadComplete());
  dfu.reset();
  EXPECT_FALSE(dfu.downloadComplete());
  EXPECT_EQ(dfu.image().size(), 0u);
  EXPECT_EQ(dfu.state(), DfuState::kIdle);
}

}  // namespace
}  // namespace coralsim::sim::dfu_state_machine_test
