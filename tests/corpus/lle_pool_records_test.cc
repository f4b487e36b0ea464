// The kept read's three-record (pool) form held out (docs/decoding-log.md "ninkept"; lle_fields.def Stage13TwoRecordForm,
// w4 bit 77 clear): the 22 corpus reads whose words 4-5 carry records before a pool or a max pool. Their numbers are no
// function of the read, so they are pinned with the codes to the decode set's, nin_cnn's four pool reads
// (scripts/regen-lle-envelopes.sh, records13). Every such read of every distinct corpus program is checked whole
// (envelope and relations: checkEnvelope ""), and the count is printed per program with its first refusal. ensemble
// (held out) carries nin_cnn's layers: their four reads must pass; its own 3 x 3 pools' four and the MobileNets' are
// refused naming their bits (not decoded). The control sets w4 bit 78 (clear in all 73 corpus records reads) in the
// same packets: every one must then be refused, so the count can fail.
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
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
namespace fs = std::filesystem;

constexpr const char* kDecodeSetProgram = "nin_cnn_edgetpu.tflite";
constexpr const char* kHeldOutProgram = "ensemble_edgetpu.tflite";
constexpr size_t kHeldOutReadsOfTheDecodeSetsLayers = 4;  // ensemble's reads before the max pools of nin_cnn's layers

struct ReadCounts {
  size_t reads = 0, passed = 0, controlRefused = 0;
  std::string firstRefusal;
};

bool isPoolRecordsRead(const models::DecodedPacket& p) {
  if (p.action != models::PacketAction::kIssue || !p.tilePacket || static_cast<uint8_t>(p.opcode) != 0x13) return false;
  if (!lle::fieldPresent(LleField::Stage13KeptRecordsOn, p.words) || lle::readField(p.words, LleField::Stage13KeptRecordsOn) == 0) {
    return false;
  }
  return lle::fieldPresent(LleField::Stage13TwoRecordForm, p.words) && lle::readField(p.words, LleField::Stage13TwoRecordForm) == 0;
}

void countReads(std::span<const models::DecodedPacket> packets, ReadCounts& counts) {
  for (const models::DecodedPacket& p : packets) {
    if (!isPoolRecordsRead(p)) continue;
    ++counts.reads;
    const std::string why = lle::checkEnvelope(p);
    counts.passed += why.empty();
    if (!why.empty() && counts.firstRefusal.empty()) counts.firstRefusal = why.substr(0, 160);
    std::vector<isa::Word128> words(p.words.begin(), p.words.end());
    words[4].setBits(78, 1, 1);
    models::DecodedPacket control = p;
    control.words = words;
    counts.controlRefused += !lle::checkEnvelope(control).empty();
  }
}

TEST(LleCorpus, ThePoolFormRecordsReadsOfTheDecodeSetPassAndTheHeldOutOnesOfItsLayers) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<std::string, ReadCounts> byProgram;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    ReadCounts counts;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) { countReads(program.packets(), counts); });
    if (counts.reads != 0) byProgram[fs::path(path).filename().string()] = counts;
  });
  size_t controls = 0, refused = 0;
  for (const auto& [name, c] : byProgram) {
    std::printf("%-45.45s %-9s pool records reads %2zu, pass %2zu, control refused %2zu%s%s\n", name.c_str(),
                name == kDecodeSetProgram ? "decode" : "held out", c.reads, c.passed, c.controlRefused,
                c.firstRefusal.empty() ? "" : "; first refusal: ", c.firstRefusal.c_str());
    controls += c.reads;
    refused += c.controlRefused;
  }
  ASSERT_TRUE(byProgram.contains(kDecodeSetProgram)) << kDecodeSetProgram << " not found or without its pool records reads";
  ASSERT_TRUE(byProgram.contains(kHeldOutProgram)) << kHeldOutProgram << " not found or without its pool records reads";
  EXPECT_EQ(byProgram[kDecodeSetProgram].passed, byProgram[kDecodeSetProgram].reads);
  EXPECT_EQ(byProgram[kHeldOutProgram].passed, kHeldOutReadsOfTheDecodeSetsLayers);
  EXPECT_EQ(refused, controls) << "the control passed: the check cannot fail";
}

}  // namespace
}  // namespace coralsim::driver
