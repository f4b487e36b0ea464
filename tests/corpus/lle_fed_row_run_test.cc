// The programs whose weight-feed sends read a wide row other than 0 (docs/decoding-log.md "split2"): a
// convolution whose weights no tile holds at wide address 0 waits for its weight-feed send and takes the rows
// that send reads (its tile, Dma10Channel). Every golden model whose execution-only program holds such a send
// (a 0x10 with Dma10ToOutfeed and Dma10WeightFeed, Dma10Channel not 0) runs through the driver strictly on lle
// with each golden case's input; one that runs fully has its whole output tensors, exact size, compared with
// the golden custom-op outputs. Found by structure, no model named. The floor: one such program runs fully
// and every compared byte is exact (split_concat, 5 outputs, 384 bytes a case); the MobileNet / PoseNet /
// deeplab programs that also hold the form stop earlier, where printed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/golden_models_on_lle.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_fed_row_run_test {
namespace {

bool holdsAWeightFeedOfANonZeroRow(const ModelFile& model) {
  using lle::LleField;
  return coralsim::testing::anyExecutionOnlyPacket(model, [](const models::DecodedPacket& p) {
    return static_cast<uint8_t>(p.opcode) == 0x10 && lle::readField(p.words, LleField::Dma10ToOutfeed) != 0 &&
           lle::readField(p.words, LleField::Dma10WeightFeed) != 0 && lle::readField(p.words, LleField::Dma10Channel) != 0;
  });
}

TEST(LleCorpus, TheProgramsWhoseWeightFeedsReadANonZeroRowRunOnLleAndMatchTheGoldenWhole) {
  const auto golden = coralsim::testing::goldenDir();
  if (!golden) GTEST_SKIP() << "\n*** SKIPPED: golden data not found (set CORALSIM_GOLDEN). ***\n";
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const coralsim::testing::GoldenModelsOnLle tally =
      coralsim::testing::runSelectedGoldenModelsOnLle(*golden, *corpus, holdsAWeightFeedOfANonZeroRow);
  const size_t programs = tally.programs, fully = tally.fully;
  std::printf("programs with a weight feed of a non-zero row and golden data: %zu; fully on lle: %zu\n", programs, fully);
  ASSERT_GT(programs, 0u) << "no program with a weight feed of a non-zero row has golden data: the corpus or golden set lost them";
  EXPECT_GE(fully, 1u) << "fewer programs with a weight feed of a non-zero row run fully on lle than docs/decoding-log.md \"split2\" "
                          "reports (split_concat)";
}

}  // namespace
}  // namespace coralsim::driver::lle_fed_row_run_test
