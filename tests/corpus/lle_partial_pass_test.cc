// The held-out check of the compute's partial-pass codes (docs/decoding-log.md "w7codes"; models/lle/output_partial_pass.h):
// w7[25:22], w7[42:40], w7[49:46] = k - 1, the highest counting Output37 level + 1, (N - k) / 2 where k = (ComputeOut37Step
// - 1) mod N (N = ComputeLaneGroups + 1) is even and not 0 and a level above 0 counts, else 0. The rule was read off the
// decode set (MobileNet v2 224 and v1 0.75 192, each with its co-compile: k = 4 and 8 only); every other corpus program is
// held out, its computes with codes (k = 2, 14, N = 32, four levels among them) and without. Every compute must agree;
// the control moves each compute's codes one off (A + 1 where set, A = 1 where clear), which must then be refused, so
// the count can fail.
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
#include "models/lle/lle_fields.h"
#include "models/lle/output_nest.h"
#include "models/lle/output_partial_pass.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_partial_pass_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using coralsim::testing::forEachIssuedCompute;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

constexpr std::array<const char*, 4> kDecodeSet = {
    "mobilenet_v2_1.0_224_quant_edgetpu.tflite",
    "mobilenet_v2_1.0_224_quant_cocompiled_with_mobilenet_v1_1.0_224_quant_edgetpu.tflite",
    "mobilenet_v1_0.75_192_quant_edgetpu.tflite",
    "mobilenet_v1_0.75_192_quant_cocompiled_with_3quant_edgetpu.tflite",
};

struct CodeCounts {
  size_t coded = 0, codedAgree = 0, clear = 0, clearAgree = 0, controlRefused = 0;
};

void countComputes(std::span<const models::DecodedPacket> packets, CodeCounts& counts) {
  const lle::LleFieldDef& a = lle::fieldDef(LleField::ComputeOutPartialUnits);
  for (const models::DecodedPacket& p : packets) {
    if (p.action != models::PacketAction::kIssue || !p.tilePacket || static_cast<uint8_t>(p.opcode) != 0x01) continue;
    const bool coded = readField(p.words, LleField::ComputeOutPartialUnits) != 0 ||
                       readField(p.words, LleField::ComputeOutLevelsWalked) != 0 ||
                       readField(p.words, LleField::ComputeOutPartialRestPairs) != 0;
    const bool agrees = lle::outputPartialPassProblem(p.words).empty();
    (coded ? counts.coded : counts.clear) += 1;
    (coded ? counts.codedAgree : counts.clearAgree) += agrees ? 1 : 0;
    std::vector<isa::Word128> words(p.words.begin(), p.words.end());
    const uint64_t moved = coded ? (readField(p.words, LleField::ComputeOutPartialUnits) + 1) % 16 : 1;
    words[a.lsb / 128].setBits(a.lsb % 128, a.width, moved);
    counts.controlRefused += lle::outputPartialPassProblem(words).empty() ? 0 : 1;
  }
}

TEST(LleCorpus, ThePartialPassCodesHeldOutFollowTheOutputNestAsInTheDecodeSet) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<std::string, CodeCounts> byProgram;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    CodeCounts counts;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) { countComputes(program.packets(), counts); });
    if (counts.coded + counts.clear != 0) byProgram[path.string()] = counts;  // by path: two programs may share a file name
  });
  CodeCounts decode, heldOut;
  size_t decodePrograms = 0, heldOutCodedPrograms = 0;
  for (const auto& [name, c] : byProgram) {
    const std::string shown = fs::path(name).filename().string();
    bool inDecodeSet = false;
    for (const char* program : kDecodeSet) inDecodeSet = inDecodeSet || shown == program;
    if (c.coded != 0) {
      std::printf("%-70.70s %-9s coded %4zu agree %4zu; clear %5zu agree %5zu; control refused %5zu\n", shown.c_str(),
                  inDecodeSet ? "decode" : "held out", c.coded, c.codedAgree, c.clear, c.clearAgree, c.controlRefused);
    }
    CodeCounts& into = inDecodeSet ? decode : heldOut;
    into.coded += c.coded;
    into.codedAgree += c.codedAgree;
    into.clear += c.clear;
    into.clearAgree += c.clearAgree;
    into.controlRefused += c.controlRefused;
    decodePrograms += inDecodeSet ? 1 : 0;
    heldOutCodedPrograms += !inDecodeSet && c.coded != 0 ? 1 : 0;
  }
  std::printf("decode set (%zu programs): coded %zu / %zu, clear %zu / %zu agree; held out: coded %zu / %zu (%zu programs), "
              "clear %zu / %zu agree; control refused %zu / %zu\n",
              decodePrograms, decode.codedAgree, decode.coded, decode.clearAgree, decode.clear, heldOut.codedAgree, heldOut.coded,
              heldOutCodedPrograms, heldOut.clearAgree, heldOut.clear, decode.controlRefused + heldOut.controlRefused,
              decode.coded + decode.clear + heldOut.coded + heldOut.clear);
  ASSERT_GT(decode.coded, 0u) << "the decode set's programs not found or without codes";
  ASSERT_GE(heldOutCodedPrograms, 10u);
  EXPECT_EQ(decode.codedAgree, decode.coded);
  EXPECT_EQ(decode.clearAgree, decode.clear);
  EXPECT_EQ(heldOut.codedAgree, heldOut.coded) << "a held-out compute's codes do not follow its output nest";
  EXPECT_EQ(heldOut.clearAgree, heldOut.clear) << "a held-out compute's codes do not follow its output nest";
  EXPECT_EQ(decode.controlRefused + heldOut.controlRefused, decode.coded + decode.clear + heldOut.coded + heldOut.clear)
      << "the control passed: the check cannot fail";
}

