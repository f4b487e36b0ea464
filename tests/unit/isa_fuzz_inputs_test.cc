// Replays the committed inputs of the ISA fuzz targets (tests/fuzz/inputs/fuzz_segmenter and
// fuzz_assembler, made by tests/fuzz/generators/make_isa_fuzz_inputs from programs our assembler
// produced) through the same harness the fuzz targets run: each must succeed or end in the ISA
// layer's own error types, and the round-trip properties must hold.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/fuzz/isa_fuzz_harness.h"
#include "tests/support/corpus.h"

namespace coralsim::isa::isa_fuzz_inputs_test {
namespace {

std::vector<std::filesystem::path> inputsOf(const char* target) {
  const auto dir = std::filesystem::path(CORALSIM_SOURCE_DIR) / "tests/fuzz/inputs" / target;
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(IsaFuzzInputs, SegmenterInputsEndInSuccessOrSegmentError) {
  const auto files = inputsOf("fuzz_segmenter");
  EXPECT_GE(files.size(), 90u) << "the generator writes 100 inputs; is the directory complete?";
  size_t framed = 0, rejected = 0;
  for (const auto& f : files) {
    const auto bytes = testing::readFile(f);
    EXPECT_EQ(fuzz::exerciseBitstream(bytes), std::nullopt) << f.filename();
    try {
      (void)segmentProgram(wordsFromBytes(std::span(bytes).first(bytes.size() - bytes.size() % 16)));
      ++framed;
    } catch (const SegmentError&) {
      ++rejected;
    }
  }
  EXPECT_GT(framed, 0u);
  EXPECT_GT(rejected, 0u);
  std::cout << "replayed " << files.size() << " bitstreams: " << framed << " well framed, " << rejected
            << " clean SegmentErrors\n";
}

TEST(IsaFuzzInputs, AssemblerInputsEndInSuccessOrAsmError) {
  const auto files = inputsOf("fuzz_assembler");
  EXPECT_GE(files.size(), 30u);
  size_t assembled = 0, rejected = 0;
  for (const auto& f : files) {
    const auto bytes = testing::readFile(f);
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    EXPECT_EQ(fuzz::exerciseAssembler(text), std::nullopt) << f.filename();
    try {
      (void)assemble(text, f.filename().string());
      ++assembled;
    } catch (const AsmError& e) {
      ++rejected;
      EXPECT_TRUE(std::string(e.what()).starts_with(f.filename().string() + ":")) << e.what();
      EXPECT_GE(e.line(), 1u);
      EXPECT_GE(e.column(), 1u);
    }
  }
  EXPECT_GT(assembled, 0u);
  EXPECT_GT(rejected, 0u);
  std::cout << "replayed " << files.size() << " texts: " << assembled << " assembled, " << rejected
            << " clean AsmErrors\n";
}

}  // namespace
}  // namespace coralsim::isa::isa_fuzz_inputs_test
