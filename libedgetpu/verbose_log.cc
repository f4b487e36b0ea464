#include "libedgetpu/verbose_log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace coralsim::libedgetpu {
namespace {

int initialVerbosity() {
  const char* env = std::getenv("CORALSIM_VERBOSITY");
  return env ? std::atoi(env) : 0;
}

std::atomic<int>& level() {
  static std::atomic<int> value{initialVerbosity()};
  return value;
}

}  // namespace

void setVerbosity(int newLevel) { level().store(newLevel); }
int verbosity() { return level().load(); }

void log(int messageLevel, const std::string& message) {
  if (messageLevel > verbosity()) return;
  std::fprintf(stderr, "coralsim libedgetpu: %s\n", message.c_str());
}

}  // namespace coralsim::libedgetpu
