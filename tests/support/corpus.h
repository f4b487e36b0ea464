// Locating the shared, read-only corpus and golden data from tests. They are never copied into
// the repository: $CORALSIM_CORPUS / $CORALSIM_GOLDEN / $CORALSIM_TOOLS override the defaults
// (../shared/... beside the checkout). A test that needs them and finds nothing skips loudly.
#pragma once

#include <filesystem>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace coralsim::testing {

std::optional<std::filesystem::path> corpusDir();
std::optional<std::filesystem::path> goldenDir();
std::optional<std::filesystem::path> toolsDir();

// Every file under the corpus whose name ends with `suffix`, sorted (deterministic order).
std::vector<std::filesystem::path> corpusFiles(const std::string& suffix);

std::vector<uint8_t> readFile(const std::filesystem::path& path);

// How many of a golden model's cases a sweep over the golden set runs: every case, or the first N
// when $CORALSIM_GOLDEN_CASES is N. The sanitizer test presets set 1: the other cases run the same
// code on other input bytes, and under ASan each costs minutes (docs/sanitizers.md). A value that
// is not a positive integer throws std::invalid_argument naming the variable.
size_t goldenCasesPerModel();

}  // namespace coralsim::testing

// Skips the current test with a message that cannot be missed in CI logs.
#define CORALSIM_REQUIRE_CORPUS(dirExpr)                                                       \
  do {                                                                                         \
    if (!(dirExpr)) {                                                                          \
      GTEST_SKIP() << "\n*** SKIPPED: shared corpus not found (set CORALSIM_CORPUS; default " \
                      "../shared/corpus). This test checks real Edge TPU artifacts. ***\n";    \
    }                                                                                          \
  } while (0)
