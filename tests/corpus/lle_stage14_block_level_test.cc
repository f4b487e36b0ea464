// The block level of a compute-feeding write on real programs (docs/decoding-log.md "twice14"; models/lle/
// stage14_block_level.h): a compute-feeding 0x14 whose nest comes back to its units and is not a one-outer-level window
// -- the PoseNet / BodyPix 16-channel decoders' two-row prefix nest: a part's units, the two parts one 64-unit row
// apart, the blocks at stride 0 -- is found by structure in every distinct compiled model and each such model runs on
// the lle rung (random input, seed 1). No run is refused on the write's nest ("writes some units more than once", the
// block-level refusals), and every program of the decode set (PoseNet 353x481 / 481x641) gets past its first such write
// at run time, eight in all (on main all eight 16-channel decoders were refused there; ensemble and nin_cnn are refused
// by the static check before their run, on main and here). A program that runs
// fully fails the test: it must then be compared with its golden (none does here).
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
    const std::string why = coralsim::testing::lleRefusalOfAStoppingProgram(file, path);
    if (why.empty()) return;  // ran fully: a failure already
    const long stopPc = coralsim::testing::refusedPc(why);
    // A refusal before the run (the static check of the whole chunk) names the packet's engine, "opcode 0x13
    // (tile.dma13) at PC ...": such a program ran no packet, so it is not past its write whatever the PC (ensemble,
    // nin_cnn). "past" counts run-time stops after the write's PC.
    const bool beforeTheRun = why.find(" (tile.") != std::string::npos;
    const bool isPast = !beforeTheRun && stopPc > writePc;
    past += isPast;
    decodeSetPast += decide && isPast;
    std::printf("%-64s (%s) first block-level write 0x%04lx, stops %s at 0x%04lx%s\n", name.c_str(), decide ? "decode set" : "held out",
                writePc, beforeTheRun ? "before the run" : "at run time", stopPc, isPast ? " (past it)" : "");
    EXPECT_EQ(why.find("writes some units more than once"), std::string::npos) << path << ": " << why;
    EXPECT_EQ(why.find("the write nest's"), std::string::npos) << path << ": " << why;
    EXPECT_EQ(why.find("below its outermost counting level"), std::string::npos) << path << ": " << why;
    EXPECT_NE(stopPc, writePc) << path << ": refused at its first block-level write: " << why;
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
