// The held-out check of the average pool's envelope rows (docs/decoding-log.md "gabp4"): the pool form's bits of
// unknown meaning (w9[58:51] = 63, w12[39:32] = 9, w14 bits 52-54 / 59-60) are pinned to gabor 128^2 p4's one pool
// compute (scripts/regen-lle-envelopes.sh, pool01). The pool form: ComputeInputBytes 0, ComputeCodeW9 0 and a
// multiplier below 1 (the average's 1 / window). Every other corpus program with such a compute is held out: each of
// its pool computes must pass the envelope (whatever checks come after it), whatever its window (1 / 16 ... 1 / 1,089)
// and tiles. The control sets w9 bit 57 in the same packets (no corpus compute has it): every one must then be
// refused, so the count can fail. DeepLab v3's four ComputeInputBytes-0 computes with multiplier 1 (no average: eight
// positions, zero points 131 / 227) carry other marks (w7[49:22], w15 bit 28, w16 bit 41) and are only counted.
#include <gtest/gtest.h>

#include <bit>
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
#include "models/lle/packet_envelope.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_pool_form_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

constexpr const char* kDecodeSetProgram = "gabor_128x128_p4_edgetpu.tflite";
constexpr const char* kEnvelopeRefusal = "have no decoded meaning";

struct PoolCounts {
  size_t computes = 0, passed = 0, controlRefused = 0;
  size_t others = 0, othersPassed = 0;  // ComputeInputBytes 0, ComputeCodeW9 0, multiplier 1: not the pool form
};

bool isInputBytesZero(const models::DecodedPacket& p) {
  return readField(p.words, LleField::ComputeInputBytes) == 0 && readField(p.words, LleField::ComputeCodeW9) == 0;
}

bool isPoolForm(const models::DecodedPacket& p) {
  return isInputBytesZero(p) && std::bit_cast<float>(static_cast<uint32_t>(readField(p.words, LleField::ComputeMult))) < 1.0f;
}

void countPools(std::span<const models::DecodedPacket> packets, PoolCounts& counts) {
  for (const models::DecodedPacket& p : packets) {
    if (p.action != models::PacketAction::kIssue || !p.tilePacket || static_cast<uint8_t>(p.opcode) != 0x01) continue;
    if (!isInputBytesZero(p)) continue;
    if (!isPoolForm(p)) {
      ++counts.others;
      counts.othersPassed += lle::checkEnvelope(p).find(kEnvelopeRefusal) == std::string::npos;
      continue;
    }
    ++counts.computes;
    counts.passed += lle::checkEnvelope(p).find(kEnvelopeRefusal) == std::string::npos;
    std::vector<isa::Word128> words(p.words.begin(), p.words.end());
    words[9].setBits(57, 1, 1);
    models::DecodedPacket control = p;
    control.words = words;
    counts.controlRefused += lle::checkEnvelope(control).find(kEnvelopeRefusal) != std::string::npos;
  }
}

TEST(LleCorpus, ThePoolFormsMarksHeldOutPassTheEnvelopeRowsOfItsDecodeSet) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<std::string, PoolCounts> byProgram;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    PoolCounts counts;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) { countPools(program.packets(), counts); });
    if (counts.computes != 0 || counts.others != 0) byProgram[path.string()] = counts;  // by path: two distinct programs may share a file name
  });
  PoolCounts decode, heldOut;
  size_t heldOutPrograms = 0;
  for (const auto& [name, c] : byProgram) {
    const bool inDecodeSet = fs::path(name).filename().string() == kDecodeSetProgram;
    const std::string shown = fs::path(name).filename().string();
    std::printf("%-70.70s %-9s pool computes %3zu, pass the envelope %3zu, control refused %3zu; multiplier-1 computes %zu, pass %zu\n",
                shown.c_str(), inDecodeSet ? "decode" : "held out", c.computes, c.passed, c.controlRefused, c.others, c.othersPassed);
    PoolCounts& into = inDecodeSet ? decode : heldOut;
    into.computes += c.computes;
    into.passed += c.passed;
    into.controlRefused += c.controlRefused;
    heldOutPrograms += !inDecodeSet && c.computes != 0 ? 1 : 0;
  }
  std::printf("decode set: %zu / %zu pass; held out (%zu programs): %zu / %zu pass; control refused %zu / %zu\n", decode.passed,
              decode.computes, heldOutPrograms, heldOut.passed, heldOut.computes, decode.controlRefused + heldOut.controlRefused,
              decode.computes + heldOut.computes);
  ASSERT_GT(decode.computes, 0u) << kDecodeSetProgram << " not found or without its pool";
  ASSERT_GE(heldOutPrograms, 9u);
  EXPECT_EQ(decode.passed, decode.computes);
  EXPECT_EQ(heldOut.passed, heldOut.computes) << "a held-out pool carries marks its decode set does not";
  EXPECT_EQ(decode.controlRefused + heldOut.controlRefused, decode.computes + heldOut.computes) << "the control passed: the check cannot fail";
}

}  // namespace
}  // namespace coralsim::driver::lle_pool_form_test
