// Replays the committed bad inputs of the model-loader fuzz target (tests/fuzz/inputs/
// fuzz_model_loader, made by tests/fuzz/generators/make_model_loader_inputs) through the loader:
// each one must load or end in a LoadError; anything else (another exception, a crash) fails.
#include <gtest/gtest.h>

#include <filesystem>

#include "driver/model/model_loader.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::driver_fuzz_inputs_test {
namespace {

TEST(ModelLoaderFuzzInputs, EveryCommittedInputLoadsOrFailsCleanly) {
  const auto dir = std::filesystem::path(CORALSIM_SOURCE_DIR) / "tests/fuzz/inputs/fuzz_model_loader";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  size_t files = 0, loaded = 0, rejected = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    const auto bytes = coralsim::testing::readFile(entry.path());
    // Both names: the extension decides whether unknown bytes may be a raw program.
    for (const char* name : {"input", "input.coral"}) {
      try {
        loadModelFromMemory(bytes, name);
        ++loaded;
      } catch (const LoadError& e) {
        ++rejected;
        EXPECT_EQ(std::string(e.what()).rfind(std::string(name) + ": ", 0), 0u) << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << entry.path().filename() << " as " << name << ": unexpected " << e.what();
      }
    }
  }
  EXPECT_GE(files, 100u) << "the generator writes ~150 inputs; is the directory complete?";
  EXPECT_GT(loaded, 0u);
  EXPECT_GT(rejected, 0u);
  std::cout << "replayed " << files << " inputs: " << loaded << " loads, " << rejected << " clean LoadErrors\n";
}

}  // namespace
}  // namespace coralsim::driver::driver_fuzz_inputs_test
