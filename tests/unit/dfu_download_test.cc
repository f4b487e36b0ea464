// DFU firmware download (driver/transport/dfu_download.h) against fake Transports:
//   * FakeBootloader — a hand-written DFU device with knobs for every way a device can misbehave,
//     which logs every request so tests compare the host's wire sequence with docs/usb-protocol.md
//     §1.4 (libedgetpu's order);
//   * the project's own device-side engine (sim::UsbPersonality, bootloader personality), reset
//     the way the Linux kernel re-enumerates a device — so host and device DFU halves that
//     disagree fail here before they fail in the QEMU end-to-end test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "driver/transport/dfu_download.h"
#include "sim/usb_personality.h"

namespace coralsim::driver::dfu_download_test {
namespace {

using Bytes = std::vector<uint8_t>;

// A firmware-like image of `size` bytes (not the real firmware: tests never copy corpus files).
Bytes makeImage(size_t size) {
  Bytes b(size);
  uint32_t x = 12345;
  for (auto& v : b) {
    x = x * 1103515245u + 12345u;
    v = static_cast<uint8_t>(x >> 16);
  }
  b[0] = 0x02;  // LJMP, as the 8051 images start
  return b;
}

struct Request {
  uint8_t type;
  uint8_t request;
  uint16_t value;
  uint16_t length;
  friend bool operator==(const Request&, const Request&) = default;
};

std::ostream& operator<<(std::ostream& os, const Request& r) {
  return os << "{" << int{r.type} << "," << int{r.request} << "," << r.value << "," << r.length << "}";
}

class FakeBootloader : public Transport {
 public:
  // Knobs.
  uint16_t productId = 0x089A;
  uint16_t vendorId = 0x1A6E;
  uint16_t transferSize = 256;
  bool dfu10FunctionalDescriptor = false;  // 7-byte DFU 1.0 functional descriptor
  uint8_t stateAfterData = 5;
  uint8_t stateAfterEnd = 2;
  int busyPollsAfterData = 0;  // GETSTATUS answers dfuDNBUSY this many times first
  std::optional<size_t> failStatusAtBlock;  // GETSTATUS reports errWRITE after this block
  std::optional<size_t> stallDnloadAtBlock;
  std::optional<size_t> corruptUploadByte;
  size_t uploadRegion = 32 * 1024;  // UPLOAD returns image + zeros up to this, then a short block
  bool resetSupported = true;
  bool resetToRuntime = true;

  Bytes image;
  std::vector<Request> log;
  int resets = 0;

  [[nodiscard]] std::string name() const override { return "fake-bootloader"; }

  std::vector<uint8_t> control(const usb::ControlSetup& s, std::span<const uint8_t> out) override {
    log.push_back({s.bmRequestType, s.bRequest, s.wValue, s.wLength});
    if (s.bmRequestType == 0x80 && s.bRequest == 6) return descriptor(s);
    if (s.bmRequestType == 0x21 && s.bRequest == 1) {  // DNLOAD
      if (stallDnloadAtBlock && *stallDnloadAtBlock == s.wValue) {
        throw TransportError(name(), "DFU_DNLOAD", "STALL (the device refused the request)");
      }
      EXPECT_EQ(out.size(), s.wLength);
      if (s.wLength == 0) {
        ended_ = true;
        return {};
      }
      EXPECT_EQ(s.wValue, blocks_) << "blocks must arrive in order from 0";
      image.insert(image.end(), out.begin(), out.end());
      ++blocks_;
      busyLeft_ = busyPollsAfterData;
      return {};
    }
    if (s.bmRequestType == 0xA1 && s.bRequest == 3) {  // GETSTATUS
      EXPECT_EQ(s.wLength, 6);
      if (busyLeft_ > 0) {
        --busyLeft_;
        return {0, 2, 0, 0, 4, 0};  // OK, poll 2 ms, dfuDNBUSY
      }
      if (ended_) return {0, 1, 0, 0, stateAfterEnd, 0};
      if (failStatusAtBlock && blocks_ == *failStatusAtBlock + 1) return {0x03, 1, 0, 0, 10, 0};  // errWRITE
      return {0, 1, 0, 0, stateAfterData, 0};
    }
    if (s.bmRequestType == 0xA1 && s.bRequest == 2) {  // UPLOAD
      Bytes region = image;
      region.resize(std::max(region.size(), uploadRegion), 0);
      if (corruptUploadByte && *corruptUploadByte < region.size()) region[*corruptUploadByte] ^= 0xFF;
      const size_t at = size_t{s.wValue} * s.wLength;
      if (at >= region.size()) return {};
      return Bytes(region.begin() + static_cast<ptrdiff_t>(at),
                   region.begin() + static_cast<ptrdiff_t>(std::min(region.size(), at + s.wLength)));
    }
    ADD_FAILURE() << "unexpected request " << Request{s.bmRequestType, s.bRequest, s.wValue, s.wLength};
    throw TransportError(name(), "control", "STALL");
  }
  void bulkOut(uint8_t, std::span<const uint8_t>) override { ADD_FAILURE() << "no bulk transfers in DFU"; }
  std::vector<uint8_t> bulkIn(uint8_t, uint32_t) override {
    ADD_FAILURE() << "no bulk transfers in DFU";
    return {};
  }
  void resetDevice(std::chrono::milliseconds) override {
    if (!resetSupported) Transport::resetDevice(std::chrono::milliseconds(1));
    ++resets;
    if (resetToRuntime) {
      vendorId = 0x18D1;
      productId = 0x9302;
    }
  }

