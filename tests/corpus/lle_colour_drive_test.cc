// The LibrEdgeTPU colour templates driven packet by packet past their second identity read (docs/decoding-log.md "colx").
//
// A plain lle run of the twelve colour templates stops at the kept read @ 0x019c: its Stage13KeptSequence (514 / 2,050)
// is not one more than the number its tiles hold ("keep13" decodes a run 1, 2, 3, ... only; helper "col13" decodes this
// one). Everything after it is what this drive checks: the packets are fed to the lle rung one by one, in program order
// (the parameter-caching program first), and where the rung refuses a kept read for its number alone, the drive issues it
// again as the first read of a run (Stage13KeptSequence 1) -- only when its words equal, but for that number and the
// packet's sequence number, a kept read issued earlier in the run on the same tiles: the same nest over the same narrow
// bytes (the four fills just before it rewrite the identity block with the values the first read kept), so it keeps
// the same operand for the same stream tag. Nothing else is bridged; once the rung decodes the number, no read is
// substituted and the test checks that reading instead.
// Then the run must reach the chunk's end (the re-layout of the CONV_2D's output onto the tiles, bright's softmax chain,
// both FULLY_CONNECTED computes, the concatenation and the outfeed: "trkrun", "trk14"-"trk16", "fcx") and its output, in
// TFLite order and the device's encoding, must equal every golden case. Decode set: colour blue 64^2 and cyan 128^2 (the
// drive's rule was set on their listings); held out: the other ten. A control shows the golden depends on the block the
// substituted read keeps: with the block's first two units swapped before it (a permutation, not the identity), the
// decode set's non-degenerate cases must miss.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "driver/run/output_layout.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/bright_templates.h"
#include "tests/corpus/held_streams.h"
#include "tests/support/corpus.h"
#include "tests/support/golden_output.h"
#include "tests/support/json_reader.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_colour_drive_test {
namespace {

namespace fs = std::filesystem;

bool isKeptRead(const models::DecodedPacket& p) {
  return static_cast<uint8_t>(p.opcode) == 0x13 && readField(p.words, LleField::Stage13Route, 0) == 0 &&
         readField(p.words, LleField::Stage13Route, 1) == 0 && readField(p.words, LleField::Stage13W4Bit59) == 0;
}

// The words of a kept read with its number and its tile sequence number cleared: two reads are "the same read" when
// these are equal.
std::vector<isa::Word128> withoutNumbers(std::span<const isa::Word128> packetWords) {
  std::vector<isa::Word128> words(packetWords.begin(), packetWords.end());
  setFieldElement(words, LleField::Stage13KeptSequence, 0, 0);
  setFieldElement(words, LleField::Dma13Seq, 0, 0);
  return words;
}

struct DriveRun {
  std::string stop = "the chunk's end";
  std::vector<uint64_t> substitutedPcs;  // kept reads issued again as number 1 (see the file comment)
  std::vector<uint8_t> outfeed;          // window 0's bytes at the chunk's end
};

// `swapBlock` (the control): before each substituted read, its block's first two units are filled with each other's
// values, so that the read keeps a permutation of the identity.
DriveRun drive(const models::DecodedProgram* caching, const models::DecodedProgram& program, const std::vector<uint8_t>& cachingParams,
               const std::vector<uint8_t>& executionParams, const std::vector<size_t>& executionParamBlocks, const std::vector<uint8_t>& image,
               uint32_t outputBytes, bool swapBlock) {
  models::ChipConfig config;
  LleRung rung(config);
  EnvelopePackets made(0xf000);
  coralsim::testing::HeldStreams streams;
  streams.input = image;
  DriveRun run;
  rung.reset();
  const auto one = [&](const models::DecodedProgram& p, bool execution) {
    streams.params = execution ? executionParams : cachingParams;
    // The execution-only run's stream arrives in its descriptors' blocks, one a parameter 0x25 (held_streams.h, "trk128").
    streams.paramBlocks = execution ? executionParamBlocks : std::vector<size_t>{};
    streams.blocksDelivered = 0;
    rung.beginRun();
    std::vector<std::pair<uint16_t, std::vector<isa::Word128>>> keptReads;  // this run's kept reads: mask, words without numbers
    for (const models::DecodedPacket& packet : p.packets()) {
      if (packet.action != models::PacketAction::kIssue) continue;
      const bool kept = isKeptRead(packet);
      std::vector<isa::Word128> same;
      if (kept) same = withoutNumbers(packet.words);
      if (static_cast<uint8_t>(packet.opcode) == 0x25 && readField(packet.words, LleField::InfeedIsInput) == 0) streams.deliverParameterBlock();
      try {
        try {
          rung.packet(packet, streams, 0);
        } catch (const std::exception& refusal) {
          // keepRead refuses a number before it changes any tile: the read can be issued again.
          const bool forItsNumber = std::string(refusal.what()).find("Stage13KeptSequence") != std::string::npos;
          const bool repeats = kept && std::ranges::any_of(keptReads, [&](const auto& k) { return k.first == packet.tileMask && k.second == same; });
          if (!forItsNumber || !repeats) throw;
          if (swapBlock) {
            const uint64_t at4 = readField(packet.words, LleField::Stage13NarrowAt4);
            const AddressedMemory& narrow = rung.tile(0).narrowSram;
            const auto unit = [&](uint64_t u) {
              const auto b = narrow.read(4 * (at4 + u), 4);
              return uint64_t{b[0]} | uint64_t{b[1]} << 8 | uint64_t{b[2]} << 16 | uint64_t{b[3]} << 24;
            };
            const uint64_t first = unit(0), second = unit(1);
            for (unsigned u = 0; u < 2; ++u) {
              rung.packet(made.make(0x17, packet.tileMask,
                                    {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17Immediate, 1}, {LleField::Fill17Value, u == 0 ? second : first},
                                     {LleField::Fill17At4, at4 + u}}),
                          streams, 0);
            }
          }
          std::vector<isa::Word128> words(packet.words.begin(), packet.words.end());
          setFieldElement(words, LleField::Stage13KeptSequence, 0, 1);
          models::DecodedPacket firstOfARun = packet;
          firstOfARun.words = words;
          rung.packet(firstOfARun, streams, 0);
          run.substitutedPcs.push_back(packet.pc);
        }
      } catch (const std::exception& refusal) {
        run.stop = refusal.what();
        return false;
      }
      if (kept) keptReads.emplace_back(packet.tileMask, std::move(same));
    }
    if (execution) run.outfeed = rung.windowTail(0, outputBytes, 0, streams);
    rung.endRun();
    return true;
  };
  if (caching && !one(*caching, false)) {
    run.stop = "(parameter caching) " + run.stop;
    return run;
  }
  one(program, true);
  return run;
}

