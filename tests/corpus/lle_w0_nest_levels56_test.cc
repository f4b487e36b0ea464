// The w0 nest's levels 5 and 6 (ComputeLimitW0Levels56, w1[17:4] / w1[31:18]; docs/decoding-log.md "w1lo" §A) over
// every compute of the corpus, distinct by content: they are Nest29's levels 5 and 6
// (models/isa/compute_loop_nest.def), and the w0 nest's seven levels count Nest29's iterations
// (w0_nest_count.h). Decode set: iwatake model_conv (its 7 x 7 convolutions' 32 output columns, its last
// layer's level 6); every other program carrying a non-zero level 5 or 6 is held out and named. The
// control reads the two levels one bit higher.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "driver/model/model_loader.h"
#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"
#include "models/lle/w0_nest_count.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_w0_nest_levels56_test {
namespace {

using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

struct Tally {
  size_t computes = 0, countAgrees = 0, nonZero = 0, levelsAgree = 0, controlAgrees = 0;
};

TEST(LleCorpus, TheW0NestsLevels5And6AreNest29sAndTheSevenLevelsCountItsIterations) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<bool, Tally> bySet;  // true: the decode set
  std::set<std::string> heldOutPrograms;
  const lle::LleFieldDef& field = lle::fieldDef(LleField::ComputeLimitW0Levels56);
  coralsim::testing::forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    const bool decodeSet = path.filename().string().find("model_conv_") != std::string::npos;
    Tally& t = bySet[decodeSet];
    coralsim::testing::forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        if (p.action != models::PacketAction::kIssue || static_cast<uint8_t>(p.opcode) != 0x01) continue;
        ++t.computes;
        t.countAgrees += lle::w0NestCountProblem(p.words).empty() ? 1 : 0;
        const uint64_t level5 = readField(p.words, LleField::ComputeLimitW0Levels56, 0);
        const uint64_t level6 = readField(p.words, LleField::ComputeLimitW0Levels56, 1);
        if (level5 == 0 && level6 == 0) continue;
        ++t.nonZero;
        if (!decodeSet) heldOutPrograms.insert(path.filename().string());
        const auto nest29 = isa::readComputeNestLimits(isa::ComputeNest::Nest29, p.words);
        t.levelsAgree += level5 == nest29[5] && level6 == nest29[6] ? 1 : 0;
        const uint64_t control5 = isa::readPacketBits(p.words, field.lsb + 1, field.width);
        const uint64_t control6 = isa::readPacketBits(p.words, field.lsb + field.stride + 1, field.width);
        t.controlAgrees += control5 == nest29[5] && control6 == nest29[6] ? 1 : 0;
      }
    });
  });
  for (const bool decodeSet : {true, false}) {
    const Tally& t = bySet[decodeSet];
    std::printf("%s: computes %zu, w0 nest counts Nest29's iterations in %zu; levels 5-6 non-zero in %zu, = Nest29's levels 5-6 "
                "in %zu (control, one bit higher: %zu)\n",
                decodeSet ? "decode set (model_conv)" : "held out", t.computes, t.countAgrees, t.nonZero, t.levelsAgree,
                t.controlAgrees);
  }
  for (const std::string& name : heldOutPrograms) std::printf("  held out, carrying levels 5-6: %s\n", name.c_str());
  for (const bool decodeSet : {true, false}) {
    const Tally& t = bySet[decodeSet];
    ASSERT_GE(t.nonZero, decodeSet ? 10u : 1000u);
    EXPECT_EQ(t.countAgrees, t.computes);  // measured 2026-11-27: every corpus compute
    EXPECT_EQ(t.levelsAgree, t.nonZero);
    EXPECT_LE(t.controlAgrees * 10, t.nonZero);  // the control matches rarely
  }
  EXPECT_GE(heldOutPrograms.size(), 5u);
}

}  // namespace
}  // namespace coralsim::driver::lle_w0_nest_levels56_test
