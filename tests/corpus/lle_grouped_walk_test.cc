// The grouped walk without bit 117 (docs/decoding-log.md "kstride", models/lle/field_relations.h isGroupedWalk):
// over every distinct corpus program, the computes whose Nest37 level 0 counts K groups while the w0 nest's K level
// runs once and whose ComputeUnrequantisedCopy is clear (the element-wise templates' unrequantised passes:
// model_dense's 0x012c, MobileNet v2 wo_fc, the PoseNet decoders, deeplab, voice_commands) each write one lane
// group a K group (ComputeLaneGroups = ComputeK4W1, what the walked executor requires) and count those groups one
// an iteration at the w0 nest's level 1 (ComputeLimitW0[0] = ComputeK4W1). The test prints the count (the figure
// the log quotes) and wants every such compute to have that shape, and some to exist (else it tests nothing).
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_grouped_walk_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

TEST(LleCorpus, EveryGroupedWalkWithoutTheCopyBitWritesOneLaneGroupAGroupCountedByTheW0Nest) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t walks = 0;
  std::map<std::string, size_t> otherShapes;  // program: computes of another shape
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        if (static_cast<uint8_t>(p.opcode) != 0x01 || p.words.size() <= 12) continue;
        if (!lle::isGroupedWalk(p.words) || readField(p.words, LleField::ComputeUnrequantisedCopy) != 0) continue;
        ++walks;
        const uint64_t groups = readField(p.words, LleField::ComputeK4W1);
        if (readField(p.words, LleField::ComputeLaneGroups) != groups || readField(p.words, LleField::ComputeLimitW0, 0) != groups) {
          ++otherShapes[path.filename().string()];
        }
      }
    });
  });
  std::printf("grouped walks without bit 117: %zu\n", walks);
  for (const auto& [program, n] : otherShapes) std::printf("  of another shape in %s: %zu\n", program.c_str(), n);
  EXPECT_GT(walks, 50u);
  EXPECT_TRUE(otherShapes.empty());
}

}  // namespace
}  // namespace coralsim::driver::lle_grouped_walk_test
