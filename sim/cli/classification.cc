#include "sim/cli/classification.h"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <stdexcept>
#include <system_error>

#include "driver/model/load_error.h"
#include "driver/run/tensor_encoding.h"

namespace coralsim::cli {

size_t classCount(const driver::TfliteTensor& output) {
  size_t n = 1;
  for (int32_t d : output.shape) n *= d > 0 ? static_cast<size_t>(d) : 0;
  return n;
}

std::vector<ClassScore> topClasses(std::span<const uint8_t> bytes, const driver::TfliteTensor& output, size_t k) {
  const size_t classes = classCount(output);
  if (bytes.size() < classes) {
    throw std::invalid_argument("output '" + output.name + "' has " + std::to_string(bytes.size()) + " bytes for " +
                                std::to_string(classes) + " classes");
  }
  const bool int8 = output.type == driver::kTfliteInt8;
  if ((!int8 && output.type != driver::kTfliteUint8) || output.scale.size() != 1 || output.zeroPoint.size() != 1) {
    throw std::invalid_argument("output '" + output.name + "' is not an 8-bit tensor with one scale and zero point");
  }
  auto value = [&](size_t i) { return int8 ? static_cast<int>(static_cast<int8_t>(bytes[i])) : static_cast<int>(bytes[i]); };
  std::vector<size_t> order(classes);
  std::iota(order.begin(), order.end(), size_t{0});
  k = std::min(k, classes);
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(), [&](size_t a, size_t b) {
    return value(a) != value(b) ? value(a) > value(b) : a < b;
  });
  std::vector<ClassScore> top;
  for (size_t i = 0; i < k; ++i) {
    top.push_back({order[i], static_cast<double>(output.scale[0]) * (value(order[i]) - static_cast<double>(output.zeroPoint[0]))});
  }
  return top;
}

std::vector<std::string> readLabels(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw driver::LoadError(path.string() + ": cannot open the labels file");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::optional<std::filesystem::path> findLabelsBeside(const std::filesystem::path& model, size_t classes) {
  std::error_code ec;
  std::vector<std::filesystem::path> matching;
  const std::filesystem::path dir = model.parent_path().empty() ? std::filesystem::path(".") : model.parent_path();
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file(ec) || name.find("labels") == std::string::npos || !name.ends_with(".txt")) continue;
    if (readLabels(entry.path()).size() == classes) matching.push_back(entry.path());
  }
  if (matching.size() != 1) return std::nullopt;
  return matching.front();
}

}  // namespace coralsim::cli
