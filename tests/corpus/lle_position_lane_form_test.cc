// The position-lane compute form (docs/decoding-log.md "obytes"; models/lle/position_lane_form.h): every corpus compute
// whose output element (ComputeOutputBytes, w4[98:80]) is more than 4 bytes is a 3 x 3 depthwise whose lanes are its
// output positions. Decode set the PoseNet / BodyPix 324 x 324 16-channel decoders; held out every other program (the
// PoseNet / BodyPix 1280 x 720 programs carry the rest). For each such compute: its fields agree with the form
// (positionLaneFormProblem); the convolution form accepts it with its channel units as one-after-another stream blocks
// (ConvCompute::unsupported, the split reduction: 9 taps an output, the units the blocks); and its output nest writes
// each of ComputeOutputBytes / 4 x (ComputeLaneGroups + 1) units once, from ComputeOutputAt / 4 on without a gap -- a
// dense H x W x C tensor of C = ComputeOutputBytes bytes a position. Control: the element 4 bytes larger must be refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "models/isa/word128.h"
#include "models/lle/conv_compute.h"
#include "models/lle/lle_fields.h"
#include "models/lle/position_lane_form.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_position_lane_form_test {
namespace {

using coralsim::testing::forEachDistinctCorpusModel;
using coralsim::testing::forEachIssuedCompute;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

struct FormCounts {
  size_t computes = 0, agree = 0, convolutionAccepts = 0, denseOutput = 0, controlRefused = 0;
};

TEST(LleCorpus, EveryComputeWritingWholePositionsIsTheDepthwiseWhoseLanesArePositions) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  FormCounts decode, heldOut;
  size_t heldOutPrograms = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    const std::string name = path.filename().string();
    const bool inDecodeSet = name.find("_324_324_16_") != std::string::npos;
    FormCounts& counts = inDecodeSet ? decode : heldOut;
    const size_t before = counts.computes;
    forEachIssuedCompute(model, [&](const models::DecodedPacket& p) {
      if (!lle::isPositionLaneForm(p.words)) return;
      ++counts.computes;
      const std::string problem = lle::positionLaneFormProblem(p.words);
      counts.agree += problem.empty() ? 1 : 0;
      EXPECT_EQ(problem, "") << name << " PC 0x" << std::hex << p.pc;
      const uint64_t units = readField(p.words, LleField::ComputeOut37Limit0) + 1;
      lle::ConvCompute conv = lle::ConvCompute::fromPacket(p.words);
      conv.streamBlocks = units;  // the feeding write's blocks: one a channel unit (checked by the rung at run time)
      const auto split = conv.splitReduction();
      const bool accepts = conv.unsupported().empty() && split && split->taps == readField(p.words, LleField::ComputeKCount) &&
                           split->blocks == units && split->groups == 1;
      counts.convolutionAccepts += accepts ? 1 : 0;
      std::set<int64_t> written;
      conv.output.forEachUnit([&](int64_t unit) { written.insert(unit); });
      const auto first = static_cast<int64_t>(readField(p.words, LleField::ComputeOutputAt) / 4);
      const uint64_t positions = readField(p.words, LleField::ComputeLaneGroups) + 1;
      counts.denseOutput += written.size() == conv.outputs() && written.size() == positions * units && *written.begin() == first &&
                                    *written.rbegin() == first + static_cast<int64_t>(positions * units) - 1
                                ? 1 : 0;
      std::vector<isa::Word128> control(p.words.begin(), p.words.end());
      const lle::LleFieldDef& def = lle::fieldDef(LleField::ComputeOutputBytes);
      control[def.lsb / 128].setBits(def.lsb % 128, def.width, readField(p.words, LleField::ComputeOutputBytes) + 4);
      counts.controlRefused += lle::positionLaneFormProblem(control).empty() ? 0 : 1;
    });
    heldOutPrograms += !inDecodeSet && counts.computes != before ? 1 : 0;
  });
  std::printf("decode set: %zu computes, %zu agree, %zu accepted by the convolution form, %zu dense outputs, control refused %zu\n"
              "held out (%zu programs): %zu computes, %zu agree, %zu accepted, %zu dense outputs, control refused %zu\n",
              decode.computes, decode.agree, decode.convolutionAccepts, decode.denseOutput, decode.controlRefused, heldOutPrograms,
              heldOut.computes, heldOut.agree, heldOut.convolutionAccepts, heldOut.denseOutput, heldOut.controlRefused);
  ASSERT_GT(decode.computes, 0u) << "the decode set's programs not found or without the form";
  ASSERT_GT(heldOut.computes, 0u) << "no held-out program carries the form";
  for (const FormCounts* c : {&decode, &heldOut}) {
    EXPECT_EQ(c->agree, c->computes);
    EXPECT_EQ(c->convolutionAccepts, c->computes) << "the convolution form does not take the compute as 9 taps over U blocks";
    EXPECT_EQ(c->denseOutput, c->computes) << "the output nest does not write a dense H x W x C tensor";
    EXPECT_EQ(c->controlRefused, c->computes) << "the control passed: the check cannot fail";
  }
}

}  // namespace
}  // namespace coralsim::driver::lle_position_lane_form_test
