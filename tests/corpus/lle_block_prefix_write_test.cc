// The compute-feeding write that stages a prefix a block after no stream (docs/decoding-log.md "nin14";
// models/lle/block_prefix_write.h), held out. Every issued packet of every distinct corpus program goes through one
// StreamPrefixWatch in program order (as LleRung::checkChunk does), up to its first refusal: no program may be refused
// as this form (the "nin14" rule, its write or the compute after it), and the writes taken as the form are counted per
// program. Decode set nin_cnn (3 writes: the softmax tail after its average pool); held out ensemble (nin_cnn's tail
// inside it and its own) and the MobileNet v1 0.25 128 / 0.75 192 compiles with their softmax on the chip. A control
// per program: each write the watch took is fed again with its Stage14StreamPrefixBlocks one more (the nest then counts
// one block fewer than it names) and must be refused, so the count can fail.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"
#include "models/lle/receive_kind.h"
#include "models/lle/stream_prefix_watch.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_block_prefix_write_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
namespace fs = std::filesystem;

constexpr const char* kDecodeSetProgram = "nin_cnn_edgetpu.tflite";
constexpr size_t kDecodeSetWrites = 3;

struct Counts {
  size_t writes = 0, controlsRefused = 0;
  std::string refusal;  // the watch's first refusal, if any
};

void watchProgram(const models::DecodedProgram& program, Counts& counts) {
  lle::StreamPrefixWatch watch;
  for (const models::DecodedPacket& p : program.packets()) {
    if (p.action != models::PacketAction::kIssue) continue;
    const size_t before = watch.blockPrefixWrites();
    // The control first, on a copy of the watch as it stands before the packet.
    lle::StreamPrefixWatch control = watch;
    const std::string why = watch.observe(p);
    if (!why.empty()) {
      if (counts.refusal.empty()) counts.refusal = why;
      return;
    }
    if (watch.blockPrefixWrites() == before) continue;
    ++counts.writes;
    std::vector<isa::Word128> words(p.words.begin(), p.words.end());
    const lle::LleFieldDef& f = lle::fieldDef(lle::LleField::Stage14StreamPrefixBlocks);
    words[f.lsb / 128].setBits(f.lsb % 128, f.width, lle::readField(p.words, lle::LleField::Stage14StreamPrefixBlocks) + 1);
    models::DecodedPacket more = p;
    more.words = words;
    counts.controlsRefused += !control.observe(more).empty();
  }
}

TEST(LleCorpus, TheWritesThatStageAPrefixABlockAfterNoStreamPassTheirWatch) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<std::string, Counts> byProgram;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    Counts counts;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) { watchProgram(program, counts); });
    byProgram[fs::path(path).filename().string()] = counts;
  });
  size_t heldOut = 0, controls = 0, refusedControls = 0;
  for (const auto& [name, c] : byProgram) {
    const bool nin14 = c.refusal.find("\"nin14\"") != std::string::npos;
    if (c.writes == 0 && !nin14) continue;
    std::printf("%-70.70s %-8s writes taken %2zu, controls refused %2zu%s%s\n", name.c_str(), name == kDecodeSetProgram ? "decode" : "held out",
                c.writes, c.controlsRefused, c.refusal.empty() ? "" : "; watch refusal: ", c.refusal.c_str());
    EXPECT_FALSE(nin14) << name << " refused as a prefix a block: " << c.refusal;
    if (name != kDecodeSetProgram) heldOut += c.writes;
    controls += c.writes;
    refusedControls += c.controlsRefused;
  }
  std::printf("held out: %zu writes taken\n", heldOut);
  ASSERT_TRUE(byProgram.contains(kDecodeSetProgram)) << kDecodeSetProgram << " not in the corpus";
  EXPECT_EQ(byProgram[kDecodeSetProgram].writes, kDecodeSetWrites);
  EXPECT_GT(heldOut, 0u) << "no held-out write of the form";
  EXPECT_EQ(refusedControls, controls) << "a control passed: the check cannot fail";
}

// The receives' kind code (models/lle/receive_kind.h; docs/decoding-log.md "mnv1d" §A), a static scan of every issued
// execution-only 0x11 and 0x12 of every distinct program: each code must fit its receive's form (receiveKindProblem),
// and the block-prefix receives (48) are counted in the decode set (ensemble and both compiles of MobileNet v1 0.25 128
// co-compiled with 3quant) and held out (the other co-compiles, MobileNet v1 0.75 192's 0x12s). That each kind-48
// receive is taken by the write after it, and each write taking one follows a kind-48 receive, is the watch's check
// in the test above (its refusal would name "nin14"). Counts the corpus had when decoded: 58 decode, 146 held out.
TEST(LleCorpus, EveryStreamReceivesKindCodeFitsItsForm) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t receives = 0, decodeBlocks = 0, heldOutBlocks = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    const std::string name = fs::path(path).filename().string();
    const bool decode = name == "ensemble_edgetpu.tflite" || name.starts_with("mobilenet_v1_0.25_128_quant_cocompiled_with_3quant");
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        const auto op = static_cast<uint8_t>(p.opcode);
        if (p.action != models::PacketAction::kIssue || !p.tilePacket || !lle::receiveKindField(op, p.words)) continue;
        ++receives;
        EXPECT_EQ(lle::receiveKindProblem(op, p.words), "") << name << " PC " << p.pc;
        if (lle::receiveCarriesBlockPrefixes(op, p.words)) ++(decode ? decodeBlocks : heldOutBlocks);
      }
    });
  });
  std::printf("stream receives %zu; block-prefix receives: decode %zu, held out %zu\n", receives, decodeBlocks, heldOutBlocks);
  EXPECT_GT(decodeBlocks, 0u);
  EXPECT_GT(heldOutBlocks, 0u) << "no held-out block-prefix receive";
}

}  // namespace
}  // namespace coralsim::driver::lle_block_prefix_write_test
