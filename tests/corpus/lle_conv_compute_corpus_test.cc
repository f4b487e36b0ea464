// The convolution compute's fields against the corpus (docs/decoding-log.md "convmac"): for every
// compute the kernel of models/lle/conv_compute.h accepts (4 lanes, nests that agree, more than one
// iteration per output) and that reads its input from narrow unit 0, three facts that do not come
// from the fields it is built from:
//   - its input nest (Nest37 with the carries) reaches exactly units 0 .. E - 1, where E is the input
//     address (ComputeInputAt4) of the program's first compute with one: where the input pop lands,
//     right after the padded grid the identity computes fill ("identform" §B);
//   - its output nest starts there too (the results go behind the grid, "convcompute" §B);
//   - the parameter prefix (ComputeParamPrefix) and the weight groups its weight nest (Nest29)
//     reaches, 4 x lanes bytes each (ComputeLaneGroups), end inside the last 64 bytes of the
//     program's PARAMETER_CACHING parameters (the stream is padded to 64 bytes).
// Found by structure over the whole corpus, no program named. Decode set: the rubensrech 32² and 64²
// 3 x 3 and 256² 40 x 40 convolutions; the rest held out (32² 6 x 6, 500², 512², the depthwise ones).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/conv_compute.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_conv_compute_corpus_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

struct Tally {
  size_t candidates = 0, gridExact = 0, outputAfter = 0, paramsFit = 0, all = 0;
};

// Reads the fields with ComputeParamPrefix moved by `prefixShift` bits (the control: 0 is the decode).
Tally tally(int prefixShift, bool print) {
  Tally t;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    std::vector<size_t> parameterSizes;
    for (const Executable* e : allExecutables(model)) {
      if (e->type == ExecutableType::ParameterCaching && !e->parameters.empty()) parameterSizes.push_back(e->parameters.size());
    }
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      uint64_t gridEnd = 0;  // the input address of the first compute that has one
      for (const models::DecodedPacket& p : program.packets()) {
        if (static_cast<uint8_t>(p.opcode) != 0x01 || p.words.size() < 17) continue;
        const uint64_t inputAt4 = readField(p.words, LleField::ComputeInputAt4);
        if (gridEnd == 0) gridEnd = inputAt4;
        lle::ConvCompute conv = lle::ConvCompute::fromPacket(p.words);
        if (prefixShift != 0) {
          const uint32_t lsb = lle::fieldDef(LleField::ComputeParamPrefix).lsb + static_cast<uint32_t>(prefixShift);
          conv.prefix = static_cast<unsigned>(p.words[lsb / 128].bits(lsb % 128, 2));
        }
        if (!conv.unsupported().empty() || conv.reduction() < 2 || inputAt4 != 0 || gridEnd == 0) continue;
        ++t.candidates;
        const bool grid = conv.input.lowestUnit() == 0 && static_cast<uint64_t>(conv.input.highestUnit()) + 1 == gridEnd;
        const bool after = static_cast<uint64_t>(conv.output.firstUnit) == gridEnd;
        const uint64_t end = conv.prefixBytes() + (static_cast<uint64_t>(conv.weights.highestUnit()) + 1) * conv.groupBytes();
        bool fits = false;
        for (size_t size : parameterSizes) fits = fits || (end <= size && end + 64 > size);
        t.gridExact += grid;
        t.outputAfter += after;
        t.paramsFit += fits;
        t.all += grid && after && fits;
        if (print && grid) {
          std::printf("  %s: reduction %llu, outputs %llu, prefix %u, weights end %llu, input reaches %lld (E %llu)%s%s%s\n",
                      path.filename().string().c_str(), static_cast<unsigned long long>(conv.reduction()),
                      static_cast<unsigned long long>(conv.outputs()), conv.prefix, static_cast<unsigned long long>(end),
                      static_cast<long long>(conv.input.highestUnit()) + 1, static_cast<unsigned long long>(gridEnd),
                      grid ? "" : " [grid differs]", after ? "" : " [output elsewhere]", fits ? "" : " [parameters differ]");
        }
      }
    });
  });
  return t;
}

TEST(LleCorpus, TheConvolutionComputesNestsReachTheGridAndTheirWeightsEndWithTheParameters) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  const Tally t = tally(0, true);
  std::printf("convolution computes the kernel accepts: %zu; input nest = the grid %zu, output after it %zu, "
              "prefix + weights end with the parameters %zu, all three %zu\n",
              t.candidates, t.gridExact, t.outputAfter, t.paramsFit, t.all);
  ASSERT_GT(t.candidates, 0u) << "no convolution compute: the corpus lost its convolutions";
  // Decode set 3, held out 5 (32² 6 x 6, 500², 512², depthwise 256², 500²).
  EXPECT_GE(t.all, 8u);
  // The control: the prefix field read one bit higher puts the depthwise weights 16 bytes early.
  const Tally shifted = tally(1, false);
  std::printf("control, ComputeParamPrefix read one bit higher: parameters end %zu, all three %zu\n", shifted.paramsFit, shifted.all);
  EXPECT_LT(shifted.paramsFit, t.paramsFit) << "the parameter check does not depend on ComputeParamPrefix";
}

}  // namespace
}  // namespace coralsim::driver::lle_conv_compute_corpus_test
