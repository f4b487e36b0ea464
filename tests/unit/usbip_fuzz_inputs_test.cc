// Replays the committed inputs of the USB/IP codec fuzz target (tests/fuzz/inputs/fuzz_usbip_codec,
// made by tests/fuzz/generators/make_usbip_fuzz_inputs from PDUs our serializer produced) through
// the harness the fuzz target runs: each must end in messages and/or one clean CodecError, and
// every decoded message must re-encode to itself.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>

#include "tests/fuzz/usbip_fuzz_harness.h"
#include "tests/support/corpus.h"

namespace coralsim::usbip::usbip_fuzz_inputs_test {
namespace {

TEST(UsbipFuzzInputs, EveryInputEndsInMessagesOrACleanCodecError) {
  const auto dir = std::filesystem::path(CORALSIM_SOURCE_DIR) / "tests/fuzz/inputs/fuzz_usbip_codec";
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(dir)) {
    for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  EXPECT_GE(files.size(), 100u) << "the generator writes 111 inputs; is " << dir << " complete?";
  size_t accepted = 0, rejected = 0, messages = 0;
  for (const auto& f : files) {
    const auto bytes = testing::readFile(f);
    const fuzz::StreamOutcome outcome = fuzz::exerciseUsbipStream(bytes);
    EXPECT_FALSE(outcome.violation.has_value()) << f.filename() << ": " << outcome.violation.value_or("");
    messages += outcome.messages;
    if (outcome.rejected) {
      ++rejected;
      EXPECT_NE(outcome.error.find("usbip: "), std::string::npos) << outcome.error;
      EXPECT_NE(outcome.error.find("stream offset"), std::string::npos) << outcome.error;
    } else {
      ++accepted;
    }
  }
  // The valid seeds decode; most mutations are caught.
  EXPECT_GE(accepted, 6u);
  EXPECT_GT(rejected, files.size() / 3);
  std::cout << "replayed " << files.size() << " streams: " << messages << " messages decoded, " << accepted
            << " streams clean, " << rejected << " ended in a CodecError\n";
}

}  // namespace
}  // namespace coralsim::usbip::usbip_fuzz_inputs_test
