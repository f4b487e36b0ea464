// The convolution programs on the lle rung against the golden bytes (docs/decoding-log.md "conv32run"
// §D). For every golden model whose execution-only program holds a convolution compute (4-byte input
// elements with a tap-row loop, ComputeNest37Limit1 > 0) and that the rung cannot yet run end to end,
// the test drives an LleRung itself: the PARAMETER_CACHING program with the executable's parameters,
// then the EXECUTION_ONLY program with the golden case's input, packet by packet in program order. A
// packet the rung refuses is recorded (opcode, PC) and skipped -- the measurement is what the rung
// computes from the packets it accepts, not a run: the output window it drains is re-laid into TFLite
// order with the executable's output layout and compared with the golden custom-op output (the
// preferred fp32-requantisation variant where there is one), whole tensor. Found by structure, no model named. Decode set: conv 32² 3 x 3 (every bit the rung pins for
// the convolution is from it); everything else found is held out (32² 6 x 6 ...).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/run/output_layout.h"
#include "models/chip/block_interfaces.h"
#include "models/chip/datapath_rung.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/held_streams.h"
#include "tests/support/corpus.h"
#include "tests/support/golden_output.h"
#include "tests/support/json_reader.h"

namespace coralsim::driver::lle_conv_run_test {
namespace {

using coralsim::testing::JsonValue;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

using Streams = coralsim::testing::HeldStreams;

std::string text(const JsonValue* v) { return v ? v->text : std::string(); }

JsonValue readManifest(const fs::path& dir) { return coralsim::testing::readJsonFile(dir / "manifest.json"); }

bool isConvolutionCompute(const models::DecodedPacket& p) {
  return static_cast<uint8_t>(p.opcode) == 0x01 && p.words.size() == 17 && readField(p.words, LleField::ComputeInputBytes) == 4 &&
         readField(p.words, LleField::ComputeNest37Limit1) != 0;
}

// The depthwise layout (docs/decoding-log.md "depthwise" §B): a convolution compute whose positions run at
// Nest37 level 2 while Output37 walks them at its level 0 alone (ComputeOutPositions 0) -- the rubensrech
// depthwise sweep; the single-channel convolutions keep Nest37 level 2 once.
bool isDepthwiseLayout(const models::DecodedPacket& p) {
  return isConvolutionCompute(p) && readField(p.words, LleField::ComputePositions) != 0 &&
         readField(p.words, LleField::ComputeOutPositions) == 0;
}

// Feeds every packet of `bitstream` the rung takes; refusals are appended to `refused`. The input
// arrives as on the device: its DMA follows the descriptors the core pushes before the first input
// pop, so a compute issued before that pop finds no input yet (it waits, lle_rung.cc).
void drive(lle::LleRung& rung, const std::vector<uint8_t>& bitstream, Streams& streams, const std::vector<uint8_t>& input,
           std::vector<std::string>& refused) {
  const auto program = models::DecodedProgram::fromBytes(bitstream);
  for (const models::DecodedPacket& p : program->packets()) {
    // The packets the core hands the rung (datapath_rung.h): tile packets and the scalar-side units.
    const auto op = static_cast<uint8_t>(p.opcode);
    if (p.action != models::PacketAction::kIssue || op == 0x20 || op > 0x27 || (op >= 0x21 && op <= 0x23)) continue;
    if (op == 0x26 && readField(p.words, LleField::PopIsInput) != 0) streams.input = input;
    try {
      rung.packet(p, streams, 0);
    } catch (const models::ChipFault& e) {
      char where[48];
      std::snprintf(where, sizeof where, "0x%02x @ 0x%04llx", static_cast<unsigned>(p.opcode), static_cast<unsigned long long>(p.pc));
      refused.push_back(where);
      if (std::getenv("CORALSIM_LLE_VERBOSE")) std::printf("    %s\n", e.what());
    }
  }
}

struct Tally {
  size_t bytes = 0, exact = 0;
  int maxDiff = 0;
};

TEST(LleCorpus, TheConvolutionProgramsOutputAgainstTheGoldenBytes) {
  const auto golden = coralsim::testing::goldenDir();
  if (!golden) GTEST_SKIP() << "\n*** SKIPPED: golden data not found (set CORALSIM_GOLDEN). ***\n";
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  size_t programs = 0, bitExact = 0, depthwiseBitExact = 0;
  for (const auto& entry : fs::directory_iterator(*golden)) {
    if (!entry.is_directory() || !fs::exists(entry.path() / "manifest.json")) continue;
    const JsonValue manifest = readManifest(entry.path());
    const fs::path compiledPath = *corpus / text(manifest.find("compiled")->find("path"));
    if (!fs::exists(compiledPath)) continue;
    const ModelFile model = loadModelFile(compiledPath);
    const Executable* eo = nullptr;
    const Executable* pc = nullptr;
    for (const Executable* e : allExecutables(model)) {
      if (e->type == ExecutableType::ExecutionOnly) eo = e;
      if (e->type == ExecutableType::ParameterCaching) pc = e;
    }
    if (!eo || !pc || eo->bitstreams.size() != 1 || eo->outputLayers.size() != 1 || eo->inputLayers.size() != 1) continue;
    const auto program = models::DecodedProgram::fromBytes(eo->bitstreams[0].bytes);
    bool convolution = false, depthwise = false;
    for (const models::DecodedPacket& p : program->packets()) {
      convolution = convolution || isConvolutionCompute(p);
      depthwise = depthwise || isDepthwiseLayout(p);
    }
    if (!convolution) continue;
    ++programs;
    const Layer& out = eo->outputLayers[0];
    Tally tally;
    std::set<std::string> stops;
    for (const JsonValue& c : manifest.find("cases")->items) {
      Streams streams;
      streams.params = pc->parameters;
      const auto input = coralsim::testing::readFile(entry.path() / text(c.find("tpu_inputs")->items.at(0).find("dev_file")));
      // The preferred reference in the device's encoding (the rung's output bytes).
      const auto want = coralsim::testing::readPreferredGoldenDeviceOutput(entry.path(), c.find("tpu_outputs")->items.at(0));
      models::ChipConfig config;
      lle::LleRung rung(config);
      std::vector<std::string> refused;
      rung.beginRun();
      for (const auto& b : pc->bitstreams) drive(rung, b.bytes, streams, input, refused);
      rung.endRun();
      rung.beginRun();
      drive(rung, eo->bitstreams[0].bytes, streams, input, refused);
      const std::vector<uint8_t> device = rung.windowTail(0, static_cast<uint32_t>(out.sizeBytes), 0, streams);
      rung.endRun();
      for (const std::string& r : refused) stops.insert(r);
      std::vector<uint8_t> deviceFull(static_cast<size_t>(out.sizeBytes), 0);
      std::copy(device.begin(), device.end(), deviceFull.begin());
      const auto ours = deviceToTfliteOrder(out, deviceFull);
      ASSERT_TRUE(ours.has_value()) << compiledPath;
      tally.bytes += want.size();
      for (size_t i = 0; i < want.size(); ++i) {
        const int d = i < ours->size() ? std::abs(int{(*ours)[i]} - int{want[i]}) : 255;
        tally.exact += d == 0;
        tally.maxDiff = std::max(tally.maxDiff, d);
      }
      if (device.size() != static_cast<size_t>(out.sizeBytes)) tally.maxDiff = 255;
    }
    std::string stopText;
    for (const std::string& s : stops) stopText += (stopText.empty() ? "" : ", ") + s;
    const double percent = tally.bytes ? 100.0 * static_cast<double>(tally.exact) / static_cast<double>(tally.bytes) : 0.0;
    std::printf("  %-55s %zu / %zu bytes exact (%.1f %%), max |d| %d; packets refused and skipped: %s\n",
                compiledPath.filename().string().c_str(), tally.exact, tally.bytes, percent, tally.maxDiff,
                stopText.empty() ? "none" : stopText.c_str());
    bitExact += tally.bytes > 0 && tally.maxDiff == 0;
    depthwiseBitExact += depthwise && tally.bytes > 0 && tally.maxDiff == 0;
  }
  std::printf("convolution programs with golden data: %zu; output bit-exact on every case: %zu\n", programs, bitExact);
  ASSERT_GT(programs, 0u) << "no convolution program with golden data: the corpus or golden set lost them";
  // conv 32² 3 x 3 (decode set): its halo exchange, weight stream and convolution compute run on the
  // rung, the pop feeding its weight stream ("conv32merge" §B) and the weight feed after it (the nested
  // 0x27 and its tile-0 send, "conv32end"): no packet skipped. conv 32² 6 x 6 (held out from every decode
  // set): its compute passes once its K count (ComputeKCount, w9[75:64] = 36, "rubens" §A) is read and its
  // feeding pop's ring passes are ("rubens" §C); its mesh and compute bits the rung pins hold 3 x 3's values.
  // conv 64^2 3 x 3 and 256^2 40 x 40 since; depthwise 256^2 ("depthwise": its compute's w12 form pinned to
  // it, the output nest's layout executed), every one of its 196,608 bytes, no packet skipped since its input
  // infeed's transfer is decoded ("infeed64k"); conv / depthwise 500^2 send their outputs through scalar
  // memory, which this harness does not drain (TheWeightFeedProgramsThatRunFullyOnLleMatchGoldenEveryByte
  // runs them through the driver, "rowrest"). conv 512^2 40 x 40 (held out): its convolution compute passes
  // once w12 bits 33 / 47 are declared don't-care ("w12" §B): six. The gabor 64^2 7k (decode set) and 128^2
  // 7k (held out) templates since their weight broadcast, the 0x12 stream's rows and weight-offset array and
  // the 8-lane positions ("bcast10"): eight. RingCanary 12x176x32 since its w12 bit 42 is declared don't-care
  // and its w14 / w15 pinned ("w12c" §B; its raw output stream also hashes to the hardware's): nine. The
  // other four RingCanary 32- / 64-channel programs ("ring88"): thirteen. RingCanary 12x{128,176,184}x128 since
  // their compute-feeding write's w5[14:0], the two 64-lane output blocks and the wide positions' lane-group walk
  // ("ring128"; 12x128x128 the decode set): sixteen.
  EXPECT_GE(bitExact, 16u) << "fewer convolution programs bit-exact than the decoding log reports";
  EXPECT_GE(depthwiseBitExact, 1u) << "no program with the depthwise layout bit-exact (the decoding log reports depthwise 256^2)";
}

}  // namespace
}  // namespace coralsim::driver::lle_conv_run_test
