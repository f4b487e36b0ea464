// The 0x03 chains' normalisation forms over the corpus (docs/decoding-log.md "trk16"): every broadcast copy
// (two_byte_element_broadcast.h) names an element width of 1 or 2 bytes by its idle Nest37 carries, and every compute of
// the weighing-by-a-kept-operand marks (kept_operand_weighing.h) has that form's counts (the 10- and 1,001-class ones
// writing fewer iterations than positions x K: the last position's later K steps dropped). Decode set: bright 64^2 (its
// 0x0390 / 0x0949 and 0x09cb); held out: every other program (the twelve colour templates, bright 128^2, MobileNet v1,
// the ensemble, nin_cnn). Static: the packets' fields, no run.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <variant>

#include "driver/model/model_file.h"
#include "models/lle/kept_operand_weighing.h"
#include "models/lle/two_byte_element_broadcast.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_softmax_normalisation_scan_test {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::forEachDistinctCorpusModel;
using coralsim::testing::forEachIssuedCompute;

struct Counts {
  size_t byteBroadcasts = 0, twoByteBroadcasts = 0, otherWidth = 0;
  size_t weighings = 0, weighingsAccepted = 0;
};

TEST(LleCorpus, TheBroadcastCopiesNameOneOrTwoByteElementsAndTheKeptOperandWeighingsHaveTheFormsCounts) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  Counts decode, heldOut;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    Counts& into = path.filename() == "bright_64x64_edgetpu.tflite" ? decode : heldOut;
    forEachIssuedCompute(model, [&](const models::DecodedPacket& p) {
      if (lle::TwoByteElementBroadcast::isBroadcastCopy(p.words)) {
        const auto width = lle::TwoByteElementBroadcast::elementBytes(p.words);
        const uint64_t bytes = std::holds_alternative<uint64_t>(width) ? std::get<uint64_t>(width) : 0;
        (bytes == 1 ? into.byteBroadcasts : bytes == 2 ? into.twoByteBroadcasts : into.otherWidth) += 1;
        EXPECT_TRUE(bytes == 1 || bytes == 2) << path.filename().string() << " @ 0x" << std::hex << p.pc << ": "
                                              << (bytes == 0 ? std::get<std::string>(width) : std::to_string(bytes) + " bytes");
      }
      if (lle::KeptOperandWeighing::isForm(p.words)) {
        ++into.weighings;
        const auto form = lle::KeptOperandWeighing::fromPacket(p.words);
        into.weighingsAccepted += form.index() == 0 ? 1 : 0;
        EXPECT_EQ(form.index(), 0u) << path.filename().string() << " @ 0x" << std::hex << p.pc << ": "
                                    << (form.index() == 1 ? std::get<std::string>(form) : "");
      }
    });
  });
  std::printf("decode set (bright 64^2): broadcast copies of 1-byte elements %zu, 2-byte %zu, other %zu; kept-operand weighings %zu / %zu "
              "with the form's counts\nheld out: broadcast copies of 1-byte elements %zu, 2-byte %zu, other %zu; kept-operand weighings %zu / %zu\n",
              decode.byteBroadcasts, decode.twoByteBroadcasts, decode.otherWidth, decode.weighingsAccepted, decode.weighings, heldOut.byteBroadcasts,
              heldOut.twoByteBroadcasts, heldOut.otherWidth, heldOut.weighingsAccepted, heldOut.weighings);
  ASSERT_EQ(decode.twoByteBroadcasts, 1u) << "bright 64^2 not in the corpus, or its 0x0949 not found";
  EXPECT_GT(heldOut.twoByteBroadcasts, 10u);
  EXPECT_GT(heldOut.weighings, 10u);
}

}  // namespace
}  // namespace coralsim::driver::lle_softmax_normalisation_scan_test
