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

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "tests/e2e/child_process.h"
#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"
#include "tests/support/run_command.h"
#include "traces/sha256.h"

namespace coralsim::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr auto kGuestBuildTimeout = 300s;  // a cold build downloads the 70 MB kernel package
constexpr auto kServerStartTimeout = 15s;
constexpr auto kGuestTimeout = 150s;       // boot ~3-5 s, attach, DFU, run, detach: ~15 s typical
constexpr uint64_t kInputSeed = 0xC0A1'2024;
constexpr int kIterations = 2;  // the second one finds the parameters cached on the device

const fs::path kSourceDir = CORALSIM_SOURCE_DIR;
const fs::path kBinaryDir = CORALSIM_BINARY_DIR;

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string tail(const std::string& text, size_t lines = 60) {
  size_t pos = text.size();
  for (size_t n = 0; n <= lines && pos > 0; ++n) {
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) return text;
  }
  return text.substr(pos + 1);
}

void writeBytes(const fs::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error(p.string() + ": write failed");
}

// Lines of `text` starting with `prefix`, with the prefix removed.
std::vector<std::string> linesAfter(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
  }
  return out;
}

// The text between the marker lines, or nullopt.
std::optional<std::string> between(const std::string& text, const std::string& begin, const std::string& end) {
  const auto b = text.find(begin + "\n");
  if (b == std::string::npos) return std::nullopt;
  const auto start = b + begin.size() + 1;
  const auto e = text.find("\n" + end, start - 1);
  if (e == std::string::npos) return std::nullopt;
  return text.substr(start, e >= start ? e - start : 0);
}

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

struct GuestFiles {
  fs::path kernel;
  fs::path initramfs;
};

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
  const auto qemu = findProgram("qemu-system-x86_64");
  ASSERT_TRUE(qemu) << "qemu-system-x86_64 not found: scripts/install-deps.sh installs qemu-system-x86";
  for (const char* tool : {"busybox", "usbip", "apt-get", "dpkg-deb", "gzip"}) {
    ASSERT_TRUE(findProgram(tool)) << tool << " not found: run scripts/install-deps.sh";
  }
  const fs::path coralsim = kBinaryDir / "coralsim";
  const fs::path coralsimUsb = kBinaryDir / "coralsim-usb";
  ASSERT_TRUE(fs::exists(coralsim) && fs::exists(coralsimUsb)) << "build the coralsim and coralsim-usb targets first";

  const fs::path work = kBinaryDir / ("tests/e2e/qemu-run-" + speed);
  const fs::path guestDir = kBinaryDir / ("tests/e2e/qemu-guest-" + speed);
  fs::remove_all(work);
  fs::create_directories(work / "data");
  const auto started = std::chrono::steady_clock::now();

  // ---- 1. the guest: kernel (apt-get download, cached), initramfs with coralsim-usb ----
  const fs::path buildLog = work / "build_guest.log";
  const auto built = runLogged({"bash", (kSourceDir / "tests/e2e/qemu/build_guest.sh").string(), guestDir.string(),
                                coralsimUsb.string()},
                               buildLog, kGuestBuildTimeout);
  ASSERT_TRUE(built && *built == 0) << "building the QEMU guest (kernel package, initramfs) failed:\n" << readText(buildLog);
  GuestFiles guest{fs::exists(guestDir / "vmlinux") ? guestDir / "vmlinux" : guestDir / "vmlinuz",
                   guestDir / "initramfs.cpio.gz"};

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
    writeBytes(work / "data" / name, bytes);
    runArgs.insert(runArgs.end(), {"--input", name});
    inProcessInputs.insert(inProcessInputs.end(), {"--input", (work / "data" / name).string()});
  }
  runArgs.insert(runArgs.end(), {"--service", "events", "--iterations", std::to_string(kIterations), "--json",
                                 "--output", "out.bin", "--wait-ms", "10000", "--timeout-ms", "20000"});
  fs::copy_file(model, work / "data/model.tflite");
  fs::copy_file(firmware, work / "data/firmware.bin");
  {
    std::ofstream args(work / "data/run.args");
    for (const auto& a : runArgs) args << a << '\n';
  }
  const fs::path packLog = work / "pack.log";
  const auto packed = runLogged({"sh", "-c",
                                 "cd '" + work.string() + "' && find data | busybox cpio -o -H newc 2>/dev/null | gzip -1 > "
                                 "data.cpio.gz && cat '" + guest.initramfs.string() + "' data.cpio.gz > run.cpio.gz"},
                                packLog, 60s);
  ASSERT_TRUE(packed && *packed == 0) << "packing the data archive failed:\n" << readText(packLog);

  // ---- 3. the server, in the bootloader personality, on a free loopback port ----
  const fs::path serverLog = work / "server.log";
  ChildProcess server({coralsim.string(), "serve", "--listen", "127.0.0.1:0", "--bootloader", "--speed", speed},
                      serverLog);
  std::string port;
  const std::regex listening(R"( on 127\.0\.0\.1:([0-9]+),)");
  for (auto until = std::chrono::steady_clock::now() + kServerStartTimeout; port.empty();) {
    std::smatch m;
    const std::string text = readText(serverLog);
    if (std::regex_search(text, m, listening)) {
      port = m[1];
    } else {
      ASSERT_TRUE(server.running()) << "coralsim serve exited:\n" << text;
      ASSERT_TRUE(std::chrono::steady_clock::now() < until) << "coralsim serve did not start listening:\n" << text;
      std::this_thread::sleep_for(50ms);
    }
  }

  // ---- 4. the guest ----
  const fs::path guestLog = work / "guest.log";
  const fs::path qemuLog = work / "qemu.log";
  ChildProcess vm({qemu->string(), "-accel", "tcg", "-m", "512", "-smp", "1", "-nodefaults", "-display", "none",
                   "-no-reboot", "-serial", "file:" + guestLog.string(), "-kernel", guest.kernel.string(), "-initrd",
                   (work / "run.cpio.gz").string(), "-append",
                   "console=ttyS0 panic=-1 loglevel=3 coralsim.port=" + port, "-netdev", "user,id=n0", "-device",
                   "virtio-net-pci,netdev=n0,romfile="},
                  qemuLog);
  const auto vmStatus = vm.wait(kGuestTimeout);
  if (!vmStatus) vm.stop(1s);
  const int serverStatus = server.stop(10s);
  const auto wall = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  std::string guestText = readText(guestLog);
  std::erase(guestText, '\r');  // the guest's serial console ends lines with CR LF
  const std::string serverText = readText(serverLog);
  std::cout << "[ e2e ] wall time " << wall.count() << " ms (guest build included); logs in " << work << "\n";
  for (const auto& line : linesAfter(guestText, "E2E ")) std::cout << "[ guest ] " << line << "\n";
  ASSERT_TRUE(vmStatus) << "QEMU did not finish within " << kGuestTimeout.count() << " s; guest log:\n" << tail(guestText);
  ASSERT_EQ(*vmStatus, 0) << "QEMU failed:\n" << readText(qemuLog);
  EXPECT_EQ(serverStatus, 0) << serverText;
  ASSERT_EQ(linesAfter(guestText, "E2E-FAIL: ").size(), 0u) << "guest set-up failed:\n" << tail(guestText, 100);
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
}  // namespace coralsim::testing
