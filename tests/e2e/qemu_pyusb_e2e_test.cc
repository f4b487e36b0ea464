// The raw edgetpuxray programs (issue #12 target (a)) driven over USB/IP by an unmodified pyusb
// client: Debian's kernel in QEMU attaches `coralsim serve --bootloader` with vhci-hcd, and
// tests/e2e/pyusb/run_coral_program.py — Debian's python3 and python3-usb on libusb-1.0, none of
// the project's code — downloads the firmware by DFU, opens the chip, and runs every program of
// ../shared/golden/edgetpuxray_expected.json that has test vectors, once per vector, answering the
// descriptors the device announces (tests/e2e/README.md).
//
// Oracles, per (program, vector):
//   - the output bytes the client read over USB equal, byte for byte and in size, the output of
//     the same program and input run in process (`coralsim run --json --output`) on the same rung
//     (both sides --mode auto; the server's summary must name the same rung and cycles per run);
//   - the output is exactly the expected vector's size, and the events the client answered (tag,
//     address, length) are the descriptors of the in-process run;
//   - where the in-process run says the program ran fully on the lle rung (rung "lle", output
//     computed), the bytes are compared with edgetpuxray_expected.json's and the figures printed;
//     runs outside its ±1 LSB tolerance are listed, not failed: the file's element-wise
//     expectations cannot all hold under one rule (docs/decoding-log.md "xraypair" §C, "eltwise" §A),
//     and tests/corpus/lle_edgetpuxray_test.cc holds the floors.
// Plus the DFU: the server received the corpus firmware image and the guest kernel re-enumerated
// the device ("device firmware changed").
//
// Skips loudly without the corpus or the golden file. Fails when QEMU, busybox, usbip, python3-usb
// or the kernel package cannot be obtained: scripts/install-deps.sh installs them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/e2e/qemu_guest.h"
#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"
#include "tests/support/run_command.h"
#include "traces/sha256.h"

namespace coralsim::testing::qemu_pyusb_e2e_test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMode = "auto";  // the rung both the server and the in-process run choose
constexpr int kToleranceLsb = 1;       // edgetpuxray_expected.json "conventions.tolerance"

const fs::path kSourceDir = CORALSIM_SOURCE_DIR;
const fs::path kBinaryDir = CORALSIM_BINARY_DIR;

// One program run with one test vector.
struct Case {
  fs::path program;  // in the corpus
  std::string inputName;  // in the guest's /data
  std::vector<uint8_t> input;
  std::vector<uint8_t> expected;
  // The in-process run.
  std::string rung;
  bool computed = false;
  std::string cycles;
  std::string descriptors;  // "tag address length" per descriptor the device announced
  std::vector<uint8_t> local;
};

std::vector<uint8_t> bytesOf(const JsonValue& array) {
  std::vector<uint8_t> out;
  for (const JsonValue& v : array.items) out.push_back(static_cast<uint8_t>(std::stoi(v.text)));
  return out;
}

std::string hex(const std::vector<uint8_t>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t b : bytes) s += {kDigits[b >> 4], kDigits[b & 15]};
  return s;
}

std::vector<uint8_t> unhex(const std::string& text) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < text.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(text.substr(i, 2), nullptr, 16)));
  return out;
}

