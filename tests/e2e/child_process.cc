#include "tests/e2e/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace coralsim::testing {
namespace {

int decodeStatus(int raw) {
  if (WIFEXITED(raw)) return WEXITSTATUS(raw);
  if (WIFSIGNALED(raw)) return 128 + WTERMSIG(raw);
  return -1;
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  if (argv.empty()) throw std::invalid_argument("ChildProcess: empty argv");
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(log.string() + ": cannot open log: " + std::strerror(errno));
  pid_ = ::fork();
  if (pid_ < 0) {
    ::close(fd);
    throw std::runtime_error("fork failed: " + std::string(std::strerror(errno)));
  }
  if (pid_ == 0) {
    // Child: own process group (so the whole tree can be killed), output to the log.
    ::setpgid(0, 0);
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    const int devNull = ::open("/dev/null", O_RDONLY);
    if (devNull >= 0) ::dup2(devNull, STDIN_FILENO);
    ::execvp(args[0], args.data());
    const std::string msg = "exec " + argv[0] + " failed: " + std::strerror(errno) + "\n";
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, msg.data(), msg.size());
    ::_exit(127);
  }
  ::setpgid(pid_, pid_);  // also from the parent: no race with an early kill
  ::close(fd);
}

ChildProcess::~ChildProcess() {
  if (!status_ && pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    int raw = 0;
    ::waitpid(pid_, &raw, 0);
  }
}

std::optional<int> ChildProcess::wait(std::chrono::milliseconds timeout) {
  if (status_) return status_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    int raw = 0;
    const pid_t r = ::waitpid(pid_, &raw, WNOHANG);
    if (r == pid_) {
      status_ = decodeStatus(raw);
      return status_;
    }
    if (r < 0 && errno != EINTR) {
      status_ = -1;
      return status_;
    }
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

int ChildProcess::stop(std::chrono::milliseconds grace) {
  if (status_) return *status_;
  ::kill(pid_, SIGTERM);
  if (auto s = wait(grace)) return *s;
  ::kill(-pid_, SIGKILL);
  return wait(std::chrono::seconds(10)).value_or(-1);
}

std::optional<int> runLogged(const std::vector<std::string>& argv, const std::filesystem::path& log,
                             std::chrono::milliseconds timeout) {
  ChildProcess child(argv, log);
  if (auto s = child.wait(timeout)) return s;
  child.stop(std::chrono::seconds(1));
  return std::nullopt;
}

std::optional<std::filesystem::path> findProgram(const std::string& name) {
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin";
  path += ":/usr/sbin:/sbin";
  std::istringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::filesystem::path candidate = std::filesystem::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

}  // namespace coralsim::testing
