// The real-kernel end-to-end test (tests/e2e/README.md): an unmodified Debian kernel in QEMU (TCG)
// attaches the emulated Coral that `coralsim serve --bootloader` exports on the host's loopback
// (vhci-hcd, the kernel's own USB/IP client), and the project's driver runs inside the guest
// through libusb (coralsim-usb): DFU download of libedgetpu's firmware image, the USB reset and
// the kernel's re-enumeration into the runtime personality, the open sequence, a corpus model
// with a seeded input, the close sequence.
//
// Oracles: the same model and input run in process (`coralsim run --json`) — the device is
// deterministic, so outputs (SHA-256, also hashed in the guest by busybox), every descriptor the
// device reported and the simulated cycles (from the server's summary) must be identical; the
// server's log (attach in the bootloader personality, the firmware it received — its size and
// SHA-256 must be the corpus file's — and the detach); the guest kernel's own log of the
// re-enumeration ("device firmware changed").
//
// Skips loudly without the corpus. Fails when QEMU, busybox, usbip or the kernel package cannot
// be obtained: CI installs them (scripts/install-deps.sh) and reaches the Debian archive.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "tests/e2e/qemu_guest.h"
#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"
#include "tests/support/run_command.h"
#include "traces/sha256.h"

namespace coralsim::testing::qemu_kernel_e2e_test {
namespace {

namespace fs = std::filesystem;
constexpr uint64_t kInputSeed = 0xC0A1'2024;
constexpr int kIterations = 2;  // the second one finds the parameters cached on the device

// Differences between two JSON values, ignoring object keys in `ignored` at any depth.
void diffJson(const JsonValue& want, const JsonValue& got, const std::string& path, const std::set<std::string>& ignored,
              std::vector<std::string>& diffs) {
  if (want.type != got.type) {
    diffs.push_back(path + ": type differs");
    return;
  }
  switch (want.type) {
    case JsonValue::Type::Null: return;
    case JsonValue::Type::Bool:
      if (want.boolean != got.boolean) diffs.push_back(path + ": " + (want.boolean ? "true" : "false") + " vs " + (got.boolean ? "true" : "false"));
      return;
    case JsonValue::Type::Number:
    case JsonValue::Type::String:
      if (want.text != got.text) diffs.push_back(path + ": '" + want.text + "' vs '" + got.text + "'");
      return;
    case JsonValue::Type::Array:
      if (want.items.size() != got.items.size()) {
        diffs.push_back(path + ": " + std::to_string(want.items.size()) + " vs " + std::to_string(got.items.size()) + " items");
        return;
      }
      for (size_t i = 0; i < want.items.size(); ++i) {
        diffJson(want.items[i], got.items[i], path + "[" + std::to_string(i) + "]", ignored, diffs);
      }
      return;
    case JsonValue::Type::Object: {
      std::set<std::string> keys(want.keys.begin(), want.keys.end());
      keys.insert(got.keys.begin(), got.keys.end());
      for (const auto& k : keys) {
        if (ignored.count(k)) continue;
        const JsonValue* a = want.find(k);
        const JsonValue* b = got.find(k);
        if (!a || !b) {
          diffs.push_back(path + "." + k + ": only in the " + (a ? "in-process" : "guest") + " report");
          continue;
        }
        diffJson(*a, *b, path + "." + k, ignored, diffs);
      }
      return;
    }
  }
}

// The USB/IP import's speed decides everything speed-dependent on both sides: SuperSpeed (the
// kernel's first request after a reset asks for 8 bytes, 1024-byte bulk packets, outfeed chunks
// of 0x80 × 8) or high speed (64 bytes, 512-byte packets, 0x20 × 8).
class QemuKernelE2E : public ::testing::TestWithParam<std::string> {};

TEST_P(QemuKernelE2E, DfuDownloadThenCorpusModelThroughVhciAndLibusb) {
  const std::string speed = GetParam();
  const std::string speedWords = speed == "super" ? "SuperSpeed" : "high speed";
  const auto corpus = corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const fs::path firmware = *corpus / "google-coral+libedgetpu/driver/usb/apex_latest_single_ep.bin";
  const fs::path model = *corpus / "ricardodeazambuja+LibrEdgeTPU/libredgetpu/templates/dense_256_edgetpu.tflite";
  for (const fs::path& p : {firmware, model}) {
    if (!fs::is_regular_file(p)) {
      GTEST_SKIP() << "\n*** SKIPPED: " << p << " is not in the corpus (set CORALSIM_CORPUS). ***\n";
    }
  }
  QemuGuest guest(speed);
  ASSERT_NO_FATAL_FAILURE(guest.requireHostTools());
  const fs::path coralsim = fs::path(CORALSIM_BINARY_DIR) / "coralsim";

  // ---- 1. the guest: kernel (apt-get download, cached), initramfs with coralsim-usb ----
  ASSERT_NO_FATAL_FAILURE(guest.build({}));

  // ---- 2. per-run data: model, seeded input, firmware (copied from the corpus into the build tree) ----
  const driver::RunPlan plan = driver::planRun(driver::loadModelFile(model.string()));
  std::vector<std::string> runArgs = {"model.tflite", "--firmware", "firmware.bin"};
  std::vector<std::string> inProcessInputs;
  std::mt19937_64 random(kInputSeed);
  for (size_t i = 0; i < plan.inputs.size(); ++i) {
    ASSERT_GT(plan.inputs[i].sizeBytes, 0u) << "input " << i << " has no fixed size";
    std::vector<uint8_t> bytes(plan.inputs[i].sizeBytes);
    for (auto& b : bytes) b = static_cast<uint8_t>(random());
    const std::string name = "input" + std::to_string(i) + ".bin";
    writeBytes(guest.data() / name, bytes);
    runArgs.insert(runArgs.end(), {"--input", name});
    inProcessInputs.insert(inProcessInputs.end(), {"--input", (guest.data() / name).string()});
  }
  runArgs.insert(runArgs.end(), {"--service", "events", "--iterations", std::to_string(kIterations), "--json",
                                 "--output", "out.bin", "--wait-ms", "10000", "--timeout-ms", "20000"});
  fs::copy_file(model, guest.data() / "model.tflite");
  fs::copy_file(firmware, guest.data() / "firmware.bin");
  {
    std::ofstream args(guest.data() / "run.args");
    for (const auto& a : runArgs) args << a << '\n';
  }

  // ---- 3./4. the server in the bootloader personality, the guest ----
  GuestSession session;
  ASSERT_NO_FATAL_FAILURE(guest.boot({"--speed", speed}, session));
  const std::string& guestText = session.guestLog;
  const std::string& serverText = session.serverLog;
  const auto rc = linesAfter(guestText, "E2E-RESULT rc=");
  ASSERT_EQ(rc.size(), 1u) << "the guest never ran coralsim-usb:\n" << tail(guestText, 100);
  ASSERT_EQ(rc[0], "0") << "coralsim-usb failed in the guest:\n" << tail(guestText, 100) << "\nserver:\n" << serverText;

  // ---- 5. the guest's report vs. the same run in process ----
  const auto guestJsonText = between(guestText, "E2E-JSON-BEGIN", "E2E-JSON-END");
  ASSERT_TRUE(guestJsonText) << "no JSON in the guest log:\n" << tail(guestText);
  const JsonValue guestJson = parseJson(*guestJsonText);
  std::vector<std::string> runCmd = {coralsim.string(), "run", model.string()};
  runCmd.insert(runCmd.end(), inProcessInputs.begin(), inProcessInputs.end());
  runCmd.insert(runCmd.end(), {"--service", "events", "--iterations", std::to_string(kIterations), "--json"});
  const auto localText = runCommand(runCmd);
  ASSERT_TRUE(localText) << "coralsim run failed in process";
  const JsonValue local = parseJson(*localText);

  // What only a simulator in the same process knows (cycles, datapath rung, computed flags) and
  // the model's path are left out; everything the device said over USB must be identical.
  std::vector<std::string> diffs;
  diffJson(local, guestJson, "", {"model", "mode", "cycles", "computed", "rung", "rung_note"}, diffs);
  EXPECT_TRUE(diffs.empty()) << "the guest's run differs from the in-process run:\n  "
                             << [&] {
                                  std::string s;
                                  for (const auto& d : diffs) s += d + "\n  ";
                                  return s;
                                }();
  const JsonValue* runs = local.find("runs");
  ASSERT_TRUE(runs && runs->type == JsonValue::Type::Array);
  EXPECT_EQ(runs->items.size(), 3u) << "PARAMETER_CACHING + EXECUTION_ONLY, then EXECUTION_ONLY alone";
  const JsonValue* outputs = local.find("outputs");
  ASSERT_TRUE(outputs && !outputs->items.empty());
  // busybox's sha256sum of the file coralsim-usb wrote in the guest: an independent hash.
  const auto guestHashes = linesAfter(guestText, "E2E-OUTPUT ");
  ASSERT_EQ(guestHashes.size(), 1u);
  EXPECT_EQ(guestHashes[0].substr(0, 64), outputs->items[0].find("sha256")->text);

  // ---- 6. simulated cycles: the server's per-device summary vs. in process ----
  std::vector<std::string> localCycles;
  for (const auto& r : runs->items) localCycles.push_back(r.find("cycles")->text);
  std::smatch m;
  const std::regex summary(R"(1-1: (\S+) \w+, .* (\d+) executable runs?, cycles ([0-9 ]+))");
  ASSERT_TRUE(std::regex_search(serverText, m, summary)) << "no device summary in the server log:\n" << serverText;
  EXPECT_EQ(m[1].str(), "18d1:9302") << "the device did not end in the runtime personality";
  std::istringstream serverCycles(m[3].str());
  std::vector<std::string> remoteCycles{std::istream_iterator<std::string>(serverCycles), std::istream_iterator<std::string>()};
  EXPECT_EQ(remoteCycles, localCycles) << "simulated cycles per executable run differ";

  // ---- 7. the server's log and the guest kernel's ----
  EXPECT_NE(serverText.find("attached 1-1 (1a6e:089a, " + speedWords + ")"), std::string::npos)
      << "not attached in bootloader mode at " << speedWords << ":\n" << serverText;
  EXPECT_NE(guestText.find("18d1:9302 runtime (bus " + std::string(speed == "super" ? "2" : "1") + " address"),
            std::string::npos)
      << "the guest did not see the runtime device on vhci's " << speedWords << " root hub:\n" << tail(guestText);
  EXPECT_NE(serverText.find("detached from 1-1"), std::string::npos) << serverText;
  const std::string firmwareSha = traces::Sha256::hex(readFile(firmware));
  EXPECT_NE(serverText.find("firmware " + std::to_string(fs::file_size(firmware)) + " bytes sha256 " + firmwareSha),
            std::string::npos)
      << "the server did not report the corpus firmware image:\n" << serverText;
  const auto kernelLines = linesAfter(guestText, "E2E-KERNEL ");
  bool firmwareChanged = false;
  for (const auto& l : kernelLines) firmwareChanged |= l.find("device firmware changed") != std::string::npos;
  EXPECT_TRUE(firmwareChanged) << "the guest kernel did not re-enumerate the device after the DFU reset:\n"
                               << tail(guestText, 80);
}

INSTANTIATE_TEST_SUITE_P(Speeds, QemuKernelE2E, ::testing::Values("super", "high"),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

}  // namespace
}  // namespace coralsim::testing::qemu_kernel_e2e_test