// A list of {"tag", "address", "length"} objects as one comparable line.
std::string descriptorText(const JsonValue& list) {
  std::string s;
  for (const JsonValue& d : list.items) {
    s += d.find("tag")->text + " " + d.find("address")->text + " " + d.find("length")->text + "; ";
  }
  return s;
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

TEST(QemuPyusbE2E, EdgetpuxrayProgramsThroughVhciAndPyusb) {
  const auto corpus = corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const auto golden = goldenDir();
  if (!golden || !fs::exists(*golden / "edgetpuxray_expected.json")) {
    GTEST_SKIP() << "\n*** SKIPPED: edgetpuxray_expected.json not found (set CORALSIM_GOLDEN). ***\n";
  }
  const fs::path firmware = *corpus / "google-coral+libedgetpu/driver/usb/apex_latest_single_ep.bin";
  if (!fs::is_regular_file(firmware)) {
    GTEST_SKIP() << "\n*** SKIPPED: " << firmware << " is not in the corpus (set CORALSIM_CORPUS). ***\n";
  }
  QemuGuest guest("pyusb");
  ASSERT_NO_FATAL_FAILURE(guest.requireHostTools());
  const fs::path coralsim = kBinaryDir / "coralsim";

  // ---- the cases: every program with test vectors, every vector; programs and inputs into /data ----
  std::ifstream goldenFile(*golden / "edgetpuxray_expected.json");
  const JsonValue doc = parseJson(std::string(std::istreambuf_iterator<char>(goldenFile), {}));
  std::vector<Case> cases;
  size_t programs = 0;
  std::vector<std::string> args = {"--firmware", "firmware.bin"};
  for (const JsonValue& entry : doc.find("programs")->items) {
    const JsonValue* vectors = entry.find("test_vectors");
    const fs::path program = *corpus / entry.find("program")->text;
    if (!vectors || vectors->items.empty() || !fs::exists(program)) continue;
    fs::copy_file(program, guest.data() / program.filename(), fs::copy_options::overwrite_existing);
    ++programs;
    for (size_t i = 0; i < vectors->items.size(); ++i) {
      Case c;
      c.program = program;
      c.inputName = program.stem().string() + "." + std::to_string(i) + ".in";
      c.input = bytesOf(*vectors->items[i].find("input"));
      c.expected = bytesOf(*vectors->items[i].find("expected_output"));
      writeBytes(guest.data() / c.inputName, c.input);
      args.insert(args.end(), {"--run", program.filename().string(), c.inputName});
      cases.push_back(std::move(c));
    }
  }
  ASSERT_FALSE(cases.empty()) << "no edgetpuxray program with test vectors is in the corpus";
  fs::copy_file(firmware, guest.data() / "firmware.bin");
  {
    std::ofstream out(guest.data() / "pyusb.args");
    for (const auto& a : args) out << a << '\n';
  }

  // ---- the same runs in process ----
  const fs::path localOut = guest.work() / "local.out";
  for (Case& c : cases) {
    const fs::path input = guest.data() / c.inputName;
    fs::remove(localOut);
    const auto text = runCommand({coralsim.string(), "run", c.program.string(), "--input", input.string(), "--mode", kMode,
                                  "--json", "--output", localOut.string()});
    ASSERT_TRUE(text) << "coralsim run " << c.program << " --input " << input << " failed in process";
    const JsonValue report = parseJson(*text);
    const JsonValue* runs = report.find("runs");
    const JsonValue* outputs = report.find("outputs");
    ASSERT_TRUE(runs && runs->items.size() == 1 && outputs && outputs->items.size() == 1) << *text;
    c.rung = runs->items[0].find("rung")->text;
    c.cycles = runs->items[0].find("cycles")->text;
    c.descriptors = descriptorText(*runs->items[0].find("descriptors"));
    c.computed = outputs->items[0].find("computed")->boolean;
    c.local = readFile(localOut);
  }

  // ---- the guest: build (python3 + pyusb + the client), boot, run ----
  ASSERT_NO_FATAL_FAILURE(guest.build({(kSourceDir / "tests/e2e/pyusb/run_coral_program.py").string()}));
  GuestSession session;
  ASSERT_NO_FATAL_FAILURE(guest.boot({"--mode", kMode}, session));
  const std::string& guestText = session.guestLog;
  const std::string& serverText = session.serverLog;
  const auto rc = linesAfter(guestText, "E2E-RESULT rc=");
  ASSERT_EQ(rc.size(), 1u) << "the guest never ran the pyusb client:\n" << tail(guestText, 100);
  const auto report = between(guestText, "E2E-JSON-BEGIN", "E2E-JSON-END");
  ASSERT_TRUE(report) << "no report in the guest log:\n" << tail(guestText);
  std::vector<JsonValue> results;
  std::istringstream lines(*report);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) results.push_back(parseJson(line));
  }
  EXPECT_EQ(rc[0], "0") << "the pyusb client failed in the guest:\n" << tail(guestText, 100) << "\nserver:\n" << serverText;
  ASSERT_EQ(results.size(), cases.size()) << "one report line per run:\n" << tail(guestText, 100);

  // ---- outputs: over USB/IP == in process (== golden where lle computed them) ----
  size_t bytesCompared = 0, lleCases = 0, lleBytes = 0, lleExact = 0;
  int lleMaxDiff = 0;
  std::vector<std::string> localRungs, localCycles;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const JsonValue& r = results[i];
    const std::string where = c.program.filename().string() + " with " + c.inputName;
    localRungs.push_back(c.rung);
    localCycles.push_back(c.cycles);
    ASSERT_EQ(r.find("program")->text, c.program.filename().string()) << "report line " << i;
    EXPECT_EQ(r.find("input")->text, hex(c.input)) << where << ": the client sent another input";
    if (const JsonValue* error = r.find("error")) {
      ADD_FAILURE() << where << ": the pyusb client: " << error->text;
      continue;
    }
    EXPECT_EQ(descriptorText(*r.find("events")), c.descriptors) << where << ": events on EP 0x82 vs. in process";
    const std::vector<uint8_t> got = unhex(r.find("output")->text);
    EXPECT_EQ(got.size(), c.expected.size()) << where << ": output size vs. the expected vector";
    EXPECT_EQ(hex(got), hex(c.local)) << where << ": over USB/IP (pyusb) vs. in process, rung " << c.rung;
    bytesCompared += std::min(got.size(), c.local.size());
    if (c.rung == "lle" && c.computed) {
      ++lleCases;
      int maxDiff = 0;
      for (size_t b = 0; b < std::min(got.size(), c.expected.size()); ++b) {
        const int d = std::abs(int{got[b]} - int{c.expected[b]});
        lleExact += d == 0;
        maxDiff = std::max(maxDiff, d);
      }
      lleBytes += c.expected.size();
      lleMaxDiff = std::max(lleMaxDiff, maxDiff);
      if (maxDiff > kToleranceLsb) {
        std::printf("[ pyusb ] %s: lle output outside edgetpuxray_expected.json's tolerance (max |d| %d)\n  got      %s\n  "
                    "expected %s\n",
                    where.c_str(), maxDiff, hex(got).c_str(), hex(c.expected).c_str());
      }
    }
  }
  std::printf("[ pyusb ] %zu runs of %zu programs over USB/IP: %zu output bytes compared with the in-process run's; rungs:",
              cases.size(), programs, bytesCompared);
  for (const std::string rung : {"lle", "hle", "protocol"}) {
    std::printf(" %s %zu", rung.c_str(), static_cast<size_t>(std::count(localRungs.begin(), localRungs.end(), rung)));
  }
  std::printf("\n[ pyusb ] fully on lle (checked against edgetpuxray_expected.json): %zu runs, %zu / %zu bytes exact, max |d| %d\n",
              lleCases, lleExact, lleBytes, lleMaxDiff);

  // ---- the server's summary: same rungs and cycles as in process ----
  std::smatch m;
  const std::regex summary(R"(1-1: (\S+) \w+, .* (\d+) executable runs?, cycles ([0-9 ]+);.*; rungs ([a-z ]+))");
  ASSERT_TRUE(std::regex_search(serverText, m, summary)) << "no device summary in the server log:\n" << serverText;
  EXPECT_EQ(m[1].str(), "18d1:9302") << "the device did not end in the runtime personality";
  EXPECT_EQ(words(m[4].str()), localRungs) << "datapath rung per run: server vs. in process";
  EXPECT_EQ(words(m[3].str()), localCycles) << "simulated cycles per run: server vs. in process";

  // ---- the DFU the client did ----
  const std::string firmwareSha = traces::Sha256::hex(readFile(firmware));
  EXPECT_NE(serverText.find("firmware " + std::to_string(fs::file_size(firmware)) + " bytes sha256 " + firmwareSha),
            std::string::npos)
      << "the server did not report the corpus firmware image:\n" << serverText;
  bool firmwareChanged = false;
  for (const auto& l : linesAfter(guestText, "E2E-KERNEL ")) firmwareChanged |= l.find("device firmware changed") != std::string::npos;
  EXPECT_TRUE(firmwareChanged) << "the guest kernel did not re-enumerate the device after the DFU reset:\n" << tail(guestText, 80);
  EXPECT_NE(serverText.find("detached from 1-1"), std::string::npos) << serverText;
}

}  // namespace
}  // namespace coralsim::testing::qemu_pyusb_e2e_test
