// The identity copy's lines (docs/decoding-log.md "level2copy" §A): in a one-byte-element compute the
// w0 nest's level 2 (ComputeLimitW0[1] + 1 = M) counts the image rows a staging pass holds, and the same
// count is the input nest's level 2 (ComputePositions) and the output nest's level 1
// (ComputeOutPositions). Where the copy's walk is the one the rung executes (level-3 stride 0), the
// input nest's level-2 stride S -- what IdentityCopy::fromPacket reads as the bytes between two lines --
// is one row of the executable's input image, W x C bytes (the input layer's x and z dimensions).
// Decode set: PoseNet 353x481 (older compile) and DeepLab v3 mnv2 dm05; every other copy is held out.
// The control compares S with one pixel more, (W + 1) x C.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "driver/model/model_loader.h"
#include "models/isa/word128.h"
#include "models/lle/identity_copy.h"
#include "models/lle/input_byte_walk.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_identity_lines_test {
namespace {

using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

struct Tally {
  size_t oneByte = 0, sameCount = 0, withLines = 0, walked = 0, imageRow = 0, control = 0;
};

TEST(LleCorpus, AnIdentityCopysLinesAreRowsOfTheInputImage) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  Tally t;
  coralsim::testing::forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path&, const ModelFile& model) {
    coralsim::testing::forEachDecodedBitstream(model, [&](const Executable& e, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        if (p.action != models::PacketAction::kIssue || static_cast<uint8_t>(p.opcode) != 0x01) continue;
        if (readField(p.words, LleField::ComputeInputBytes) != 1) continue;
        ++t.oneByte;
        const uint64_t m = readField(p.words, LleField::ComputeLimitW0, 1);
        t.sameCount += readField(p.words, LleField::ComputePositions) == m && readField(p.words, LleField::ComputeOutPositions) == m;
        if (m == 0) continue;
        ++t.withLines;
        if (lle::InputByteWalk::fromPacket(p.words, 1).strideBytes[3] != 0 || e.inputLayers.size() != 1) continue;
        ++t.walked;
        const Layer& image = e.inputLayers.front();
        const uint64_t s = lle::IdentityCopy::fromPacket(p.words).lineStrideBytes;
        t.imageRow += s == static_cast<uint64_t>(image.xDim) * static_cast<uint64_t>(image.zDim);
        t.control += s == static_cast<uint64_t>(image.xDim + 1) * static_cast<uint64_t>(image.zDim);
      }
    });
  });
  std::printf("one-byte computes %zu, w0 level 2 = ComputePositions = ComputeOutPositions in %zu; with lines (M > 1) %zu, "
              "walked with level-3 stride 0 %zu: line stride = W x C of the input image in %zu (control (W + 1) x C: %zu)\n",
              t.oneByte, t.sameCount, t.withLines, t.walked, t.imageRow, t.control);
  ASSERT_GE(t.walked, 100u);  // measured 2026-11-26: 150 of 152 copies with lines
  EXPECT_EQ(t.sameCount, t.oneByte);
  EXPECT_EQ(t.imageRow, t.walked);
  EXPECT_EQ(t.control, 0u);
}

}  // namespace
}  // namespace coralsim::driver::lle_identity_lines_test
