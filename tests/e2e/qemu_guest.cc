#include "tests/e2e/qemu_guest.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "tests/e2e/child_process.h"

namespace coralsim::testing {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

constexpr auto kGuestBuildTimeout = 300s;  // a cold build downloads the 70 MB kernel package
constexpr auto kServerStartTimeout = 15s;
constexpr auto kGuestTimeout = 150s;  // boot ~3-5 s, attach, DFU, run, detach: ~15 s typical

const fs::path kSourceDir = CORALSIM_SOURCE_DIR;
const fs::path kBinaryDir = CORALSIM_BINARY_DIR;

}  // namespace

QemuGuest::QemuGuest(const std::string& name)
    : work_(kBinaryDir / ("tests/e2e/qemu-run-" + name)), guestDir_(kBinaryDir / ("tests/e2e/qemu-guest-" + name)),
      started_(std::chrono::steady_clock::now()) {
  fs::remove_all(work_);
  fs::create_directories(data());
}

void QemuGuest::requireHostTools() const {
  ASSERT_TRUE(findProgram("qemu-system-x86_64")) << "qemu-system-x86_64 not found: scripts/install-deps.sh installs qemu-system-x86";
  for (const char* tool : {"busybox", "usbip", "apt-get", "dpkg-deb", "gzip"}) {
    ASSERT_TRUE(findProgram(tool)) << tool << " not found: run scripts/install-deps.sh";
  }
  ASSERT_TRUE(fs::exists(kBinaryDir / "coralsim") && fs::exists(kBinaryDir / "coralsim-usb"))
      << "build the coralsim and coralsim-usb targets first";
}

void QemuGuest::build(const std::vector<std::string>& extraBuildArgs) {
  started_ = std::chrono::steady_clock::now();
  const fs::path log = work_ / "build_guest.log";
  std::vector<std::string> argv = {"bash", (kSourceDir / "tests/e2e/qemu/build_guest.sh").string(), guestDir_.string(),
                                   (kBinaryDir / "coralsim-usb").string()};
  argv.insert(argv.end(), extraBuildArgs.begin(), extraBuildArgs.end());
  const auto built = runLogged(argv, log, kGuestBuildTimeout);
  ASSERT_TRUE(built && *built == 0) << "building the QEMU guest (kernel package, initramfs) failed:\n" << readText(log);
}

void QemuGuest::boot(const std::vector<std::string>& serveArgs, GuestSession& session) {
  const fs::path kernel = fs::exists(guestDir_ / "vmlinux") ? guestDir_ / "vmlinux" : guestDir_ / "vmlinuz";
  const fs::path initramfs = guestDir_ / "initramfs.cpio.gz";
  const fs::path packLog = work_ / "pack.log";
  const auto packed = runLogged({"sh", "-c",
                                 "cd '" + work_.string() + "' && find data | busybox cpio -o -H newc 2>/dev/null | gzip -1 > "
                                 "data.cpio.gz && cat '" + initramfs.string() + "' data.cpio.gz > run.cpio.gz"},
                                packLog, 60s);
  ASSERT_TRUE(packed && *packed == 0) << "packing the data archive failed:\n" << readText(packLog);

  // The server, in the bootloader personality, on a free loopback port read back from its log.
  const fs::path serverLog = work_ / "server.log";
  std::vector<std::string> serverArgv = {(kBinaryDir / "coralsim").string(), "serve", "--listen", "127.0.0.1:0",
                                         "--bootloader"};
  serverArgv.insert(serverArgv.end(), serveArgs.begin(), serveArgs.end());
  ChildProcess server(serverArgv, serverLog);
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

  // The guest: QEMU user networking makes the host's loopback 10.0.2.2.
  const fs::path guestLog = work_ / "guest.log";
  const fs::path qemuLog = work_ / "qemu.log";
  ChildProcess vm({findProgram("qemu-system-x86_64").value_or("qemu-system-x86_64").string(), "-accel", "tcg", "-m",
                   "512", "-smp", "1", "-nodefaults", "-display", "none", "-no-reboot", "-serial",
                   "file:" + guestLog.string(), "-kernel", kernel.string(), "-initrd", (work_ / "run.cpio.gz").string(),
                   "-append", "console=ttyS0 panic=-1 loglevel=3 coralsim.port=" + port, "-netdev", "user,id=n0",
                   "-device", "virtio-net-pci,netdev=n0,romfile="},
                  qemuLog);
  const auto vmStatus = vm.wait(kGuestTimeout);
  if (!vmStatus) vm.stop(1s);
  const int serverStatus = server.stop(10s);
  session.wall = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_);
  session.guestLog = readText(guestLog);
  std::erase(session.guestLog, '\r');  // the guest's serial console ends lines with CR LF
  session.serverLog = readText(serverLog);
  std::cout << "[ e2e ] wall time " << session.wall.count() << " ms (guest build included); logs in " << work_ << "\n";
  for (const auto& line : linesAfter(session.guestLog, "E2E ")) std::cout << "[ guest ] " << line << "\n";
  ASSERT_TRUE(vmStatus) << "QEMU did not finish within " << kGuestTimeout.count() << " s; guest log:\n"
                        << tail(session.guestLog);
  ASSERT_EQ(*vmStatus, 0) << "QEMU failed:\n" << readText(qemuLog);
  EXPECT_EQ(serverStatus, 0) << session.serverLog;
  ASSERT_EQ(linesAfter(session.guestLog, "E2E-FAIL: ").size(), 0u) << "guest set-up failed:\n"
                                                                    << tail(session.guestLog, 100);
}

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const fs::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error(p.string() + ": write failed");
}

std::string tail(const std::string& text, size_t lines) {
  size_t pos = text.size();
  for (size_t n = 0; n <= lines && pos > 0; ++n) {
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) return text;
  }
  return text.substr(pos + 1);
}

std::vector<std::string> linesAfter(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
  }
  return out;
}

std::optional<std::string> between(const std::string& text, const std::string& begin, const std::string& end) {
  const auto b = text.find(begin + "\n");
  if (b == std::string::npos) return std::nullopt;
  const auto start = b + begin.size() + 1;
  const auto e = text.find("\n" + end, start - 1);
  if (e == std::string::npos) return std::nullopt;
  return text.substr(start, e >= start ? e - start : 0);
}

}  // namespace coralsim::testing
