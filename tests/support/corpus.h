// Locating the shared, read-only corpus and golden data from tests. They are never copied into
// the repository: $CORALSIM_CORPUS / $CORALSIM_GOLDEN / $CORALSIM_TOOLS override the defaults
// (../shared/... beside the checkout). A test that needs them and finds nothing skips loudly.
#pragma once

#include <filesystem>
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

// A golden output in TFLite's encoding, the preferred reference where the golden set has one
// (golden/README.md "which variant to compare against": the fp32-requantisation variant matched the
// device wherever there is hardware evidence): `<stem>.xnnpack.bin`, else `<stem>.xnnpack.dev.bin`
// turned back into TFLite's encoding (int8 alternates are stored in device form only: XOR 0x80),
// else the primary file `primaryFile` itself.
std::vector<uint8_t> readPreferredGoldenOutput(const std::filesystem::path& caseDir, const std::string& primaryFile);

}  // namespace coralsim::testing

// Skips the current test with a message that cannot be missed in CI logs.
#define CORALSIM_REQUIRE_CORPUS(dirExpr)                                                       \
  do {                                                                                         \
    if (!(dirExpr)) {                                                                          \
      GTEST_SKIP() << "\n*** SKIPPED: shared corpus not found (set CORALSIM_CORPUS; default " \
                      "../shared/corpus). This test checks real Edge TPU artifacts. ***\n";    \
    }                                                                                          \
  } while (0)
