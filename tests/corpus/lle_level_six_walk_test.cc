// The level-6 partial-sum walk held out (docs/decoding-log.md "wrap10"; models/lle/partial_sum_walk.h, conv_compute.h):
// every corpus compute under ComputeTopLevelPasses (w15 bit 12) walks its w10 nest with ComputeWrapW10[2] = +1 and no
// ComputePartialSumWalkOn -- positions at levels 3-4 a row each in the nest's order, the K passes at level 6 adding into
// the same rows -- from row 0 as from a row > 0, and its convolution (ConvCompute, the packet alone) runs each level-7
// pass as a reduction split into those K passes (the weight nest's level 6, named by the bit: read from the counts
// alone, a level of positions whose count equals the passes' would be taken for them). Decoded on MobileNet v2 wo_fc
// 224 / 512; held out: wo_fc 1024 x 512, the PoseNet 353 x 481 / 481 x 641 quant decoders, model_conv. Every compute must pass both; the control moves the
// level-6 passes one row on (ComputeWrapW10[5] + 1), which every one must then be refused for, so the check can fail.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/isa/word128.h"
#include "models/lle/conv_compute.h"
#include "models/lle/lle_fields.h"
#include "models/lle/partial_sum_walk.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_level_six_walk_test {
namespace {

using coralsim::testing::forEachDistinctCorpusModel;
using coralsim::testing::forEachIssuedCompute;
using lle::LleField;
using lle::readField;
using lle::readSigned;
namespace fs = std::filesystem;

constexpr std::array<const char*, 2> kDecodeSet = {
    "model_mobilenet_v2_wo_fc_224x224x3_edgetpu.tflite",
    "model_mobilenet_v2_wo_fc_512x512x3_edgetpu.tflite",
};

struct WalkCounts {
  size_t computes = 0, fromRowZero = 0, wrapTwoPlusOne = 0, walkAccepted = 0, levelSeven = 0, passesRun = 0, controlRefused = 0,
         misreadByCounts = 0;
};

// The same packet with the level-6 passes moved one row on: slot 5's wrap + 1.
std::vector<isa::Word128> passesMovedOneRow(std::span<const isa::Word128> words) {
  std::vector<isa::Word128> out(words.begin(), words.end());
  const lle::LleFieldDef& f = lle::fieldDef(LleField::ComputeWrapW10);
  const uint32_t lsb = f.lsb + 5 * f.stride;
  const uint64_t mask = (uint64_t{1} << f.width) - 1;
  isa::writePacketBits(out, lsb, f.width, (isa::readPacketBits(words, lsb, f.width) + 1) & mask);
  return out;
}

TEST(LleCorpus, TheLevelSixPartialSumWalkFromAnyRowHeldOutAndItsPassesRunAsSplitReductions) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<std::string, WalkCounts> byProgram;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    WalkCounts c;
    forEachIssuedCompute(model, [&](const models::DecodedPacket& p) {
      if (readField(p.words, LleField::ComputeTopLevelPasses) == 0) return;
      ++c.computes;
      c.fromRowZero += readField(p.words, LleField::ComputePartialSumRow) == 0;
      c.wrapTwoPlusOne += readSigned(p.words, LleField::ComputeWrapW10, 2) == 1 && readField(p.words, LleField::ComputePartialSumWalkOn) == 0;
      const std::string why = lle::partialSumWalkProblem(p.words);
      if (!why.empty()) std::printf("  refused: %s: %s\n", path.filename().string().c_str(), why.c_str());
      c.walkAccepted += why.empty();
      c.controlRefused += !lle::partialSumWalkProblem(passesMovedOneRow(p.words)).empty();
      // The convolution from the packet alone: accepted, and one pass's split reduction counts level 6's K passes in one
      // block. Read from the counts alone (kPassLevel 0), some split at a level of positions whose count is the passes'.
      c.levelSeven += readField(p.words, LleField::ComputeLimitW0Level7) != 0;
      const lle::ConvCompute conv = lle::ConvCompute::fromPacket(p.words);
      const std::string problem = conv.unsupported();
      if (!problem.empty()) std::printf("  convolution refused: %s: %s\n", path.filename().string().c_str(), problem.c_str());
      lle::ConvCompute one = conv;
      one.passes = 1;
      if (const auto onePass = conv.onePassOutput()) one.output = *onePass;
      const auto split = one.splitReduction();
      const uint64_t kPasses = readField(p.words, LleField::ComputeLimitW10High, 2) + 1;
      c.passesRun += problem.empty() && split && split->groups == kPasses && split->blocks == 1;
      one.kPassLevel = 0;
      const auto byCounts = one.splitReduction();
      c.misreadByCounts += !byCounts || byCounts->groups != kPasses || byCounts->blocks != 1;
    });
    if (c.computes != 0) byProgram[path.filename().string()] = c;
  });
  WalkCounts decode, heldOut;
  for (const auto& [name, c] : byProgram) {
    const bool inDecodeSet = name == kDecodeSet[0] || name == kDecodeSet[1];
    std::printf("  %-60s %s: %zu computes (%zu from row 0, %zu with ComputeWrapW10[2] = +1 and no switch), walk accepted %zu, "
                "control refused %zu; level 7 %zu; convolution accepted with level 6's K passes %zu (by the counts alone misread %zu)\n",
                name.c_str(), inDecodeSet ? "decode set" : "held out", c.computes, c.fromRowZero, c.wrapTwoPlusOne, c.walkAccepted,
                c.controlRefused, c.levelSeven, c.passesRun, c.misreadByCounts);
    WalkCounts& sum = inDecodeSet ? decode : heldOut;
    sum.computes += c.computes;
    sum.fromRowZero += c.fromRowZero;
    sum.wrapTwoPlusOne += c.wrapTwoPlusOne;
    sum.walkAccepted += c.walkAccepted;
    sum.controlRefused += c.controlRefused;
    sum.levelSeven += c.levelSeven;
    sum.passesRun += c.passesRun;
    sum.misreadByCounts += c.misreadByCounts;
  }
  for (const WalkCounts* s : {&decode, &heldOut}) {
    EXPECT_EQ(s->wrapTwoPlusOne, s->computes);
    EXPECT_EQ(s->walkAccepted, s->computes);
    EXPECT_EQ(s->controlRefused, s->computes);
    EXPECT_EQ(s->passesRun, s->computes);
  }
  // Measured (2026-11-28, throwaway scan of the 106 corpus files): decode set 101 computes (81 from row 0, 79 with level 7),
  // held out 107 (98 from row 0, 71 with level 7).
  EXPECT_EQ(decode.computes, 101u);
  EXPECT_EQ(decode.fromRowZero, 81u);
  EXPECT_EQ(decode.levelSeven, 79u);
  EXPECT_GE(heldOut.computes, 100u);
  EXPECT_GE(heldOut.fromRowZero, 90u);
  EXPECT_GE(heldOut.levelSeven, 60u);
  EXPECT_GT(decode.misreadByCounts + heldOut.misreadByCounts, 0u) << "the named level decides nothing the counts do not";
}

}  // namespace
}  // namespace coralsim::driver::lle_level_six_walk_test
