// The block level of a compute-feeding write on real programs (docs/decoding-log.md "twice14"; models/lle/
// stage14_block_level.h): a compute-feeding 0x14 whose nest comes back to its units and is not a one-outer-level window
// -- the PoseNet / BodyPix 16-channel decoders' two-row prefix nest: a part's units, the two parts one 64-unit row
// apart, the blocks at stride 0 -- is found by structure in every distinct compiled model and each such model runs on
// the lle rung (random input, seed 1). No run is refused on the write's nest ("writes some units more than once", the
// block-level refusals), and every program of the decode set (PoseNet 353x481 / 481x641) gets past its first such write
// at run time, eight in all (on main all eight 16-channel decoders were refused there; ensemble and nin_cnn are refused
// by the static check before their run, on main and here). A program that runs fully is past its write (since "lift18"
// five decoders do; four are compared with their goldens by corpus_lle, PoseNet 324x324_16 has none).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "models/lle/lle_fields.h"
#include "models/lle/staging_window.h"
#include "models/lle/write_nest.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/corpus/first_packet_pc.h"
#include "tests/corpus/lle_refusal_pc.h"
#include "tests/corpus/lle_run_on_device.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_stage14_block_level_test {
namespace {

namespace fs = std::filesystem;
using lle::LleField;

// A compute-feeding 0x14 whose nest revisits a unit and is not a window (the rung's block-level rule).
bool isBlockLevelWrite(const models::DecodedPacket& p) {
  if (!p.tilePacket || static_cast<uint8_t>(p.opcode) != 0x14 || lle::readField(p.words, LleField::Stage14FeedsCompute) == 0) return false;
  const lle::WriteNest nest = lle::WriteNest::fromPacket(p.words);
  const uint64_t address =
      lle::readField(p.words, LleField::Stage14NarrowAt64) * 64 + lle::readField(p.words, LleField::Stage14NarrowUnit) * 4;
  return !nest.contiguous() && nest.units() < (uint64_t{1} << 20) && nest.revisitsAUnit() && !lle::StagingWindow::of(nest, address);
}

// The instruction chunk (1-based: the execution-only executable's bitstream, as the static check's refusal counts them) of
// the first block-level write, or 0.
size_t chunkOfFirstBlockLevelWrite(const ModelFile& file) {
  for (const Executable* e : allExecutables(file)) {
    if (e->type != ExecutableType::ExecutionOnly) continue;
    for (size_t b = 0; b < e->bitstreams.size(); ++b) {
      const auto program = models::DecodedProgram::fromBytes(e->bitstreams[b].bytes);  // held: packets() views it
      for (const models::DecodedPacket& p : program->packets()) {
        if (isBlockLevelWrite(p)) return b + 1;
      }
    }
  }
  return 0;
}

// The chunk a static refusal names ("instruction chunk N (... bytes): opcode ..."), or 0.
size_t refusedChunk(const std::string& why) {
  const std::string key = "instruction chunk ";
  const size_t at = why.find(key);
  return at == std::string::npos ? 0 : std::stoul(why.substr(at + key.size()));
}

TEST(LleStage14BlockLevel, TheDecodersPassTheirTwoRowPrefixWriteAndNoRunIsRefusedOnIt) {
  if (!coralsim::testing::corpusDir()) GTEST_SKIP() << "\n*** SKIPPED: the corpus is absent (CORALSIM_CORPUS). ***\n";
  size_t programs = 0, decodeSet = 0, past = 0, decodeSetPast = 0;
  coralsim::testing::forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& file) {
    const long writePc = coralsim::testing::firstExecutionOnlyPc(file, isBlockLevelWrite);
    if (writePc < 0) return;
    ++programs;
    const std::string name = path.filename().string();
    const bool decide = name.starts_with("posenet_mobilenet_v1_075_353_481") || name.starts_with("posenet_mobilenet_v1_075_481_641");
    decodeSet += decide;
    // A program that runs fully executed its write and every packet after it: past it. Its output is judged where its
    // golden is (LleCorpus.GoldenModelsThatRunInLleMatchTheGoldenBytes, the "references disagree" class of
    // docs/decoding-log.md "hold17" §D for the 16-channel decoders); this test asserts only how far the run gets.
    const RunPlan plan = planRun(file);
    const RunResult run = coralsim::testing::runOnLle(plan, randomInputs(plan, 1));
    if (run.ok()) {
      ++past;
      decodeSetPast += decide;
      std::printf("%-64s (%s) first block-level write 0x%04lx, runs fully (past it)\n", name.c_str(), decide ? "decode set" : "held out",
                  writePc);
      return;
    }
    const std::string why = *run.error;
    const long stopPc = coralsim::testing::refusedPc(why);
    // A refusal before the run (the static check of the whole chunk) names the packet's engine, "opcode 0x13
    // (tile.dma13) at PC ...": such a program ran no packet, so it is not past its write whatever the PC (ensemble,
    // nin_cnn). "past" counts run-time stops after the write's PC.
    // A later chunk's static refusal comes after the write's chunk ran to its end (since "lift18" PoseNet 721x1281_16 and
    // 1280x720_16 run chunk 1 fully and are refused by chunk 2's check): past the write.
    const size_t writeChunk = chunkOfFirstBlockLevelWrite(file);
    const bool laterChunk = refusedChunk(why) > writeChunk && writeChunk > 0;
    const bool beforeTheRun = why.find(" (tile.") != std::string::npos && !laterChunk;
    const bool isPast = laterChunk || (!beforeTheRun && stopPc > writePc);
    past += isPast;
    decodeSetPast += decide && isPast;
    std::printf("%-64s (%s) first block-level write 0x%04lx, stops %s at 0x%04lx%s\n", name.c_str(), decide ? "decode set" : "held out",
                writePc, laterChunk ? "in a later chunk's check" : beforeTheRun ? "before the run" : "at run time", stopPc,
                isPast ? " (past it)" : "");
    EXPECT_EQ(why.find("writes some units more than once"), std::string::npos) << path << ": " << why;
    EXPECT_EQ(why.find("the write nest's"), std::string::npos) << path << ": " << why;
    EXPECT_EQ(why.find("below its outermost counting level"), std::string::npos) << path << ": " << why;
    if (!laterChunk) {
      EXPECT_NE(stopPc, writePc) << path << ": refused at its first block-level write: " << why;
    }
  });
  if (programs == 0) GTEST_SKIP() << "\n*** SKIPPED: no corpus model with a block-level compute-feeding 0x14 (CORALSIM_CORPUS). ***\n";
  std::printf("programs with a block-level write: %zu (decode set %zu), past their first: %zu (decode set %zu)\n", programs, decodeSet,
              past, decodeSetPast);
  EXPECT_EQ(decodeSet, 2u) << "the PoseNet 353x481 / 481x641 16-channel decoders not both found";
  EXPECT_EQ(decodeSetPast, decodeSet) << "a decode-set decoder stops at or before its first block-level write";
  EXPECT_GE(past, 8u) << "fewer programs past their first block-level write than the decoding log reports (\"twice14\": the eight "
                         "PoseNet / BodyPix 16-channel decoders)";
}

}  // namespace
}  // namespace coralsim::driver::lle_stage14_block_level_test
