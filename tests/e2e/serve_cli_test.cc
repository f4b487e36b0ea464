// `coralsim serve` as a process: it prints where it listens, exports the devices asked for, serves
// the driver through the userspace client, and exits 0 promptly on SIGINT and SIGTERM; bad usage
// exits 2 with a message naming the option.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "driver/transport/dfu_download.h"
#include "driver/transport/usbip_client_transport.h"
#include "traces/sha256.h"
#include "tests/support/run_command.h"
#include "usbip/client.h"

extern char** environ;

namespace coralsim::usbip::serve_cli_test {
namespace {

using namespace std::chrono_literals;

class ServeProcess {
 public:
  explicit ServeProcess(std::vector<std::string> args) {
    args.insert(args.begin(), {std::string(CORALSIM_BINARY_DIR) + "/coralsim", "serve"});
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, out[1], 2);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
      throw std::runtime_error("cannot start " + args[0]);
    }
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    fd_ = out[0];
  }
  ~ServeProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) ::close(fd_);
  }
  // Output until `pattern` matches (or the time runs out / the process closes its output).
  std::string readUntil(const std::regex& pattern, std::chrono::milliseconds timeout = 20s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!std::regex_search(output_, pattern) && std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) != 1) continue;
      char buffer[1024];
      const ssize_t n = ::read(fd_, buffer, sizeof buffer);
      if (n <= 0) break;
      output_.append(buffer, static_cast<size_t>(n));
    }
    return output_;
  }
  // The exit status, waiting at most `timeout`; nullopt if still running.
  std::optional<int> exitStatus(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(5ms);
    }
    return std::nullopt;
  }
  void signal(int sig) { ::kill(pid_, sig); }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string output_;
};

uint16_t listeningPort(ServeProcess& p) {
  const std::regex listening(R"(on 127\.0\.0\.1:(\d+),)");
  const std::string out = p.readUntil(listening);
  std::smatch m;
  if (!std::regex_search(out, m, listening)) throw std::runtime_error("no listening line in: " + out);
  return static_cast<uint16_t>(std::stoi(m[1]));
}

TEST(ServeCli, ExportsDevicesServesTheDriverAndStopsOnSigint) {
  ServeProcess serve({"--listen", "127.0.0.1:0", "--devices", "3", "--speed", "high"});
  const uint16_t port = listeningPort(serve);
  const auto devices = UsbipClient::listDevices("127.0.0.1", port);
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(textOf(devices[2].device.busid), "1-3");
  EXPECT_EQ(devices[0].device.speed, usb_speed_code::kHigh);
  EXPECT_EQ(devices[0].device.idProduct, 0x9302);
  {
    driver::UsbipClientTransport t("127.0.0.1", port, "1-2");
    EXPECT_EQ(t.linkSpeed(), usb::UsbSpeed::kHigh);
    // scu_ctrl_3 after power-on: the GCB held in reset (force_sleep 3), docs/usb-protocol.md §5.2.
    EXPECT_EQ((t.read32(0x1A318) >> 22) & 3u, 3u);
    t.write32(0x4C148, 0xFF);  // descr_ep
    EXPECT_EQ(t.read32(0x4C148), 0xFFu);
  }
  serve.signal(SIGINT);
  EXPECT_EQ(serve.exitStatus(10s), 0);
  const std::string out = serve.readUntil(std::regex("stopped after"));
  EXPECT_NE(out.find("SIGINT: stopping"), std::string::npos) << out;
  EXPECT_NE(out.find("attached 1-2"), std::string::npos) << out;
  EXPECT_NE(out.find("detached from 1-2"), std::string::npos) << out;
  EXPECT_NE(out.find("1-3: 18d1:9302 runtime, no firmware downloaded, 0 executable runs, cycles -"), std::string::npos)
      << out;
}

TEST(ServeCli, SigtermWithAClientAttachedStopsCleanly) {
  ServeProcess serve({"--listen", "127.0.0.1:0"});
  const uint16_t port = listeningPort(serve);
  UsbipClient client("127.0.0.1", port, "1-1");
  (void)client.submitIn(0x82, 16);  // left pending
  (void)client.submitIn(0x81, 1024);
  EXPECT_TRUE(client.wait(client.submitControl({0x80, 6, 0x0100, 0, 18}), 10s).has_value());
  serve.signal(SIGTERM);
  EXPECT_EQ(serve.exitStatus(10s), 0);
  EXPECT_THROW((void)client.wait(client.submitControl({0x80, 6, 0x0100, 0, 18}), 5s), UsbipClientError);
}

