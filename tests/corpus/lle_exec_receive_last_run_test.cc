// The execution-only 0x11 receive's shorter last repetition and the input pop's high beat count
// (docs/decoding-log.md "oldrecv"; lle_fields.def Recv11ExecLastRunOn / LastRun / LastShort,
// PopInputBeatsHigh) over every distinct compiled corpus program.
//
// Where a receive with the loop nest sets w1 bit 121, the input pop that next feeds its tiles brings
// (Run + 1) x Repeat + LastRun + 1 rows of 256 bytes: its last repetition runs LastRun + 1 rows. Counted
// apart for the decode set (PoseNet 353x481, rubensrech conv 500^2) and the held-out rest; the reading with
// every repetition whole, and the pop's length without PopInputBeatsHigh, are the controls (they must hold
// in fewer, or the test shows nothing). Recv11ExecLastShort = Run - LastRun in every such receive, and
// without the bit its 33 bits are 0.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_exec_receive_last_run_test {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;

constexpr uint8_t kReceive = 0x11, kPop = 0x26;
constexpr uint64_t kRowBytes = 256, kBeatsPerHighUnit = 16384;

uint16_t tilesOf(const models::DecodedPacket& p) {
  return static_cast<uint8_t>(p.opcode) == kPop ? static_cast<uint16_t>(readField(p.words, LleField::PopTiles)) : p.tileMask;
}

// The input pop that next feeds the tiles of the receive at `at`, or nullptr when another packet moving data
// into them (another pop, a send, a compute, a mesh transfer) comes first.
const models::DecodedPacket* nextInputPop(std::span<const models::DecodedPacket> packets, size_t at) {
  const uint16_t mask = packets[at].tileMask;
  for (size_t i = at + 1; i < packets.size(); ++i) {
    const models::DecodedPacket& p = packets[i];
    const auto op = static_cast<uint8_t>(p.opcode);
    const bool carrier = op == kPop || op == 0x10 || op == 0x01 || op == 0x12 || (op >= 0x15 && op <= 0x18);
    if (!carrier || (tilesOf(p) & mask) == 0) continue;
    return op == kPop && readField(p.words, LleField::PopIsInput) != 0 ? &p : nullptr;
  }
  return nullptr;
}

// The pop's input bytes (8 per 64-byte ring beat); a one-beat pop counts its beats in its ring loop ("recv11" §C).
uint64_t popInputBytes(const models::DecodedPacket& pop, bool withHighPart) {
  uint64_t beats = readField(pop.words, LleField::PopInputBeats) + 1;
  if (withHighPart) beats += kBeatsPerHighUnit * readField(pop.words, LleField::PopInputBeatsHigh);
  if (beats == 1) beats = readField(pop.words, LleField::PopRingLimit) + 1;
  return 8 * beats;
}

TEST(LleCorpus, ExecutionOnlyReceivesWithAShorterLastRepetitionTakeThePopsRows) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  struct Tally {
    size_t receives = 0, popFed = 0, shortened = 0, whole = 0, withoutHigh = 0, shortfallHolds = 0;
  } decide, heldOut;
  size_t withoutBit = 0, withoutBitClear = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    const std::string name = path.filename().string();
    Tally& t = name.find("posenet_mobilenet_v1_075_353_481") != std::string::npos ||
                       name.find("conv_2d_1_500_500_1_40_40") != std::string::npos
                   ? decide
                   : heldOut;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      const std::span<const models::DecodedPacket> packets = program.packets();
      for (size_t i = 0; i < packets.size(); ++i) {
        const models::DecodedPacket& p = packets[i];
        if (static_cast<uint8_t>(p.opcode) != kReceive || readField(p.words, LleField::Recv11ExecutionForm) == 0 ||
            readField(p.words, LleField::Recv11ExecInnerLevel) == 0) {
          continue;
        }
        const uint64_t run = readField(p.words, LleField::Recv11ExecRun);
        const uint64_t repeat = readField(p.words, LleField::Recv11ExecRepeat, 0);
        const uint64_t lastRun = readField(p.words, LleField::Recv11ExecLastRun);
        if (readField(p.words, LleField::Recv11ExecLastRunOn) == 0) {
          ++withoutBit;
          withoutBitClear += lastRun == 0 && readField(p.words, LleField::Recv11ExecLastShort) == 0;
          continue;
        }
        ++t.receives;
        t.shortfallHolds += lastRun <= run && readField(p.words, LleField::Recv11ExecLastShort) == run - lastRun;
        const models::DecodedPacket* pop = nextInputPop(packets, i);
        if (!pop) continue;
        ++t.popFed;
        const auto rowsOf = [](uint64_t bytes) { return (bytes + kRowBytes - 1) / kRowBytes; };
        const uint64_t popRows = rowsOf(popInputBytes(*pop, true));
        t.shortened += popRows == (run + 1) * repeat + lastRun + 1;
        t.whole += popRows == (run + 1) * (repeat + 1);
        t.withoutHigh += rowsOf(popInputBytes(*pop, false)) == (run + 1) * repeat + lastRun + 1;
      }
    });
  });
  for (const auto& [label, t] : {std::pair<const char*, const Tally&>{"decide", decide}, {"held out", heldOut}}) {
    std::printf("%s: receives with a shorter last repetition %zu, Run - LastRun stated in %zu; fed by an input pop %zu: "
                "pop rows = (Run + 1) x Repeat + LastRun + 1 in %zu (without PopInputBeatsHigh %zu), every repetition "
                "whole in %zu\n",
                label, t.receives, t.shortfallHolds, t.popFed, t.shortened, t.withoutHigh, t.whole);
    EXPECT_GT(t.popFed, 0u) << label;
    EXPECT_EQ(t.shortfallHolds, t.receives) << label;
    EXPECT_EQ(t.shortened, t.popFed) << label;
    EXPECT_EQ(t.whole, 0u) << label;
  }
  std::printf("receives with the nest without the bit: %zu, LastRun and LastShort 0 in %zu\n", withoutBit, withoutBitClear);
  EXPECT_EQ(withoutBitClear, withoutBit);
  EXPECT_LT(heldOut.withoutHigh, heldOut.shortened);
}

}  // namespace
}  // namespace coralsim::driver::lle_exec_receive_last_run_test
