// QemuGuest: one boot of the real-kernel tests' QEMU guest against `coralsim serve`
// (tests/e2e/README.md). Builds the guest with qemu/build_guest.sh (the kernel package cached
// and shared), appends the files written into data() as a second cpio archive (the guest's /data),
// starts `coralsim serve --bootloader` on a free loopback port, boots Debian's kernel under TCG
// with that port on its command line, waits for the guest to power off and stops the server,
// keeping every log in work(). Shared by the coralsim-usb test (qemu_kernel_e2e_test.cc) and the
// pyusb one (qemu_pyusb_e2e_test.cc); what the guest runs is decided by the files in /data
// (qemu/guest_init.sh).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace coralsim::testing {

// What one boot left behind.
struct GuestSession {
  std::string guestLog;   // the serial console, CR LF turned into LF
  std::string serverLog;  // coralsim serve's standard error
  std::chrono::milliseconds wall{0};  // from build() to the server stopped
};

class QemuGuest {
 public:
  // Uses <build>/tests/e2e/qemu-guest-<name>/ for the guest and qemu-run-<name>/ (emptied) for
  // this run's data and logs.
  explicit QemuGuest(const std::string& name);

  [[nodiscard]] const std::filesystem::path& work() const { return work_; }
  [[nodiscard]] std::filesystem::path data() const { return work_ / "data"; }

  // The following report through GoogleTest assertions: call them under ASSERT_NO_FATAL_FAILURE.
  // Fails when a host tool is missing (scripts/install-deps.sh installs them all).
  void requireHostTools() const;
  // build_guest.sh OUT coralsim-usb EXTRA... (EXTRA: the pyusb client, when the guest needs it).
  void build(const std::vector<std::string>& extraBuildArgs);
  // Packs data(), runs `coralsim serve --listen 127.0.0.1:0 --bootloader SERVE_ARGS...` and the
  // guest; checks QEMU powered off cleanly, the server stopped with status 0 and no guest set-up
  // step failed, and prints the guest's progress lines.
  void boot(const std::vector<std::string>& serveArgs, GuestSession& session);

 private:
  std::filesystem::path work_;
  std::filesystem::path guestDir_;
  std::chrono::steady_clock::time_point started_;
};

// Helpers over the logs and files of a run.
std::string readText(const std::filesystem::path& p);
void writeBytes(const std::filesystem::path& p, const std::vector<uint8_t>& bytes);
// The last `lines` lines of `text`.
std::string tail(const std::string& text, size_t lines = 60);
// Lines of `text` starting with `prefix`, with the prefix removed.
std::vector<std::string> linesAfter(const std::string& text, const std::string& prefix);
// The text between the marker lines `begin` and `end`, or nullopt.
std::optional<std::string> between(const std::string& text, const std::string& begin, const std::string& end);

}  // namespace coralsim::testing
