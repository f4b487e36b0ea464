// The programs whose tiles keep a stream and put it back (docs/decoding-log.md "dma14"): every golden model
// whose execution-only program holds a kept-stream write (a 0x14 with words 4 and 5 zero,
// models/lle/kept_stream_write.h) runs through the driver strictly on lle with each golden case's input; one
// that runs fully has its whole output tensor, exact size, compared with the golden custom-op output (the
// fp32-requantisation variant where the folder has one: golden/README.md "Which variant"). Found by
// structure, no model named. The floor: two such programs run fully and every compared byte is exact --
// conv 1024^2 40 x 40 (the decode set of the kept-stream write: 1,048,576 / 1,048,576 bytes) and depthwise
// 1024^2 20 x 20 x 3 (held out: 3,145,728 / 3,145,728, its input window bounded by its reach, "dma14" §E);
// the PoseNet / BodyPix / MobileNet v2 programs that also hold the form stop earlier, where printed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include "driver/model/model_loader.h"
#include "models/lle/kept_stream_write.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/golden_models_on_lle.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_kept_stream_run_test {
namespace {

bool holdsAKeptStreamWrite(const ModelFile& model) {
  return coralsim::testing::anyExecutionOnlyPacket(
      model, [](const models::DecodedPacket& p) { return static_cast<uint8_t>(p.opcode) == 0x14 && lle::isKeptStreamWrite(p.words); });
}

TEST(LleCorpus, TheProgramsThatPutBackAKeptStreamRunOnLleAndMatchTheGoldenWhole) {
  const auto golden = coralsim::testing::goldenDir();
  if (!golden) GTEST_SKIP() << "\n*** SKIPPED: golden data not found (set CORALSIM_GOLDEN). ***\n";
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const coralsim::testing::GoldenModelsOnLle tally =
      coralsim::testing::runSelectedGoldenModelsOnLle(*golden, *corpus, holdsAKeptStreamWrite);
  const size_t programs = tally.programs, fully = tally.fully;
  std::printf("programs with a kept-stream write and golden data: %zu; fully on lle: %zu\n", programs, fully);
  ASSERT_GT(programs, 0u) << "no program with a kept-stream write has golden data: the corpus or golden set lost them";
  EXPECT_GE(fully, 2u) << "fewer programs with a kept-stream write run fully on lle than docs/decoding-log.md \"dma14\" reports "
                          "(conv and depthwise 1024^2)";
}

}  // namespace
}  // namespace coralsim::driver::lle_kept_stream_run_test
