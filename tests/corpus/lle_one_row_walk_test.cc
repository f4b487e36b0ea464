// The one-row partial-sum walk held out (docs/decoding-log.md "mnv1psum"; models/lle/one_row_walk.h): a compute that keeps
// partial sums in a row with no carry in any slot of its w10 nest splits its K reduction over the nest's level 1, so the
// compute-feeding 0x14 last before it on each of its tiles says half level 1's count (Stage14SplitPassPairs). The rule was
// read off the decode set (MobileNet v1 0.25 128 and 0.75 192); every other corpus program is held out (the 1.0 224
// embedding extractor, the co-compiles, ensemble, nin_cnn). Every tile-feed must agree; the control reads the passes at
// level 2 instead, which must disagree somewhere (the MobileNet computes count 4 / 8 / 16 / 32 passes over 4 / 12 / 16
// output groups), so the count can fail.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <span>
#include <string>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/lle/one_row_walk.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_one_row_walk_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

constexpr std::array<const char*, 2> kDecodeSet = {
    "mobilenet_v1_0.25_128_quant_edgetpu.tflite",
    "mobilenet_v1_0.75_192_quant_edgetpu.tflite",
};

struct FeedCounts {
  size_t computes = 0, feeds = 0, agree = 0, controlAgree = 0;
};

void countFeeds(std::span<const models::DecodedPacket> packets, FeedCounts& counts) {
  std::array<std::optional<uint64_t>, 16> pairs{};  // the last 0x14's pass pairs on each tile (nullopt: not compute-feeding)
  for (const models::DecodedPacket& p : packets) {
    if (p.action != models::PacketAction::kIssue || !p.tilePacket) continue;
    const auto op = static_cast<uint8_t>(p.opcode);
    if (op == 0x14) {
      for (unsigned t = 0; t < pairs.size(); ++t) {
        if (!(p.tileMask & (1u << t))) continue;
        pairs[t] = readField(p.words, LleField::Stage14FeedsCompute) != 0 ? std::optional(readField(p.words, LleField::Stage14SplitPassPairs))
                                                                          : std::nullopt;
      }
      continue;
    }
    if (op != 0x01 || !lle::keepsSumsInOneRow(p.words)) continue;
    if (readField(p.words, LleField::ComputeLimitW10, 0) == 0 && readField(p.words, LleField::ComputeLimitW10, 1) == 0) continue;
    ++counts.computes;
    for (unsigned t = 0; t < pairs.size(); ++t) {
      if (!(p.tileMask & (1u << t))) continue;
      ++counts.feeds;
      counts.agree += pairs[t] == lle::oneRowWalkPasses(p.words) / 2 ? 1 : 0;
      counts.controlAgree += pairs[t] == (readField(p.words, LleField::ComputeLimitW10, 1) + 1) / 2 ? 1 : 0;
    }
  }
}

TEST(LleCorpus, TheOneRowWalksFeedingWritesSayHalfLevelOnesPassesHeldOutAsInTheDecodeSet) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<std::string, FeedCounts> byProgram;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    FeedCounts counts;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) { countFeeds(program.packets(), counts); });
    if (counts.computes != 0) byProgram[path.string()] = counts;  // by path: two programs may share a file name
  });
  FeedCounts decode, heldOut;
  size_t decodePrograms = 0, heldOutPrograms = 0;
  for (const auto& [name, c] : byProgram) {
    const std::string shown = fs::path(name).filename().string();
    bool inDecodeSet = false;
    for (const char* program : kDecodeSet) inDecodeSet = inDecodeSet || shown == program;
    std::printf("%-70.70s %-9s computes %3zu tile-feeds %4zu agree %4zu; control (level 2) agrees %4zu\n", shown.c_str(),
                inDecodeSet ? "decode" : "held out", c.computes, c.feeds, c.agree, c.controlAgree);
    FeedCounts& into = inDecodeSet ? decode : heldOut;
    into.computes += c.computes;
    into.feeds += c.feeds;
    into.agree += c.agree;
    into.controlAgree += c.controlAgree;
    (inDecodeSet ? decodePrograms : heldOutPrograms) += 1;
  }
  std::printf("decode set (%zu programs): %zu computes, %zu / %zu tile-feeds agree; held out (%zu programs): %zu computes, %zu / %zu; "
              "control %zu / %zu\n",
              decodePrograms, decode.computes, decode.agree, decode.feeds, heldOutPrograms, heldOut.computes, heldOut.agree, heldOut.feeds,
              decode.controlAgree + heldOut.controlAgree, decode.feeds + heldOut.feeds);
  ASSERT_EQ(decodePrograms, kDecodeSet.size()) << "the decode set's programs not found or without one-row walks";
  ASSERT_GE(heldOutPrograms, 3u);
  EXPECT_EQ(decode.agree, decode.feeds);
  EXPECT_EQ(heldOut.agree, heldOut.feeds) << "a held-out one-row walk's feeding write does not say half its level-1 passes";
  EXPECT_LT(decode.controlAgree + heldOut.controlAgree, decode.feeds + heldOut.feeds) << "the control passed: the check cannot fail";
}

}  // namespace
}  // namespace coralsim::driver::lle_one_row_walk_test
