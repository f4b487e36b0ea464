// The 0x14 write's return carry (docs/decoding-log.md "wrap14"): Stage14WrapC, the carry slot past the
// nest's level 4, is minus the offset of the nest's last unit under the odometer (write_nest.h) in every
// 0x14 of every compiled corpus program, whichever levels count. The test also shows it can fail: the
// relation it replaces (-Stage14Groups) is broken by every write whose outer levels carry its last unit
// away from level 0's (the PoseNet / BodyPix decoders' -79 with 15 groups among them).
#include <gtest/gtest.h>

#include <cstdio>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/lle/write_nest.h"
#include "models/lle/write_nest_return.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_staging_return_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
namespace fs = std::filesystem;

TEST(LleCorpus, StagingWriteReturnCarryComesBackFromItsNestsLastUnit) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t writes = 0, outerLevelsCount = 0, notMinusGroups = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        if (static_cast<uint8_t>(p.opcode) != 0x14) continue;
        ++writes;
        EXPECT_EQ(lle::writeNestReturnProblem(p.words), "") << path << " PC " << p.pc;
        const lle::WriteNest nest = lle::WriteNest::fromPacket(p.words);
        outerLevelsCount += (nest.countingLevels() & ~1u) != 0;
        const auto groups = static_cast<int64_t>(lle::readField(p.words, LleField::Stage14Groups));
        notMinusGroups += lle::readSigned(p.words, LleField::Stage14WrapC) != -groups;
      }
    });
  });
  std::printf("%zu corpus 0x14s (%zu with an outer level counting): Stage14WrapC = minus the nest's last unit in all; "
              "-Stage14Groups would refuse %zu\n",
              writes, outerLevelsCount, notMinusGroups);
  EXPECT_GT(writes, 0u);
  EXPECT_GT(notMinusGroups, 0u) << "no write tells the return from -Stage14Groups: the test could not fail";
}

}  // namespace
}  // namespace coralsim::driver::lle_staging_return_test
