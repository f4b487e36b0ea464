// The kept read's three-record (pool) form (docs/decoding-log.md "ninkept", "pool13"; lle_fields.def Stage13TwoRecordForm,
// w4 bit 77 clear): the 22 corpus reads whose words 4-5 carry records before a pool or a max pool. Their varying slots are
// fields held to relations (Stage13PoolRecordNumber / Span / SizeCode / SizeMark / SignMark, pool_records.h); the bits
// constant over the form stay pinned to nin_cnn's four reads (scripts/regen-lle-envelopes.sh, records13). Every such read of
// every distinct corpus program is checked whole (envelope and relations) and counted per program. The relations were read
// off these 22 reads; the figure that is not a restatement of the fit is the size-code copy and the span's low bits in the
// 51 two-record reads (lle_kept_read_records_test / the log). Two controls make the counts able to fail: w4 bit 78 set
// (clear in all 73 corpus records reads) must be refused by the envelope, and both sign marks flipped by the relations.
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

namespace coralsim::driver::lle_pool_records_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
namespace fs = std::filesystem;

constexpr const char* kDecodeSetProgram = "nin_cnn_edgetpu.tflite";  // the envelope rows' decode set
constexpr size_t kCorpusPoolRecordsReads = 22;  // over the corpus's files; the distinct programs below hold fewer (copies)

struct ReadCounts {
  size_t reads = 0, passed = 0, controlRefused = 0, signControlRefused = 0;
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
    std::string why = lle::checkEnvelope(p);
    if (why.empty()) why = lle::checkFieldRelations(0x13, p.words);
    counts.passed += why.empty();
    if (!why.empty() && counts.firstRefusal.empty()) counts.firstRefusal = why.substr(0, 160);
    std::vector<isa::Word128> words(p.words.begin(), p.words.end());
    words[4].setBits(78, 1, 1);
    models::DecodedPacket control = p;
    control.words = words;
    counts.controlRefused += !lle::checkEnvelope(control).empty();
    std::vector<isa::Word128> signWords(p.words.begin(), p.words.end());
    signWords[4].setBits(127, 1, signWords[4].bits(127, 1) ^ 1);
    signWords[5].setBits(83, 1, signWords[5].bits(83, 1) ^ 1);
    counts.signControlRefused += !lle::checkFieldRelations(0x13, signWords).empty();
  }
}

TEST(LleCorpus, EveryPoolFormRecordsReadKeepsItsSlotsRelationsAndTheControlsAreRefused) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<std::string, ReadCounts> byProgram;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    ReadCounts counts;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) { countReads(program.packets(), counts); });
    // Two distinct programs may share a file name (MobileNet v1 0.25 128 in two trees): keep both.
    std::string key = fs::path(path).filename().string();
    while (byProgram.contains(key)) key += " (another tree)";
    if (counts.reads != 0) byProgram[key] = counts;
  });
  size_t reads = 0, passed = 0, refused = 0, signRefused = 0;
  for (const auto& [name, c] : byProgram) {
    std::printf("%-45.45s %-9s pool records reads %2zu, pass %2zu, control refused %2zu, sign control refused %2zu%s%s\n", name.c_str(),
                name == kDecodeSetProgram ? "decode" : "held out", c.reads, c.passed, c.controlRefused, c.signControlRefused,
                c.firstRefusal.empty() ? "" : "; first refusal: ", c.firstRefusal.c_str());
    reads += c.reads;
    passed += c.passed;
    refused += c.controlRefused;
    signRefused += c.signControlRefused;
  }
  ASSERT_TRUE(byProgram.contains(kDecodeSetProgram)) << kDecodeSetProgram << " not found or without its pool records reads";
  EXPECT_EQ(byProgram[kDecodeSetProgram].reads, 4u);
  EXPECT_LE(reads, kCorpusPoolRecordsReads);
  EXPECT_GE(byProgram.size(), 5u) << "nin_cnn, ensemble and the MobileNets' pools: fewer programs with pool records reads";
  EXPECT_EQ(passed, reads);
  EXPECT_EQ(refused, reads) << "the envelope control passed: the check cannot fail";
  EXPECT_EQ(signRefused, reads) << "the sign control passed: the relations cannot fail";
}

}  // namespace
}  // namespace coralsim::driver::lle_pool_records_test