struct GoldenCase {
  std::string name;
  std::vector<uint8_t> input, expected;  // expected: the preferred reference in the device's encoding
};

std::vector<GoldenCase> goldenCases(const std::string& stem) {
  std::vector<GoldenCase> cases;
  const auto golden = coralsim::testing::goldenDir();
  const fs::path dir = golden ? *golden / ("ricardodeazambuja+LibrEdgeTPU__" + stem) : fs::path();
  if (dir.empty() || !fs::exists(dir / "manifest.json")) return cases;
  const coralsim::testing::JsonValue manifest = coralsim::testing::readJsonFile(dir / "manifest.json");
  for (const coralsim::testing::JsonValue& c : manifest.find("cases")->items) {
    cases.push_back({c.find("case")->text, coralsim::testing::readFile(dir / c.find("tpu_inputs")->items.at(0).find("dev_file")->text),
                     coralsim::testing::readPreferredGoldenDeviceOutput(dir, c.find("tpu_outputs")->items.at(0))});
  }
  return cases;
}

TEST(LleColour, DrivenPastTheSecondIdentityReadTheyRunToTheOutfeedAndEqualTheGolden) {
  const auto corpus = coralsim::testing::corpusDir();
  if (!corpus || !coralsim::testing::goldenDir()) {
    GTEST_SKIP() << "\n*** SKIPPED: the corpus or the golden outputs are absent (CORALSIM_CORPUS, CORALSIM_GOLDEN). ***\n";
  }
  std::vector<fs::path> colours;
  for (const fs::path& p : coralsim::testing::trackerTemplatePrograms(*corpus)) {
    if (p.filename().string().starts_with("color_")) colours.push_back(p);
  }
  if (colours.empty()) GTEST_SKIP() << "\n*** SKIPPED: no colour template in the corpus. ***\n";
  struct Tally {
    size_t programs = 0, cases = 0, reached = 0, exact = 0;
  } decode, heldOut;
  size_t controlCases = 0, controlMisses = 0;
  for (const fs::path& path : colours) {
    const std::string file = path.filename().string();
    const std::string stem = file.substr(0, file.size() - std::string("_edgetpu.tflite").size());
    const bool decodeSet = stem == "color_blue_64x64" || stem == "color_cyan_128x128";
    Tally& tally = decodeSet ? decode : heldOut;
    const std::vector<GoldenCase> cases = goldenCases(stem);
    EXPECT_FALSE(cases.empty()) << stem << ": no golden cases";
    const driver::ModelFile model = driver::loadModelFile(path);
    // The caching program and its stream, and the execution-only stream's descriptor blocks (held_streams.h).
    const auto [caching, cachingParams, paramBlocks] = coralsim::testing::driveParameters(model);
    for (const driver::Executable* e : driver::allExecutables(model)) {
      if (e->type != driver::ExecutableType::ExecutionOnly) continue;
      ++tally.programs;
      ASSERT_EQ(e->bitstreams.size(), 1u) << stem;
      ASSERT_EQ(e->outputLayers.size(), 1u) << stem;
      const auto program = models::DecodedProgram::fromBytes(e->bitstreams[0].bytes);
      const driver::Layer& outputLayer = e->outputLayers[0];
      const auto outputBytes = static_cast<uint32_t>(outputLayer.sizeBytes);
      for (const GoldenCase& c : cases) {
        ++tally.cases;
        const DriveRun run = drive(caching.get(), *program, cachingParams, e->parameters, paramBlocks, c.input, outputBytes, false);
        std::printf("%s %s (%s): %zu read(s) issued as number 1", stem.c_str(), c.name.c_str(), decodeSet ? "decode set" : "held out",
                    run.substitutedPcs.size());
        for (const uint64_t pc : run.substitutedPcs) std::printf(" @ 0x%04llx", static_cast<unsigned long long>(pc));
        // One read at most: the colour programs repeat one kept read (the identity block's) and no other.
        EXPECT_LE(run.substitutedPcs.size(), 1u) << stem << " " << c.name;
        if (run.stop != "the chunk's end") {
          std::printf("; stopped at %s\n", run.stop.substr(0, 300).c_str());
          ADD_FAILURE() << stem << " " << c.name << ": the drive stopped at " << run.stop;
          continue;
        }
        ++tally.reached;
        const auto output = driver::deviceToTfliteOrder(outputLayer, run.outfeed);
        ASSERT_TRUE(output.has_value()) << stem;
        ASSERT_EQ(output->size(), c.expected.size()) << stem << " " << c.name;
        std::printf("; output %u %u, golden %u %u\n", (*output)[0], (*output)[1], c.expected[0], c.expected[1]);
        EXPECT_EQ(*output, c.expected) << stem << " " << c.name;
        tally.exact += *output == c.expected;
        // The control (decode set, cases whose softmax is not flat: a swapped unit moves their x / y sums).
        if (decodeSet && !run.substitutedPcs.empty() && (c.name == "rand1" || c.name == "img_bird" || c.name == "img_grace_hopper")) {
          const DriveRun swapped = drive(caching.get(), *program, cachingParams, e->parameters, paramBlocks, c.input, outputBytes, true);
          ++controlCases;
          const auto swappedOutput = swapped.stop == "the chunk's end" ? driver::deviceToTfliteOrder(outputLayer, swapped.outfeed) : std::nullopt;
          controlMisses += !swappedOutput || *swappedOutput != c.expected;
        }
      }
    }
  }
  std::printf("colour drive: decode set %zu programs, %zu / %zu cases to the outfeed, %zu golden-exact; held out %zu programs, %zu / %zu, %zu "
              "golden-exact; control (identity block's units 0 / 1 swapped): %zu / %zu decode-set cases miss\n",
              decode.programs, decode.reached, decode.cases, decode.exact, heldOut.programs, heldOut.reached, heldOut.cases, heldOut.exact,
              controlMisses, controlCases);
  EXPECT_EQ(decode.programs, 2u);
  EXPECT_EQ(heldOut.programs, 10u);
  // With the block permuted the golden must not come out: the output depends on what the substituted read keeps.
  EXPECT_EQ(controlMisses, controlCases);
}

}  // namespace
}  // namespace coralsim::lle::lle_colour_drive_test
