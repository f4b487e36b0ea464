// The max pass's streamed read and its pass's epilogue, held out over the corpus (docs/decoding-log.md "nin15";
// models/lle/max_pass_stream_read.h). (1) Every read of the form (routed (0, 1), Stage13TakenByCompute alone,
// Stage13FeedsReduction clear) that no compute issued before it on its tiles waits for (the compute naming its channel
// since the tiles' previous read: "loom35"'s streamed operand) must pair with the softmax-form 0x02 issued next on its
// tiles (maxPassStreamReadProblem "") -- decode set nin_cnn (1 read), held out ensemble (3); a control per read, its
// Stage13Channel one more, must be refused. (2) Every softmax-form 0x02 (Max02Lanes != 0) must hold the identity
// epilogue of its scores' zero point Z: Max02Bias = -Z, Max02ZpWeight = Max02ZpOut = Z, clamps [-Z, 255 - Z] within one
// float ulp -- decode set nin_cnn's pass, held out the other 41 (bright / colour, MobileNet v1, ensemble).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"
#include "models/lle/max_pass_stream_read.h"
#include "models/lle/max_pool_form.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_max_pass_stream_read_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
namespace fs = std::filesystem;

constexpr const char* kDecodeSetProgram = "nin_cnn_edgetpu.tflite";

bool isCompute(uint8_t op) { return op == 0x01 || op == 0x02 || op == 0x03; }

// Whether a compute issued before packets[index] on one of its tiles, since that tile's previous 0x13, names its channel.
bool aComputeBeforeWaits(const std::vector<models::DecodedPacket>& packets, size_t index) {
  const models::DecodedPacket& read = packets[index];
  const uint64_t channel = lle::readField(read.words, LleField::Stage13Channel);
  uint32_t open = read.tileMask;
  for (size_t i = index; i-- > 0 && open != 0;) {
    const models::DecodedPacket& p = packets[i];
    const auto op = static_cast<uint8_t>(p.opcode);
    if (!p.tilePacket || (p.tileMask & open) == 0) continue;
    if (op == 0x13) open &= ~p.tileMask;
    else if (isCompute(op) && lle::readField(p.words, LleField::ComputeStreamTag) == channel) return true;
  }
  return false;
}

bool near(float a, float b) { return a == b || std::fabs(a - b) <= std::fabs(b) * 0x1p-22f + 0x1p-20f; }

struct Counts {
  size_t reads = 0, readsPaired = 0, controlsRefused = 0, passes = 0, passesIdentity = 0;
};

TEST(LleCorpus, TheMaxPassesStreamedReadsPairWithThePassIssuedNextAndEveryPassEpilogueIsItsZeroPointsIdentity) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  Counts decode, heldOut;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    const std::string name = path.filename().string();
    Counts& c = name == kDecodeSetProgram ? decode : heldOut;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      std::vector<models::DecodedPacket> packets;
      for (const models::DecodedPacket& p : program.packets()) {
        if (p.action == models::PacketAction::kIssue && p.tilePacket) packets.push_back(p);
      }
      for (size_t i = 0; i < packets.size(); ++i) {
        const models::DecodedPacket& p = packets[i];
        const auto op = static_cast<uint8_t>(p.opcode);
        if (op == 0x13 && lle::isMaxPassStreamReadForm(p) && !aComputeBeforeWaits(packets, i)) {
          ++c.reads;
          const std::string problem = lle::maxPassStreamReadProblem(packets, i);
          EXPECT_EQ(problem, "") << name << " read @ PC " << p.pc;
          c.readsPaired += problem.empty();
          std::vector<isa::Word128> words(p.words.begin(), p.words.end());
          const lle::LleFieldDef& f = lle::fieldDef(LleField::Stage13Channel);
          words[f.lsb / 128].setBits(f.lsb % 128, f.width, lle::readField(p.words, LleField::Stage13Channel) + 1);
          std::vector<models::DecodedPacket> control = packets;
          control[i].words = words;
          c.controlsRefused += !lle::maxPassStreamReadProblem(control, i).empty();
        }
        if (op == 0x02 && !lle::isMaxPoolForm(op, p.words)) {
          ++c.passes;
          const auto z = static_cast<int64_t>(lle::readField(p.words, LleField::Max02ZpOut));
          const auto bias = static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(lle::readField(p.words, LleField::Max02Bias))));
          const bool identity = bias == -z && static_cast<int64_t>(lle::readField(p.words, LleField::Max02ZpWeight)) == z &&
                                near(lle::readF32(p.words, LleField::Max02ClampLo), static_cast<float>(-z)) &&
                                near(lle::readF32(p.words, LleField::Max02ClampHi), static_cast<float>(255 - z));
          EXPECT_TRUE(identity) << name << " pass @ PC " << p.pc << ": Z " << z << ", addend " << bias;
          c.passesIdentity += identity;
        }
      }
    });
  });
  for (const auto& [set, c] : {std::pair{"decode", &decode}, std::pair{"held out", &heldOut}}) {
    std::printf("%-8s: streamed reads %zu, paired %zu, controls refused %zu; softmax-form passes %zu, identity epilogue %zu\n", set, c->reads,
                c->readsPaired, c->controlsRefused, c->passes, c->passesIdentity);
  }
  EXPECT_EQ(decode.reads, 1u) << kDecodeSetProgram << ": its read @ 0x0b48";
  EXPECT_EQ(decode.passes, 1u);
  EXPECT_GT(heldOut.reads, 0u) << "no held-out read of the form";
  EXPECT_GT(heldOut.passes, 0u);
  EXPECT_EQ(decode.controlsRefused + heldOut.controlsRefused, decode.reads + heldOut.reads) << "a control passed: the check cannot fail";
}

}  // namespace
}  // namespace coralsim::driver::lle_max_pass_stream_read_test