 private:
  Bytes descriptor(const usb::ControlSetup& s) {
    Bytes d;
    if ((s.wValue >> 8) == 1) {
      d = {18, 1, 0x10, 0x03, 0, 0, 0, 9, static_cast<uint8_t>(vendorId), static_cast<uint8_t>(vendorId >> 8),
           static_cast<uint8_t>(productId), static_cast<uint8_t>(productId >> 8), 0, 1, 0, 0, 0, 1};
    } else if ((s.wValue >> 8) == 2) {
      const uint8_t functionalLength = dfu10FunctionalDescriptor ? 7 : 9;
      d = {9, 2, 0, 0, 1, 1, 0, 0x80, 50,                      // configuration
           9, 4, 0, 0, 0, 0xFE, 0x01, 0x02, 0,                 // interface 0: DFU, no endpoints
           functionalLength, 0x21, 0x07, 100, 0, static_cast<uint8_t>(transferSize),
           static_cast<uint8_t>(transferSize >> 8)};
      if (!dfu10FunctionalDescriptor) {
        d.push_back(0x10);  // bcdDFUVersion 1.1
        d.push_back(0x01);
      }
      d[2] = static_cast<uint8_t>(d.size());
    }
    if (d.size() > s.wLength) d.resize(s.wLength);
    return d;
  }
  uint16_t blocks_ = 0;
  bool ended_ = false;
  int busyLeft_ = 0;
};

DfuDownloadOptions quiet() {
  DfuDownloadOptions o;
  o.reenumerationTimeout = std::chrono::milliseconds(100);
  return o;
}

std::string errorOf(FakeBootloader& dev, const Bytes& image, const DfuDownloadOptions& o = quiet()) {
  try {
    (void)downloadFirmware(dev, image, o);
  } catch (const DfuError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(DfuDownload, LibedgetpuWireSequenceForTheSingleEndpointImageSize) {
  // 10,783 bytes = 42 full blocks + one of 31 bytes; the end-of-image block is number 43 (§1.4).
  FakeBootloader dev;
  const Bytes image = makeImage(10'783);
  const DfuDownloadResult r = downloadFirmware(dev, image, quiet());
  EXPECT_EQ(dev.image, image);
  EXPECT_EQ(r.imageBytes, 10'783u);
  EXPECT_EQ(r.dataBlocks, 43u);
  EXPECT_EQ(r.transferSize, 256);
  EXPECT_TRUE(r.verified);
  EXPECT_EQ(r.uploadedBytes, 32u * 1024);
  ASSERT_TRUE(r.afterReset);
  EXPECT_EQ(r.afterReset->personality, usb::CoralPersonality::kRuntime);
  EXPECT_EQ(dev.resets, 1);

  std::vector<Request> want = {{0x80, 6, 0x0100, 18}, {0x80, 6, 0x0200, 521}};
  for (uint16_t b = 0; b < 43; ++b) {
    want.push_back({0x21, 1, b, static_cast<uint16_t>(b < 42 ? 256 : 31)});
    want.push_back({0xA1, 3, 0, 6});
  }
  want.push_back({0x21, 1, 43, 0});
  want.push_back({0xA1, 3, 0, 6});
  for (uint16_t b = 0; b <= 128; ++b) want.push_back({0xA1, 2, b, 256});  // 128 full blocks, then empty
  want.push_back({0x80, 6, 0x0100, 18});                                  // after the reset
  EXPECT_EQ(dev.log, want);
}

TEST(DfuDownload, ImageOfWholeBlocksEndsWithTheNextBlockNumber) {
  FakeBootloader dev;
  dev.uploadRegion = 0;  // UPLOAD returns exactly the image, then a short (empty) block
  const Bytes image = makeImage(512);
  const DfuDownloadResult r = downloadFirmware(dev, image, quiet());
  EXPECT_EQ(r.dataBlocks, 2u);
  EXPECT_EQ(r.uploadedBytes, 512u);
  EXPECT_NE(std::find(dev.log.begin(), dev.log.end(), Request{0x21, 1, 2, 0}), dev.log.end());
}

TEST(DfuDownload, UsesTheTransferSizeOfTheFunctionalDescriptor) {
  FakeBootloader dev;
  dev.transferSize = 64;
  dev.dfu10FunctionalDescriptor = true;
  const Bytes image = makeImage(200);
  const DfuDownloadResult r = downloadFirmware(dev, image, quiet());
  EXPECT_EQ(r.transferSize, 64);
  EXPECT_EQ(r.dataBlocks, 4u);  // 64 + 64 + 64 + 8
  EXPECT_EQ(dev.image, image);
}

TEST(DfuDownload, WaitsOutDnBusyForThePollTimeout) {
  FakeBootloader dev;
  dev.busyPollsAfterData = 2;
  const Bytes image = makeImage(300);
  (void)downloadFirmware(dev, image, quiet());
  const auto statuses = std::count(dev.log.begin(), dev.log.end(), Request{0xA1, 3, 0, 6});
  EXPECT_EQ(statuses, 2 * 3 + 1);  // two blocks, each after two busy answers; one after the end
}

TEST(DfuDownload, WithoutVerificationNoUpload) {
  FakeBootloader dev;
  DfuDownloadOptions o = quiet();
  o.verify = false;
  const DfuDownloadResult r = downloadFirmware(dev, makeImage(1000), o);
  EXPECT_FALSE(r.verified);
  EXPECT_EQ(std::count_if(dev.log.begin(), dev.log.end(), [](const Request& q) { return q.request == 2; }), 0);
}

TEST(DfuDownload, RefusesADeviceAlreadyInRuntimeMode) {
  FakeBootloader dev;
  dev.vendorId = 0x18D1;
  dev.productId = 0x9302;
  const std::string e = errorOf(dev, makeImage(100));
  EXPECT_NE(e.find("18d1:9302"), std::string::npos) << e;
  EXPECT_NE(e.find("runtime"), std::string::npos) << e;
  EXPECT_EQ(dev.log.size(), 1u) << "nothing but the identity read";
}

TEST(DfuDownload, RefusesAnEmptyImage) {
  FakeBootloader dev;
  EXPECT_NE(errorOf(dev, {}).find("empty"), std::string::npos);
  EXPECT_TRUE(dev.log.empty());
}

TEST(DfuDownload, StateFiveAfterTheZeroLengthBlockIsAnError) {
  // libedgetpu would loop forever here; we say what went wrong.
  FakeBootloader dev;
  dev.stateAfterEnd = 5;
  const std::string e = errorOf(dev, makeImage(300));
  EXPECT_NE(e.find("zero-length block 2"), std::string::npos) << e;
  EXPECT_NE(e.find("dfuDNLOAD-IDLE (5)"), std::string::npos) << e;
}

TEST(DfuDownload, ManifestWaitResetIsAcceptedWithoutVerification) {
  FakeBootloader dev;
  dev.stateAfterEnd = 8;
  const DfuDownloadResult r = downloadFirmware(dev, makeImage(300), quiet());
  EXPECT_FALSE(r.verified) << "a device waiting for reset does not answer UPLOAD";
  EXPECT_EQ(dev.resets, 1);
}

TEST(DfuDownload, ErrorStatusNamesTheBlock) {
  FakeBootloader dev;
  dev.failStatusAtBlock = 3;
  const std::string e = errorOf(dev, makeImage(2000));
  EXPECT_NE(e.find("block 3 "), std::string::npos) << e;
  EXPECT_NE(e.find("errWRITE"), std::string::npos) << e;
  EXPECT_NE(e.find("dfuERROR (10)"), std::string::npos) << e;
}

TEST(DfuDownload, StallOnDownloadNamesTheBlockAndTheTransportError) {
  FakeBootloader dev;
  dev.stallDnloadAtBlock = 1;
  const std::string e = errorOf(dev, makeImage(600));
  EXPECT_NE(e.find("block 1 (bytes 256..512), DFU_DNLOAD"), std::string::npos) << e;
  EXPECT_NE(e.find("STALL"), std::string::npos) << e;
}

TEST(DfuDownload, VerificationFindsTheFirstDifferingByte) {
  FakeBootloader dev;
  dev.corruptUploadByte = 777;
  const std::string e = errorOf(dev, makeImage(1000));
  EXPECT_NE(e.find("byte 777"), std::string::npos) << e;
  EXPECT_EQ(dev.resets, 0) << "no reset into a bad image";
}

TEST(DfuDownload, VerificationNeedsTheWholeImageBack) {
  // A device that reads back fewer bytes than it was sent: corrupt by shrinking the region view.
  class Short : public FakeBootloader {
   public:
    std::vector<uint8_t> control(const usb::ControlSetup& s, std::span<const uint8_t> out) override {
      if (s.bmRequestType == 0xA1 && s.bRequest == 2 && s.wValue >= 1) return {};
      return FakeBootloader::control(s, out);
    }
  } shortDev;
  shortDev.uploadRegion = 0;
  const std::string e = errorOf(shortDev, makeImage(600));
  EXPECT_NE(e.find("read back 256 bytes, fewer than the 600-byte image"), std::string::npos) << e;
}

TEST(DfuDownload, DeviceThatStaysInTheBootloaderAfterResetIsAnError) {
  FakeBootloader dev;
  dev.resetToRuntime = false;
  const std::string e = errorOf(dev, makeImage(300));
  EXPECT_NE(e.find("1a6e:089a, not the runtime personality"), std::string::npos) << e;
}

TEST(DfuDownload, TransportWithoutResetSaysSo) {
  FakeBootloader dev;
  dev.resetSupported = false;
  const std::string e = errorOf(dev, makeImage(300));
  EXPECT_NE(e.find("USB port reset"), std::string::npos) << e;
  EXPECT_NE(e.find("not supported"), std::string::npos) << e;
}

TEST(DfuDownload, ParseDfuInterfaceRejectsBrokenConfigurations) {
  EXPECT_THROW((void)parseDfuInterface(Bytes{}), DfuError);
  // bLength 0 inside the set would loop forever if trusted.
  try {
    (void)parseDfuInterface(Bytes{9, 2, 12, 0, 1, 1, 0, 0x80, 50, 0, 4, 0});
    ADD_FAILURE() << "accepted";
  } catch (const DfuError& e) {
    EXPECT_NE(std::string(e.what()).find("offset 9 has bLength 0"), std::string::npos) << e.what();
  }
  // A vendor interface (the runtime personality) is not a DFU interface.
  try {
    (void)parseDfuInterface(Bytes{9, 2, 18, 0, 1, 1, 0, 0x80, 50, 9, 4, 0, 0, 6, 0xFF, 0xFF, 0xFF, 0});
    ADD_FAILURE() << "accepted";
  } catch (const DfuError& e) {
    EXPECT_NE(std::string(e.what()).find("no DFU interface"), std::string::npos) << e.what();
  }
}

TEST(DfuDownload, ReadFirmwareFileNamesTheFile) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto missing = dir / "coralsim-dfu-test-missing.bin";
  std::filesystem::remove(missing);
  try {
    (void)readFirmwareFile(missing.string());
    ADD_FAILURE() << "accepted";
  } catch (const DfuError& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos);
  }
  const auto empty = dir / "coralsim-dfu-test-empty.bin";
  { std::ofstream(empty, std::ios::binary); }
  try {
    (void)readFirmwareFile(empty.string());
    ADD_FAILURE() << "accepted";
  } catch (const DfuError& e) {
    EXPECT_NE(std::string(e.what()).find("empty"), std::string::npos);
  }
  std::filesystem::remove(empty);
}

// ---- against the project's own device-side DFU engine ----

// A Transport onto sim::UsbPersonality: EP0 only. resetDevice() replays what the Linux kernel
// sends after a port reset (GET_DESCRIPTOR(DEVICE) with wLength 8 on SuperSpeed, §10.5 item 7).
class PersonalityTransport : public Transport {
 public:
  sim::UsbPersonality personality{usb::UsbSpeed::kSuper, usb::CoralPersonality::kBootloader};
  [[nodiscard]] std::string name() const override { return "personality"; }
  std::vector<uint8_t> control(const usb::ControlSetup& s, std::span<const uint8_t> out) override {
    auto o = personality.handle(s, out);
    if (!o || o->result.status != usb::UrbStatus::kOk) throw TransportError(name(), "control", "STALL");
    return s.isDeviceToHost() ? o->result.data : Bytes{};
  }
  void bulkOut(uint8_t, std::span<const uint8_t>) override {}
  std::vector<uint8_t> bulkIn(uint8_t, uint32_t) override { return {}; }
  void resetDevice(std::chrono::milliseconds) override {
    (void)control({0x80, 6, 0x0100, 0, 8}, {});
    (void)control({0x00, 9, 1, 0, 0}, {});  // SET_CONFIGURATION(1)
  }
};

TEST(DfuDownload, AgainstTheEmulatedBootloader) {
  PersonalityTransport t;
  const Bytes image = makeImage(10'783);
  const DfuDownloadResult r = downloadFirmware(t, image, quiet());
  EXPECT_TRUE(r.verified);
  ASSERT_TRUE(r.afterReset);
  EXPECT_EQ(r.afterReset->personality, usb::CoralPersonality::kRuntime);
  EXPECT_EQ(t.personality.personality(), usb::CoralPersonality::kRuntime);
  ASSERT_TRUE(t.personality.loadedFirmware());
  EXPECT_EQ(t.personality.loadedFirmware()->size, image.size());
}

}  // namespace
}  // namespace coralsim::driver::dfu_download_test
