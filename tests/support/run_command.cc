#include "tests/support/run_command.h"

#include <sys/wait.h>

#include <cstdio>

namespace coralsim::testing {
namespace {

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace

std::optional<std::string> runCommand(const std::vector<std::string>& argv, int okStatus) {
  std::string command;
  for (const auto& a : argv) command += (command.empty() ? "" : " ") + shellQuote(a);
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return std::nullopt;
  std::string out;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  const int status = ::pclose(pipe);
  if (status == -1 || !WIFEXITED(status)) return std::nullopt;
  const int code = WEXITSTATUS(status);
  if (code != 0 && code != okStatus) return std::nullopt;
  return out;
}

bool haveProgram(const std::string& program) {
  return runCommand({"sh", "-c", "command -v " + shellQuote(program) + " >/dev/null"}).has_value();
}

}  // namespace coralsim::testing
