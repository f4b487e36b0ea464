#include "models/chip_config.h"

#include <array>
#include <utility>

namespace coralsim::models {
namespace {

constexpr std::array<std::pair<ExecutionMode, std::string_view>, 4> kModeNames{{
    {ExecutionMode::kAuto, "auto"},
    {ExecutionMode::kLle, "lle"},
    {ExecutionMode::kHle, "hle"},
    {ExecutionMode::kProtocol, "protocol"},
}};

}  // namespace

std::string_view executionModeName(ExecutionMode mode) {
  for (const auto& [m, name] : kModeNames) {
    if (m == mode) return name;
  }
  return "?";
}

bool parseExecutionMode(std::string_view text, ExecutionMode& out) {
  for (const auto& [m, name] : kModeNames) {
    if (name == text) {
      out = m;
      return true;
    }
  }
  return false;
}

}  // namespace coralsim::models
