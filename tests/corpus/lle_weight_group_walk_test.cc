// The convolution's weight walk over its taps held out (docs/decoding-log.md "conv7"; models/lle/weight_group_walk.h):
// decoded on model_conv's 7 x 7 convolutions (taps at Nest29 levels 1-2, carries +1 then -(taps - 1)), every other corpus
// compute of 4-byte groups with a tap-row loop (Nest37 level 1) whose weight wraps are not all -ComputeK4W0 -- the
// MobileNet v2 wo_fc and PoseNet quant decoders' first 3 x 3 convolutions (the same +1 form), the MobileNets', DeepLab's
// and voice_commands' (the taps at one level, its carry -(taps - 1)) -- must read its reduction's groups one after another
// (weightGroupWalkProblem ""), apart from the two forms another executor takes (looming's byte-stepped weighing,
// ComputeNest29CarryLow[0] != 0; add_128_128's walked element-wise add, level 1 counting the walk, not taps). The
// control moves each walked compute's first counting level above 0 one group further (its carry + 1): every one must then be
// refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/isa/compute_loop_nest.h"
#include "models/isa/word128.h"
#include "models/lle/byte_stepped_weighing.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/weight_group_walk.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_weight_group_walk_test {
namespace {

using coralsim::testing::forEachDistinctCorpusModel;
using coralsim::testing::forEachIssuedCompute;
using lle::LleField;
using lle::readField;
using lle::readSigned;
namespace fs = std::filesystem;

constexpr const char* kDecodeSetProgram = "model_conv_128x128x3x32x7x10_edgetpu.tflite";

struct WalkCounts {
  size_t computes = 0, walked = 0, controlRefused = 0, byteStepped = 0;
};

bool wrapsAreMinusK(std::span<const isa::Word128> words) {
  const int64_t want = -static_cast<int64_t>(readField(words, LleField::ComputeK4W0));
  if (readSigned(words, LleField::ComputeKWrapW7) != want) return false;
  for (unsigned e = 0; e < lle::fieldDef(LleField::ComputeKWrap29).count; ++e) {
    if (readSigned(words, LleField::ComputeKWrap29, e) != want) return false;
  }
  return true;
}

// The first counting level above 0 of Nest29, its carry (slot level - 1) one more: that level steps one group too far.
std::vector<isa::Word128> movedOneGroup(std::span<const isa::Word128> words) {
  std::vector<isa::Word128> out(words.begin(), words.end());
  const isa::ComputeNestDef& def = isa::computeNestDef(isa::ComputeNest::Nest29);
  const auto limits = isa::readComputeNestLimits(isa::ComputeNest::Nest29, words);
  for (unsigned level = 1; level < isa::kComputeNestLevels; ++level) {
    if (limits[level] == 0) continue;
    const uint64_t mask = (uint64_t{1} << def.wrapWidth) - 1;
    const uint64_t raw = isa::readPacketBits(words, def.wrapLsb(level - 1), def.wrapWidth);
    isa::writePacketBits(out, def.wrapLsb(level - 1), def.wrapWidth, (raw + 1) & mask);
    break;
  }
  return out;
}

TEST(LleCorpus, TheWeightWalkOverTheTapsHeldOutReadsEachReductionsGroupsOneAfterAnother) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<std::string, WalkCounts> byProgram;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    WalkCounts counts;
    forEachIssuedCompute(model, [&](const models::DecodedPacket& p) {
      if (readField(p.words, LleField::ComputeInputBytes) != 4 || readField(p.words, LleField::ComputeNest37Limit1) == 0) return;
      if (wrapsAreMinusK(p.words)) return;
      if (lle::ByteSteppedWeighing::isForm(p.words)) {
        ++counts.byteStepped;
        return;
      }
      ++counts.computes;
      if (!lle::weightGroupWalkProblem(p.words).empty()) return;
      ++counts.walked;
      counts.controlRefused += !lle::weightGroupWalkProblem(movedOneGroup(p.words)).empty();
    });
    if (counts.computes != 0 || counts.byteStepped != 0) byProgram[path.string()] = counts;
  });
  size_t decodeSet = 0, heldOut = 0, heldOutWalked = 0, notWalked = 0;
  for (const auto& [path, c] : byProgram) {
    const bool decode = fs::path(path).filename() == kDecodeSetProgram;
    std::printf("  %-70s %s: %zu computes, %zu walk their groups in order, control refused %zu; byte-stepped %zu\n",
                fs::path(path).filename().string().c_str(), decode ? "decode set" : "held out", c.computes, c.walked, c.controlRefused,
                c.byteStepped);
    EXPECT_EQ(c.controlRefused, c.walked) << path;
    (decode ? decodeSet : heldOut) += c.computes;
    if (!decode) heldOutWalked += c.walked;
    notWalked += c.computes - c.walked;
  }
  // Measured (2026-11-28): model_conv 18; held out 890 walked of 891 (add_128_128's walked add is the one not: its level 1
  // counts the walk's groups, executed by the walked element-wise form, which keeps its block).
  EXPECT_EQ(decodeSet, 18u);
  EXPECT_GE(heldOut, 800u);
  EXPECT_EQ(notWalked, 1u) << "only add_128_128's walked element-wise add reads no group walk";
  EXPECT_EQ(heldOutWalked + 1, heldOut);
}

