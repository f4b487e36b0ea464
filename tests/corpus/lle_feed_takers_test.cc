// A host-bound weight feed serves every convolution waiting on its pop's tiles (docs/decoding-log.md "feed2";
// LleRung::drainWeightFeed): every distinct compiled model with a weight-feed send (0x10 with Dma10WeightFeed and
// Dma10ToOutfeed, found by structure) runs on the lle rung (random input, seed 1). No run is refused for several
// convolutions waiting on one send, nor for a waiting convolution outside the pop's tiles, and the decode set
// (PoseNet 353x481 / 481x641 16-channel decoders, whose first feeds serve four computes on tiles 0,2 / 1,3 / 4,6,.. /
// 5,7,..) gets past its first weight-feed send at run time. On main the five 16-channel decoders were refused there
// ("a weight-feed send with 2 convolutions waiting"). A run that ends fully is not compared here (the golden tests do).
// No run may stop on a second convolution waiting on a tile while an earlier one there still waits (docs/decoding-log.md
// "wait2"): no corpus tile has two (scan_waiting_takers.py: every feed send finds one taker a tile). The two programs that
// stopped there since "w3b103" (MobileNet v2 wo_fc 1024x512 @ 0x02a1, the google-coral PoseNet 481x641 decoder @ 0x0616)
// had read the host's input stream as the first one's weight stream; the input copy takes the kept read on that tag
// (lle_rung_input_stream_tag.cc). Nor may a run stop because a kept read names a weight stream's tag (0 corpus reads).
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
#include "models/scalar/decoded_program.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/corpus/first_packet_pc.h"
#include "tests/corpus/lle_refusal_pc.h"
#include "tests/corpus/lle_run_on_device.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_feed_takers_test {
namespace {

namespace fs = std::filesystem;
using lle::LleField;

bool isWeightFeedSend(const models::DecodedPacket& p) {
  return p.tilePacket && static_cast<uint8_t>(p.opcode) == 0x10 && lle::readField(p.words, LleField::Dma10WeightFeed) == 1 &&
         lle::readField(p.words, LleField::Dma10ToOutfeed) == 1;
}

TEST(LleFeedTakers, EveryConvolutionWaitingOnAFeedsTilesRunsAtItsSend) {
  if (!coralsim::testing::corpusDir()) GTEST_SKIP() << "\n*** SKIPPED: the corpus is absent (CORALSIM_CORPUS). ***\n";
  size_t programs = 0, decodeSet = 0, decodeSetPast = 0, secondWaiting = 0;
  coralsim::testing::forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& file) {
    const long sendPc = coralsim::testing::firstExecutionOnlyPc(file, isWeightFeedSend);
    if (sendPc < 0) return;
    ++programs;
    const std::string name = path.filename().string();
    const bool decide = name.starts_with("posenet_mobilenet_v1_075_353_481_16") || name.starts_with("posenet_mobilenet_v1_075_481_641_16");
    decodeSet += decide;
    const RunPlan plan = planRun(file);
    const RunResult r = coralsim::testing::runOnLle(plan, randomInputs(plan, 1));
    if (r.ok()) {  // a program that runs fully is past its send too (the decode set since "dec16")
      decodeSetPast += decide;
      return;
    }
    const std::string& why = *r.error;
    const long stopPc = coralsim::testing::refusedPc(why);
    const bool beforeTheRun = why.find(" (tile.") != std::string::npos;
    decodeSetPast += decide && !beforeTheRun && stopPc > sendPc;
    std::printf("%-64s (%s) first weight-feed send 0x%04lx, stops %s at 0x%04lx\n", name.c_str(), decide ? "decode set" : "held out", sendPc,
                beforeTheRun ? "before the run" : "at run time", stopPc);
    EXPECT_EQ(why.find("convolutions waiting"), std::string::npos) << path << ": " << why;
    EXPECT_EQ(why.find("waiting for it also runs on tiles"), std::string::npos) << path << ": " << why;
    if (why.find("while the one at PC") != std::string::npos) {
      ++secondWaiting;
      ADD_FAILURE() << path << ": stops on a second waiting convolution: " << why;
    }
    EXPECT_EQ(why.find("no input pop fed it"), std::string::npos) << path << ": " << why;
  });
  if (programs == 0) GTEST_SKIP() << "\n*** SKIPPED: no corpus model with a weight-feed send (CORALSIM_CORPUS). ***\n";
  std::printf("programs with a weight-feed send: %zu (decode set %zu, past their first send %zu); stopped on a second waiting "
              "convolution: %zu\n",
              programs, decodeSet, decodeSetPast, secondWaiting);
  EXPECT_EQ(decodeSet, 2u) << "the PoseNet 353x481 / 481x641 16-channel decoders not both found";
  EXPECT_EQ(decodeSetPast, decodeSet) << "a decode-set decoder stops at or before its first weight-feed send";
}

}  // namespace
}  // namespace coralsim::driver::lle_feed_takers_test