// The pass the codes leave partial (docs/decoding-log.md "dec16"): in every coded compute the level the codes name
// (ComputeOutLevelsWalked - 1) steps a position's passes N units on, and its limit x N + k is the position's N - 1 + step
// units -- so the level's last iteration is the pass of k units, and a whole N-unit last pass would write into the next
// position's first units. Decode set the PoseNet 353 x 481 / 481 x 641 16-channel decoders (whose 96-channel layers
// equal the twin's arithmetic in every byte with that pass written k units wide); every other program held out.
TEST(LleCorpus, ThePartialPassIsTheLastIterationOfTheLevelTheCodesNameNUnitsAfterTheWholePass) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t decode = 0, decodeHolds = 0, heldOut = 0, heldOutHolds = 0, control = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    const std::string name = path.filename().string();
    const bool inDecodeSet = name == "posenet_mobilenet_v1_075_353_481_16_quant_decoder_edgetpu.tflite" ||
                             name == "posenet_mobilenet_v1_075_481_641_16_quant_decoder_edgetpu.tflite";
    forEachIssuedCompute(model, [&](const models::DecodedPacket& p) {
      const uint64_t levels = readField(p.words, LleField::ComputeOutLevelsWalked);
      if (levels == 0) return;
      const auto units = static_cast<int64_t>(readField(p.words, LleField::ComputeLaneGroups) + 1);
      const auto k = static_cast<int64_t>(readField(p.words, LleField::ComputeOutPartialUnits) + 1);
      const auto step = static_cast<int64_t>(readField(p.words, LleField::ComputeOut37Step));
      const lle::OutputNest nest = lle::OutputNest::fromPacket(p.words, 0, units);
      const unsigned level = static_cast<unsigned>(levels - 1);
      const bool holds = nest.strides[level] == units &&
                         static_cast<int64_t>(nest.limits[level]) * units + k == units - 1 + step;
      (inDecodeSet ? decode : heldOut) += 1;
      (inDecodeSet ? decodeHolds : heldOutHolds) += holds ? 1 : 0;
      // Control: the level below the named one (the positions or rows) never steps N units with that limit.
      control += level > 0 && nest.strides[level - 1] == units &&
                         static_cast<int64_t>(nest.limits[level - 1]) * units + k == units - 1 + step ? 1 : 0;
    });
  });
  std::printf("decode set: %zu / %zu coded computes step their passes N units at the named level, k units in the last; "
              "held out: %zu / %zu; control (the level below): %zu\n", decodeHolds, decode, heldOutHolds, heldOut, control);
  ASSERT_GT(decode, 0u) << "the decode set's programs not found or without codes";
  ASSERT_GT(heldOut, 1000u);
  EXPECT_EQ(decodeHolds, decode);
  EXPECT_EQ(heldOutHolds, heldOut) << "a held-out compute's named level is not its passes of N units";
  EXPECT_EQ(control, 0u) << "the level below the named one reads as the passes too: the check cannot tell them apart";
}

}  // namespace
}  // namespace coralsim::driver::lle_partial_pass_test
