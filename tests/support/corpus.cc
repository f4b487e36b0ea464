#include "tests/support/corpus.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>

namespace coralsim::testing {
namespace {

std::optional<std::filesystem::path> locate(const char* envVar, const char* fallback) {
  if (const char* env = std::getenv(envVar); env && *env) {
    if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
    return std::nullopt;
  }
  if (std::filesystem::is_directory(fallback)) return std::filesystem::path(fallback);
  return std::nullopt;
}

}  // namespace

std::optional<std::filesystem::path> corpusDir() { return locate("CORALSIM_CORPUS", CORALSIM_DEFAULT_CORPUS); }
std::optional<std::filesystem::path> goldenDir() { return locate("CORALSIM_GOLDEN", CORALSIM_DEFAULT_GOLDEN); }
std::optional<std::filesystem::path> toolsDir() { return locate("CORALSIM_TOOLS", CORALSIM_DEFAULT_TOOLS); }

std::vector<std::filesystem::path> corpusFiles(const std::string& suffix) {
  std::vector<std::filesystem::path> out;
  auto dir = corpusDir();
  if (!dir) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(*dir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<uint8_t> readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

size_t goldenCasesPerModel() {
  const char* value = std::getenv("CORALSIM_GOLDEN_CASES");
  if (value == nullptr || *value == '\0') return std::numeric_limits<size_t>::max();
  char* end = nullptr;
  const unsigned long long parsed = std::strtoull(value, &end, 10);
  if (*end != '\0' || parsed == 0 || value[0] == '-') {
    throw std::invalid_argument(std::string("CORALSIM_GOLDEN_CASES='") + value +
                                "': expected a positive number of cases per golden model");
  }
  return static_cast<size_t>(parsed);
}

}  // namespace coralsim::testing