TEST(ServeCli, BootloaderDevicesShowTheDfuPersonality) {
  ServeProcess serve({"--listen", "127.0.0.1:0", "--bootloader"});
  const uint16_t port = listeningPort(serve);
  const auto devices = UsbipClient::listDevices("127.0.0.1", port);
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].device.idVendor, 0x1A6E);
  EXPECT_EQ(devices[0].device.idProduct, 0x089A);
  ASSERT_EQ(devices[0].interfaces.size(), 1u);
  EXPECT_EQ(devices[0].interfaces[0].bInterfaceClass, 0xFE);
  // Flash it (any image: the device does not execute it) and re-enumerate into the runtime.
  std::vector<uint8_t> image(1000);
  for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<uint8_t>(i ^ 0x5A);
  {
    driver::UsbipClientTransport t("127.0.0.1", port, "1-1");
    const auto r = driver::downloadFirmware(t, image);
    ASSERT_TRUE(r.afterReset.has_value());
    EXPECT_EQ(r.afterReset->productId, 0x9302);
  }
  serve.signal(SIGTERM);
  EXPECT_EQ(serve.exitStatus(10s), 0);
  const std::string out = serve.readUntil(std::regex("stopped after"));
  EXPECT_NE(out.find("attached 1-1 (1a6e:089a"), std::string::npos) << out;
  EXPECT_NE(out.find("1-1: 18d1:9302 runtime, firmware 1000 bytes sha256 " + traces::Sha256::hex(image) +
                     ", 0 executable runs, cycles -"),
            std::string::npos)
      << out;
}

// The Linux usbip tool (an implementation we did not write) lists what `coralsim serve` exports.
TEST(ServeCli, LinuxUsbipToolListsTheDevices) {
  if (!testing::haveProgram("usbip")) GTEST_SKIP() << "the Linux usbip tool is not installed (package usbip)";
  ServeProcess runtime({"--listen", "127.0.0.1:0", "--devices", "2"});
  const uint16_t port = listeningPort(runtime);
  const auto out = coralsim::testing::runCommand({"usbip", "--tcp-port", std::to_string(port), "list", "-r", "127.0.0.1"});
  ASSERT_TRUE(out.has_value()) << "usbip list failed";
  EXPECT_NE(out->find("1-1:"), std::string::npos) << *out;
  EXPECT_NE(out->find("1-2:"), std::string::npos) << *out;
  EXPECT_NE(out->find("(18d1:9302)"), std::string::npos) << *out;
  EXPECT_NE(out->find("(ff/ff/ff)"), std::string::npos) << *out;

  ServeProcess bootloader({"--listen", "127.0.0.1:0", "--bootloader"});
  const uint16_t port2 = listeningPort(bootloader);
  const auto out2 = testing::runCommand({"usbip", "--tcp-port", std::to_string(port2), "list", "-r", "127.0.0.1"});
  ASSERT_TRUE(out2.has_value()) << "usbip list failed";
  EXPECT_NE(out2->find("(1a6e:089a)"), std::string::npos) << *out2;
  EXPECT_NE(out2->find("(fe/01/02)"), std::string::npos) << *out2;
}

TEST(ServeCli, BadUsageExitsTwoNamingTheOption) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--speed", "slow"}, {"--devices", "0"}, {"--listen", "127.0.0.1:70000"}, {"--frobnicate"}, {"extra"},
           {"--cycle-limit", "0"}, {"--allow", "not-an-address"}}) {
    ServeProcess serve(args);
    EXPECT_EQ(serve.exitStatus(10s), 2) << args[0];
    EXPECT_NE(serve.readUntil(std::regex("see 'coralsim serve --help'")).find(args[0]), std::string::npos) << args[0];
  }
}

TEST(ServeCli, AnAddressInUseIsAClearError) {
  ServeProcess first({"--listen", "127.0.0.1:0"});
  const uint16_t port = listeningPort(first);
  ServeProcess second({"--listen", "127.0.0.1:" + std::to_string(port)});
  EXPECT_EQ(second.exitStatus(10s), 1);
  const std::string out = second.readUntil(std::regex("cannot listen"));
  EXPECT_NE(out.find("cannot listen on 127.0.0.1:" + std::to_string(port)), std::string::npos) << out;
}

}  // namespace
}  // namespace coralsim::usbip::serve_cli_test

TEST(CoralsimCli, VersionIsTheBuildsProjectVersion) {
  // The version printed must come from CMake's PROJECT_VERSION, not a literal in the CLI source.
  const auto out = coralsim::testing::runCommand({std::string(CORALSIM_BINARY_DIR) + "/coralsim", "--version"});
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(*out, std::string("coralsim ") + CORALSIM_PROJECT_VERSION + "\n");
}
