// The evidence behind Dma10OutfeedForm (docs/decoding-log.md "splitpad" §A), checked on every corpus
// program: a host-bound send (Dma10ToOutfeed) paired in program order with the 0x27s of its chunk (the
// k-th send with the k-th 0x27, whichever comes first — the lle rung's own pairing) names 2, 2 in
// w2[93:92] / w2[85:84] when that 0x27 is of the line format (w0 bit 120 clear) and, mostly, 1, 1 when it
// is nested. The rung refuses a send whose form does not match a line-format 0x27, so every corpus pair
// of that format must agree; the test also shows it can fail: read one bit higher, the slots agree with
// 2, 2 in no line-format pair.
#include <gtest/gtest.h>

#include <cstdio>
#include <span>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_outfeed_form_test {
namespace {

using coralsim::testing::forEachDecodedChunk;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

constexpr uint64_t kLineForm = 2;
constexpr uint64_t kNestedForm = 1;

struct FormPairs {
  size_t line = 0, lineAgree = 0, lineAgreeShifted = 0;
  size_t nested = 0, nestedAgree = 0;
  size_t chunksLeftOut = 0;
};

// The 0x27's format: nested when bit 27 (a single line or the nested format) and bit 120 are set.
bool nestedOutfeed(const models::DecodedPacket& outfeed) {
  return readField(outfeed.words, LleField::OutfeedSingleLine) != 0 && outfeed.words[0].bits(120, 1) != 0;
}

void countPairs(std::span<const models::DecodedPacket> packets, FormPairs& pairs) {
  std::vector<const models::DecodedPacket*> sends, outfeeds;
  for (const models::DecodedPacket& p : packets) {
    const auto op = static_cast<uint8_t>(p.opcode);
    if (op == 0x10 && readField(p.words, LleField::Dma10ToOutfeed) != 0) sends.push_back(&p);
    if (op == 0x27) outfeeds.push_back(&p);
  }
  if (sends.size() != outfeeds.size()) {
    ++pairs.chunksLeftOut;
    return;
  }
  for (size_t k = 0; k < sends.size(); ++k) {
    const models::DecodedPacket& send = *sends[k];
    const uint64_t low = readField(send.words, LleField::Dma10OutfeedForm, 0);
    const uint64_t high = readField(send.words, LleField::Dma10OutfeedForm, 1);
    const auto names = [&](uint64_t form) { return low == form && high == form; };
    if (nestedOutfeed(*outfeeds[k])) {
      ++pairs.nested;
      pairs.nestedAgree += names(kNestedForm);
    } else {
      ++pairs.line;
      pairs.lineAgree += names(kLineForm);
      pairs.lineAgreeShifted += send.words[2].bits(85, 2) == kLineForm && send.words[2].bits(93, 2) == kLineForm;
    }
  }
}

TEST(LleCorpus, HostBoundSendsNameTheOutfeedFormatTheyMeet) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  FormPairs pairs;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path&, const ModelFile& model) {
    forEachDecodedChunk(model, [&](size_t, const models::DecodedProgram& program) {
      countPairs(program.packets(), pairs);
    });
  });
  std::printf("host-bound sends paired with a line-format 0x27: %zu, naming 2, 2: %zu (read one bit higher: %zu)\n"
              "paired with a nested 0x27: %zu, naming 1, 1: %zu; chunks left out (counts differ): %zu\n",
              pairs.line, pairs.lineAgree, pairs.lineAgreeShifted, pairs.nested, pairs.nestedAgree, pairs.chunksLeftOut);
  ASSERT_GT(pairs.line, 0u);
  ASSERT_GT(pairs.nested, 0u);
  EXPECT_EQ(pairs.lineAgree, pairs.line) << "a send meeting a line-format outfeed names another form: the rung would refuse it";
  EXPECT_GE(pairs.nestedAgree * 100, pairs.nested * 85) << "sends meeting a nested outfeed no longer name 1, 1";
  EXPECT_LT(pairs.lineAgreeShifted * 2, pairs.line) << "the check could not tell the field from its neighbour";
}

}  // namespace
}  // namespace coralsim::driver::lle_outfeed_form_test
