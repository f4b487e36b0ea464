// Finding a corpus model for the benchmarks that run real programs: $CORALSIM_CORPUS, else the
// shared corpus beside the checkout (CORALSIM_DEFAULT_CORPUS, compiled in by coralsim_benchmark).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

namespace coralsim::bench {

// The first file named `fileName` anywhere below `root`; nullopt when there is none (or no `root`).
inline std::optional<std::filesystem::path> findModelBelow(const std::filesystem::path& root, const std::string& fileName) {
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec)) return std::nullopt;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root, ec)) {
    if (entry.is_regular_file() && entry.path().filename() == fileName) return entry.path();
  }
  return std::nullopt;
}

// The first file named `fileName` anywhere below the corpus root; nullopt without a corpus.
inline std::optional<std::filesystem::path> findCorpusModel(const std::string& fileName) {
  const char* env = std::getenv("CORALSIM_CORPUS");
  return findModelBelow(env && *env ? env : CORALSIM_DEFAULT_CORPUS, fileName);
}

}  // namespace coralsim::bench
