// The shape of the compute's word 12 (docs/decoding-log.md "w12lo", models/lle/word12_form.h) over every
// distinct corpus program: bits 82 and 45 agree, are set exactly where w12[81:64] holds an image row and clear
// only where w12[81:48] is zero, and the code w12[31:27] is 0 or odd. The test prints how many computes carry
// each side (the figures the log quotes) and wants every compute of the corpus to have the form the rung checks,
// with both values of the flag and of the code's written bit present (else the check would test nothing).
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/lle/word12_form.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_word12_form_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

TEST(LleCorpus, EveryComputesWordTwelveHasTheFormTheRungChecks) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t computes = 0;
  std::map<std::pair<uint64_t, uint64_t>, size_t> byFlagAndCode;  // (ComputeImagePositionsOn, ComputeCodeW12)
  std::map<std::string, size_t> problems;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path&, const ModelFile& model) {
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        if (static_cast<uint8_t>(p.opcode) != 0x01 || p.words.size() <= 12) continue;
        ++computes;
        ++byFlagAndCode[{readField(p.words, LleField::ComputeImagePositionsOn), readField(p.words, LleField::ComputeCodeW12)}];
        if (const std::string why = lle::word12FormProblem(p.words); !why.empty()) ++problems[why];
      }
    });
  });
  std::printf("computes %zu\n", computes);
  for (const auto& [key, n] : byFlagAndCode) std::printf("  positions flag %llu, code %llu: %zu\n", static_cast<unsigned long long>(key.first),
                                                         static_cast<unsigned long long>(key.second), n);
  for (const auto& [why, n] : problems) std::printf("  refused %zu: %s\n", n, why.c_str());
  ASSERT_GT(computes, 1000u);
  EXPECT_TRUE(problems.empty());
  size_t flagOff = 0, flagOn = 0, codeZero = 0, codeWritten = 0;
  for (const auto& [key, n] : byFlagAndCode) {
    (key.first != 0 ? flagOn : flagOff) += n;
    (key.second != 0 ? codeWritten : codeZero) += n;
  }
  EXPECT_GT(flagOff, 0u);
  EXPECT_GT(flagOn, 0u);
  EXPECT_GT(codeZero, 0u);
  EXPECT_GT(codeWritten, 0u);
}

}  // namespace
}  // namespace coralsim::driver::lle_word12_form_test
