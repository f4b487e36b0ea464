// ChildProcess: a program the end-to-end tests run beside themselves (the USB/IP server, QEMU),
// with its standard output and error going to a log file, a bounded wait, and no way to outlive
// the test: it runs in its own process group, which the destructor kills if it is still there.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace coralsim::testing {

class ChildProcess {
 public:
  // Starts argv[0] (searched on PATH) with stdout and stderr appended to `log`. Throws
  // std::runtime_error when it cannot be started.
  ChildProcess(const std::vector<std::string>& argv, const std::filesystem::path& log);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // The exit status once it has exited within `timeout` (128 + signal when killed by one);
  // nullopt when it is still running.
  std::optional<int> wait(std::chrono::milliseconds timeout);
  // SIGTERM, then SIGKILL to the whole group after `grace`; returns the exit status.
  int stop(std::chrono::milliseconds grace);
  // Reaps it if it has exited meanwhile.
  [[nodiscard]] bool running() { return !wait(std::chrono::milliseconds(0)).has_value(); }

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

// Runs argv to completion (killed after `timeout`), output appended to `log`; the exit status,
// or nullopt on timeout.
std::optional<int> runLogged(const std::vector<std::string>& argv, const std::filesystem::path& log,
                             std::chrono::milliseconds timeout);

// The program's full path, looked up on PATH and in /usr/sbin and /sbin (where Debian puts usbip).
std::optional<std::filesystem::path> findProgram(const std::string& name);

}  // namespace coralsim::testing
