// The compute's parameter-block mark w12[106:91] (lle_fields.def ComputeParamBlockMark, docs/decoding-log.md
// "w12mn") over every distinct corpus program: read as the running number of the compute's first parameter block
// along its chunk, it never goes down from one compute to the next that carries one (0 = none, skipped) except
// where the count restarts at 1. The test prints how many steps rise, stay and restart (the figures the log
// quotes) and wants all three present (else the reading would be tested on nothing). Read one bit lower (from
// w12 bit 90) or higher (from bit 92) the restarts are no longer at 1 and count as steps down (checked with a
// throwaway scan of the same walk: 211 of them either way), so the test fails on a misplaced field.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_param_block_mark_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

TEST(LleCorpus, TheComputesParameterBlockMarkRunsUpAlongEachChunkOrRestartsAtOne) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t marked = 0, rises = 0, stays = 0, restarts = 0, largest = 0;
  std::map<std::string, size_t> drops;  // program -> steps that go down to a number other than 1
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      uint64_t previous = 0;
      for (const models::DecodedPacket& p : program.packets()) {
        if (static_cast<uint8_t>(p.opcode) != 0x01 || p.words.size() <= 12) continue;
        const uint64_t mark = readField(p.words, LleField::ComputeParamBlockMark);
        if (mark == 0) continue;
        ++marked;
        largest = std::max<size_t>(largest, mark);
        if (previous != 0) {
          if (mark > previous) ++rises;
          else if (mark == previous) ++stays;
          else if (mark == 1) ++restarts;
          else ++drops[path.filename().string()];
        }
        previous = mark;
      }
    });
  });
  std::printf("computes with a mark %zu (largest %zu); steps: rise %zu, stay %zu, restart at 1 %zu\n", marked, largest, rises, stays, restarts);
  for (const auto& [name, n] : drops) std::printf("  %zu steps down in %s\n", n, name.c_str());
  ASSERT_GT(marked, 1000u);
  EXPECT_TRUE(drops.empty());
  EXPECT_GT(rises, 0u);
  EXPECT_GT(stays, 0u);
  EXPECT_GT(restarts, 0u);
}

}  // namespace
}  // namespace coralsim::driver::lle_param_block_mark_test