// The single-position (Dense) form's weight wraps (docs/decoding-log.md "dense43"): every corpus compute of 4-byte groups
// with a parameter prefix, no tap-row loop (Nest37 level 1) and one position whose Nest29 wraps are not all -ComputeK4W0
// must walk its reduction's groups one after another (weightGroupWalkProblem ""), so singlePositionKWrapProblem passes its
// Nest29 rows. Decode set: model_dense (its bias-prefix Dense layers, +1 at a level that runs once, and its K-split
// computes, +1 at the pass's groups and -(groups - 1) at its passes); held out: every other program.
TEST(LleCorpus, TheSinglePositionFormsWeightWrapsThatAreNotMinusKWalkTheGroupsInOrder) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  constexpr const char* kDenseDecodeSet = "model_dense_2x2x3x100x100_edgetpu.tflite";
  size_t decode = 0, decodeWalked = 0, heldOut = 0, heldOutWalked = 0, minusK = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    const bool inDecodeSet = path.filename() == kDenseDecodeSet;
    size_t computes = 0, walked = 0;
    forEachIssuedCompute(model, [&](const models::DecodedPacket& p) {
      if (readField(p.words, LleField::ComputeInputBytes) != 4 || readField(p.words, LleField::ComputeNest37Limit1) != 0) return;
      if (readField(p.words, LleField::ComputePositions) != 0 || !lle::isPrefixedCompute(p.words)) return;
      if (wrapsAreMinusK(p.words)) {
        ++minusK;
        return;
      }
      ++computes;
      walked += lle::weightGroupWalkProblem(p.words).empty();
    });
    if (computes != 0) {
      std::printf("  %-70s %s: %zu single-position computes with wraps not all -K, %zu walk their groups in order\n",
                  path.filename().string().c_str(), inDecodeSet ? "decode set" : "held out", computes, walked);
    }
    (inDecodeSet ? decode : heldOut) += computes;
    (inDecodeSet ? decodeWalked : heldOutWalked) += walked;
  });
  std::printf("  decode set %zu / %zu walked; held out %zu / %zu walked; %zu with wraps all -K\n", decodeWalked, decode, heldOutWalked,
              heldOut, minusK);
  EXPECT_GT(decode, 0u);
  EXPECT_EQ(decodeWalked, decode);
  EXPECT_EQ(heldOutWalked, heldOut);
}

}  // namespace
}  // namespace coralsim::driver::lle_weight_group_walk_test
