// The max pool's form held out (docs/decoding-log.md "maxpool"): an opcode-0x02 compute with Max02Lanes 0 is checked
// as an 0x01 compute's layout (models/lle/max_pool_form.h), its bits outside 0x01's fields pinned to nin_cnn's 32 pools
// (scripts/regen-lle-envelopes.sh, maxpool02). ensemble's and voice_commands' pools are held out: each is checked whole
// (envelope and relations, checkEnvelope ""), and the count is printed per program. The control sets w9 bit 57 in the
// same packets (no corpus compute has it): every one must then be refused, so the count can fail.
#include <gtest/gtest.h>

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
#include "models/lle/max_pool_form.h"
#include "models/lle/packet_envelope.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_max_pool_form_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
namespace fs = std::filesystem;

constexpr const char* kDecodeSetProgram = "nin_cnn_edgetpu.tflite";
constexpr const char* kHeldOutProgram = "ensemble_edgetpu.tflite";

struct PoolCounts {
  size_t pools = 0, passed = 0, controlRefused = 0;
  std::string firstRefusal;
};

void countPools(std::span<const models::DecodedPacket> packets, PoolCounts& counts) {
  for (const models::DecodedPacket& p : packets) {
    if (p.action != models::PacketAction::kIssue || !p.tilePacket || !lle::isMaxPoolForm(static_cast<uint8_t>(p.opcode), p.words)) continue;
    ++counts.pools;
    const std::string why = lle::checkEnvelope(p);
    counts.passed += why.empty();
    if (!why.empty() && counts.firstRefusal.empty()) counts.firstRefusal = why;
    std::vector<isa::Word128> words(p.words.begin(), p.words.end());
    words[9].setBits(57, 1, 1);
    models::DecodedPacket control = p;
    control.words = words;
    counts.controlRefused += !lle::checkEnvelope(control).empty();
  }
}

TEST(LleCorpus, TheMaxPoolsHeldOutPassTheComputeLayoutAndTheRowsOfTheirDecodeSet) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<std::string, PoolCounts> byProgram;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    PoolCounts counts;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) { countPools(program.packets(), counts); });
    if (counts.pools != 0) byProgram[fs::path(path).filename().string()] = counts;
  });
  size_t controls = 0, refused = 0;
  for (const auto& [name, c] : byProgram) {
    std::printf("%-45.45s %-9s max pools %3zu, pass %3zu, control refused %3zu%s%s\n", name.c_str(),
                name == kDecodeSetProgram ? "decode" : "held out", c.pools, c.passed, c.controlRefused,
                c.firstRefusal.empty() ? "" : "; first refusal: ", c.firstRefusal.c_str());
    controls += c.pools;
    refused += c.controlRefused;
  }
  ASSERT_TRUE(byProgram.contains(kDecodeSetProgram)) << kDecodeSetProgram << " not found or without its max pools";
  ASSERT_TRUE(byProgram.contains(kHeldOutProgram)) << kHeldOutProgram << " not found or without its max pools";
  EXPECT_EQ(byProgram[kDecodeSetProgram].passed, byProgram[kDecodeSetProgram].pools);
  EXPECT_EQ(byProgram[kHeldOutProgram].passed, byProgram[kHeldOutProgram].pools) << "a held-out max pool is refused";
  EXPECT_EQ(refused, controls) << "the control passed: the check cannot fail";
}

}  // namespace
}  // namespace coralsim::driver::lle_max_pool_form_test
