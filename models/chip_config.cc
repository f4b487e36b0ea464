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

namespace {
constexpr std::pair<RequantRounding, std::string_view> kRoundingNames[] = {
    {RequantRounding::kFp32HalfEven, "fp32-half-even"},
    {RequantRounding::kFp32HalfAway, "fp32-half-away"},
    {RequantRounding::kTfliteFixedPoint, "tflite-fixed-point"},
};
}  // namespace

std::string_view requantRoundingName(RequantRounding rounding) {
  for (const auto& [r, name] : kRoundingNames) {
    if (r == rounding) return name;
  }
  return "?";
}

bool parseRequantRounding(std::string_view text, RequantRounding& out) {
  for (const auto& [r, name] : kRoundingNames) {
    if (name == text) {
      out = r;
      return true;
    }
  }
  return false;
}

}  // namespace coralsim::models
