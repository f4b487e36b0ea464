// The evidence behind the 0x13 stream tag (docs/decoding-log.md "form13" §D), checked on every corpus
// program: a sent read's Stage13Channel equals the Dma10Channel of the 0x10 send issued last before it
// on its tiles, and a kept read's equals the compute's w7[74:63] when that compute directly follows
// it. The rung compares the tags at the outfeed send and at the computes that take a kept read (the
// identity copy and the element-wise form: ComputeStreamTag, docs/decoding-log.md "w7ident" §A); this
// test keeps the corpus-wide pairing that made the fields tags rather than values, and that every
// one-byte identity compute directly after a kept read names its stream. It also shows that it can fail: with the field read one
// bit higher (w2[93:82]) almost no pair agrees.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <set>
#include <span>
#include <string>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"
#include "traces/sha256.h"

namespace coralsim::driver::lle_stream_tag_test {
namespace {

using coralsim::testing::forEachDecodedChunk;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
namespace fs = std::filesystem;
using lle::readField;

struct Pairs {
  size_t sent = 0, sentAgree = 0, sentAgreeShifted = 0;
  size_t kept = 0, keptAgree = 0, keptAgreeShifted = 0;
  size_t keptIdentity = 0, keptIdentityAgree = 0;  // the pairs whose compute has one-byte input elements
};

uint64_t computeTag(const models::DecodedPacket& compute) { return readField(compute.words, LleField::ComputeStreamTag); }

void countPairs(std::span<const models::DecodedPacket> packets, Pairs& pairs) {
  for (size_t i = 0; i < packets.size(); ++i) {
    const models::DecodedPacket& read = packets[i];
    if (read.action != models::PacketAction::kIssue || static_cast<uint8_t>(read.opcode) != 0x13) continue;
    const uint64_t tag = readField(read.words, LleField::Stage13Channel);
    const uint64_t shifted = read.words[2].bits(82, 12);
    const bool sent = readField(read.words, LleField::Stage13Route, 0) == 1 && readField(read.words, LleField::Stage13Route, 1) == 1;
    const bool kept = readField(read.words, LleField::Stage13Route, 0) == 0 && readField(read.words, LleField::Stage13Route, 1) == 0;
    if (sent) {
      for (size_t j = i; j-- > 0;) {
        const models::DecodedPacket& p = packets[j];
        if (static_cast<uint8_t>(p.opcode) != 0x10 || !(p.tileMask & read.tileMask)) continue;
        const uint64_t sendTag = readField(p.words, LleField::Dma10Channel);
        ++pairs.sent;
        pairs.sentAgree += sendTag == tag;
        pairs.sentAgreeShifted += sendTag == shifted;
        break;
      }
    } else if (kept) {
      for (size_t j = i + 1; j < packets.size(); ++j) {
        const models::DecodedPacket& p = packets[j];
        if (!p.tilePacket || !(p.tileMask & read.tileMask)) continue;
        const auto op = static_cast<uint8_t>(p.opcode);
        if (op == 0x13) break;  // another read on these tiles first: not a direct pair
        if (op != 0x01) continue;
        ++pairs.kept;
        pairs.keptAgree += computeTag(p) == tag;
        pairs.keptAgreeShifted += computeTag(p) == shifted;
        if (readField(p.words, LleField::ComputeInputBytes) == 1 && readField(p.words, LleField::ComputeInputBytesCode) == 1) {
          ++pairs.keptIdentity;
          pairs.keptIdentityAgree += computeTag(p) == tag;
        }
        break;
      }
    }
  }
}

TEST(LleCorpus, ReadsAndTheirConsumersNameTheSameStream) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  Pairs pairs;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path&, const ModelFile& model) {
    forEachDecodedChunk(model, [&](size_t, const models::DecodedProgram& program) { countPairs(program.packets(), pairs); });
  });
  std::printf("sent reads with an earlier 0x10 on their tiles: %zu, same tag %zu (read one bit higher: %zu)\n"
              "kept reads directly followed by a compute: %zu, same tag as its ComputeStreamTag %zu (one bit higher: %zu)\n"
              "of them followed by a one-byte identity compute: %zu, same tag %zu\n",
              pairs.sent, pairs.sentAgree, pairs.sentAgreeShifted, pairs.kept, pairs.keptAgree, pairs.keptAgreeShifted,
              pairs.keptIdentity, pairs.keptIdentityAgree);
  ASSERT_GT(pairs.sent, 0u);
  ASSERT_GT(pairs.kept, 0u);
  EXPECT_GE(pairs.sentAgree * 100, pairs.sent * 90) << "sent reads and their sends no longer share a tag";
  EXPECT_GE(pairs.keptAgree * 100, pairs.kept * 80) << "kept reads and their computes no longer share a tag";
  EXPECT_LT(pairs.sentAgreeShifted * 2, pairs.sent) << "the check could not tell the field from its neighbour";
  // The identity copy refuses a stream other than its kept read's: every corpus pair must agree.
  ASSERT_GT(pairs.keptIdentity, 0u);
  EXPECT_EQ(pairs.keptIdentityAgree, pairs.keptIdentity) << "an identity compute names another stream than the read kept for it";
}

}  // namespace
}  // namespace coralsim::driver::lle_stream_tag_test
