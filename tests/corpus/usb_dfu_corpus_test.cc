// The real firmware images libedgetpu embeds (corpus: google-coral+libedgetpu/driver/usb/
// apex_latest_{single,multi}_ep.bin) downloaded into the bootloader personality the way
// libedgetpu does it (docs/usb-protocol.md §1.4): every block acknowledged with state 5, state 2
// after the zero-length block, read back by UPLOAD, recognised by size and SHA-256 (checked
// against `sha256sum`, an implementation we did not write), then the switch to 18d1:9302 on the
// kernel's re-enumeration.
#include <gtest/gtest.h>

#include <iostream>

#include "sim/usb_personality.h"
#include "tests/support/corpus.h"
#include "tests/support/run_command.h"

namespace coralsim::sim::usb_dfu_corpus_test {
namespace {

using Bytes = std::vector<uint8_t>;

usb::UrbResult send(UsbPersonality& p, const usb::ControlSetup& s, std::span<const uint8_t> data = {}) {
  auto o = p.handle(s, data);
  EXPECT_TRUE(o.has_value());
  return o ? o->result : usb::UrbResult{usb::UrbStatus::kInvalid, {}, 0, std::nullopt};
}

TEST(UsbDfuCorpus, LibedgetpuFirmwareImagesDownloadVerifyAndSwitch) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  size_t images = 0;
  for (const std::string name : {"apex_latest_single_ep.bin", "apex_latest_multi_ep.bin"}) {
    const auto files = testing::corpusFiles(name);
    if (files.empty()) {
      std::cout << "note: " << name << " not in the corpus\n";
      continue;
    }
    const Bytes image = testing::readFile(files.front());
    ++images;
    for (usb::UsbSpeed speed : {usb::UsbSpeed::kSuper, usb::UsbSpeed::kHigh}) {
      UsbPersonality p(speed, usb::CoralPersonality::kBootloader);
      uint16_t block = 0;
      for (size_t at = 0; at < image.size(); at += 256, ++block) {
        const size_t n = std::min<size_t>(256, image.size() - at);
        ASSERT_EQ(send(p, {0x21, 1, block, 0, static_cast<uint16_t>(n)}, std::span(image).subspan(at, n)).status,
                  usb::UrbStatus::kOk);
        ASSERT_EQ(send(p, {0xA1, 3, 0, 0, 6}).data, (Bytes{0, 1, 0, 0, 5, 0}));
      }
      ASSERT_EQ(send(p, {0x21, 1, block, 0, 0}).status, usb::UrbStatus::kOk);
      ASSERT_EQ(send(p, {0xA1, 3, 0, 0, 6}).data, (Bytes{0, 1, 0, 0, 2, 0}));
      Bytes readBack;
      for (uint16_t b = 0;; ++b) {
        const usb::UrbResult r = send(p, {0xA1, 2, b, 0, 256});
        ASSERT_EQ(r.status, usb::UrbStatus::kOk);
        readBack.insert(readBack.end(), r.data.begin(), r.data.end());
        if (r.data.size() < 256) break;
      }
      ASSERT_GE(readBack.size(), image.size());
      EXPECT_TRUE(std::equal(image.begin(), image.end(), readBack.begin())) << name;

      const auto& fw = p.dfu().completedImage();
      ASSERT_TRUE(fw);
      EXPECT_EQ(fw->size, image.size());
      EXPECT_EQ(fw->knownAs, name);
      if (testing::haveProgram("sha256sum")) {
        const auto out = testing::runCommand({"sha256sum", files.front().string()});
        ASSERT_TRUE(out);
        EXPECT_EQ(out->substr(0, 64), fw->sha256) << name;
      }
      const auto first = p.handle({0x80, 6, 0x0100, 0, static_cast<uint16_t>(speed == usb::UsbSpeed::kSuper ? 8 : 64)}, {});
      ASSERT_TRUE(first);
      EXPECT_TRUE(first->personalityChanged);
      EXPECT_EQ(p.personality(), usb::CoralPersonality::kRuntime);
      ASSERT_TRUE(p.loadedFirmware());
      EXPECT_EQ(p.loadedFirmware()->knownAs, name);
    }
  }
  std::cout << "downloaded " << images << " libedgetpu firmware images at 2 speeds\n";
  EXPECT_GT(images, 0u) << "the corpus has no libedgetpu firmware image";
}

}  // namespace
}  // namespace coralsim::sim::usb_dfu_corpus_test
