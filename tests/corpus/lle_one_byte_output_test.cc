// The one-byte output form (docs/decoding-log.md "soft2b") on real programs: the LibrEdgeTPU bright templates'
// softmax reduces the image to its largest byte (two 0x02 passes, "bright02"), broadcasts it to every tile
// ("bright3") and runs one compute with ComputeOutputBytes 1 on all sixteen tiles: that byte weighed by the kept
// weight 0 less ComputeZpWeight 1, clamped to [-255, 0], plus ComputeZpOut 255. If the form is decoded right (and
// the chain before it), every tile of its mask then holds 255 - max(image) at its ComputeOutputAt: the operand the
// computes after it add to each image byte to take the maximum off (x - max).
// The device run cannot get there (the chunk is refused whole at a later packet in the softmax), so the packets are
// fed to the rung one by one, in program order (the parameter-caching program first), up to the first refusal. One
// gap is bridged by the test, not by the rung: the second max pass writes lane 0 of its unit only, and the ring
// read that starts the broadcast takes the whole unit ("bright3" Next: what the hardware leaves in lanes 1-3 is not
// known). The test writes a filler there (lane 0 kept) and runs the made-up images and img_cat with two fillers, 0x00 and
// 0xff (the other golden cases with 0x00): the one-byte compute reads lane 0 only, so its byte must not depend on the filler.
// The images are made up (maxima 203, 91 and 15 at different places), and the golden cases' inputs where the golden
// data is present. bright 64^2 is the decode set, 128^2 held out. The packet drive now runs each program to its chunk's
// end: after the chain below, the two FULLY_CONNECTED computes, the CONCATENATION's packets and the outfeed, whose output
// is compared with every golden case of the size (docs/decoding-log.md "fcx"; the made-up images' outputs are printed).
// The sixteen x - max computes after the one-byte compute (docs/decoding-log.md "soft14" §C: one a tile, the
// one-byte compute's kept sum as their bias) must each write their tile's slice of the image less the maximum plus
// 255 -- checked against the image itself, not against the rung's input bytes. The sixteen exponentials after those
// (docs/decoding-log.md "exp19" §B: a pixel walk through the tile's exp table, 16-bit results) must each write
// 65535 e^(mult (q - max)) for its tile's slice, within 1 of the rounded exponential (the table's fit, "nlu" §B).
// The 0x03 on tile 0 after them (docs/decoding-log.md "sum03", "trk14") must sum those results and write t = 2^15.5 /
// sqrt(S / 65,535) (within 1) in its four 16-bit lanes ("trk14b"), and the squaring after it u = t x t / 65,535, clamped
// at 32,768, in all eight 16-bit slots of its four output units.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "driver/run/output_layout.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "models/chip_config.h"
#include "models/lle/addressed_memory.h"
#include "models/lle/byte_stepped_weighing.h"
#include "models/lle/compute_observer.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/kept_operand_weighing.h"
#include "models/lle/two_byte_element_broadcast.h"
#include "models/lle/wide_streamed_square.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/bright_templates.h"
#include "tests/corpus/held_streams.h"
#include "tests/support/corpus.h"
#include "tests/support/golden_output.h"
#include "tests/support/json_reader.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_one_byte_output_test {
namespace {

namespace fs = std::filesystem;

bool isOneByteOutputCompute(const models::DecodedPacket& p) {
  return static_cast<uint8_t>(p.opcode) == 0x01 && readField(p.words, LleField::ComputeOutputBytes) == 1;
}

// A made-up image below `cap` everywhere but at one byte, `peak`, placed by `seed`.
std::vector<uint8_t> imageWithPeak(size_t bytes, unsigned seed, uint8_t cap, uint8_t peak) {
  std::vector<uint8_t> image(bytes);
  for (size_t i = 0; i < bytes; ++i) image[i] = static_cast<uint8_t>((41 * i + seed + i / 89) % cap);
  image[(seed * 7919u) % bytes] = peak;
  return image;
}

// One run of the two-byte lane-group form (the x - max computes, docs/decoding-log.md "soft14" §C) on one tile: its
// input address and the bytes it wrote (4 x (ComputeLaneGroups + 1) from ComputeOutputAt).
struct LaneGroupRun {
  unsigned tile = 0;
  uint64_t inputAt = 0;
  uint64_t outputAt = 0;
  std::vector<uint8_t> bytes;
};

// One run of a walked compute through the tile's table (the exponentials, docs/decoding-log.md "exp19" §B) on one tile:
// its input address, multiplier and clamps, and the 16-bit results it wrote (4 lanes x 2 bytes a position from
// ComputeOutputAt).
struct TableRun {
  unsigned tile = 0;
  uint64_t inputAt = 0;
  float mult = 0, lo = 0, hi = 0;
  std::vector<uint16_t> results;
};

struct OneByteRun {
  std::vector<std::vector<uint8_t>> tileBytes;  // per one-byte compute run: the byte each tile of its mask holds at ComputeOutputAt
  std::vector<LaneGroupRun> laneGroups;
  std::vector<TableRun> tables;
  std::string stop = "the chunk's end";
  std::vector<uint8_t> sumLanes;  // the 0x03's four 16-bit lanes on tile 0 at its ComputeOutputAt (empty if unwritten)
  std::vector<uint8_t> squares;   // the squaring's 16 bytes on tile 0 at its ComputeOutputAt (empty if unwritten)
  std::vector<uint8_t> weighed;   // the byte-stepped weighing's 8 bytes after the squaring (0x07d1, "trk15") on tile 0
  std::vector<std::vector<uint8_t>> fillPairs;  // per tile: the 4 units from the first receive-stride-2 fill's Fill17At4
  std::vector<std::vector<uint8_t>> broadcast16;  // per tile: the 2-byte element broadcast's output (0x0949, "trk16")
  std::vector<std::vector<uint8_t>> normalised;   // per tile: the weighing by the kept operand's output (0x09cb, "trk16")
  float normaliseMult = 0;
  // The FULLY_CONNECTED computes after 0x09cb (docs/decoding-log.md "fcx"): the computes without a parameter prefix issued
  // after it, in order; each one's 4-byte output unit on tile 0 at its ComputeOutputAt when the run ended (empty if unwritten).
  std::vector<std::vector<uint8_t>> fullyConnected;
  std::vector<ComputeForm> fullyConnectedForms;  // the executed form that wrote each (the compute observer's)
  std::vector<uint8_t> outfeed;  // the bytes the run's outfeed sent (window 0), when it ran to the chunk's end
};

// The broadcast copy of 2-byte elements (docs/decoding-log.md "trk16" §A: 0x0949 after the 1 / 256 fills).
bool isTwoByteElementBroadcast(const models::DecodedPacket& p) {
  if (static_cast<uint8_t>(p.opcode) != 0x01 || !TwoByteElementBroadcast::isBroadcastCopy(p.words)) return false;
  const auto width = TwoByteElementBroadcast::elementBytes(p.words);
  return std::holds_alternative<uint64_t>(width) && std::get<uint64_t>(width) == TwoByteElementBroadcast::kElementBytes;
}

// Which form each compute packet was executed by (its PC; the last tile's report).
class FormsSeen : public ComputeObserver {
 public:
  std::map<uint64_t, ComputeForm> byPc;
  void computed(const models::DecodedPacket& packet, unsigned, const ComputeWrite& write) override { byPc[packet.pc] = write.form; }
};

// The parameter-caching program first (its tiles keep what it wrote), then the execution-only one up to its first
// refusal, the second max pass's unit completed with `filler` in lanes 1-3.
OneByteRun runUpToTheRefusal(const models::DecodedProgram* caching, const models::DecodedProgram& program, const std::vector<uint8_t>& params,
                             const std::vector<uint8_t>& image, uint8_t filler, const std::vector<uint8_t>& executionParams,
                             const std::vector<size_t>& executionParamBlocks, uint32_t outputBytes) {
  models::ChipConfig config;
  const auto forms = std::make_shared<FormsSeen>();
  config.lleComputeObserver = forms;
  LleRung rung(config);
  EnvelopePackets made(0xf000);
  coralsim::testing::HeldStreams streams;
  streams.input = image;
  streams.params = params;
  OneByteRun run;
  rung.reset();
  unsigned passes = 0;
  std::optional<uint64_t> sumAt, squareAt, pairAt4;
  std::vector<uint64_t> fullyConnectedAt, fullyConnectedPc;
  bool normalisedYet = false;
  // The 0x03's lanes and the squares are read when the compute after them is issued: 0x07d1 writes back over the
  // 0x03's output address (docs/decoding-log.md "trk14" §C, "trk15").
  const auto readTile0 = [&](std::optional<uint64_t> at, uint64_t bytes, std::vector<uint8_t>& into) {
    const AddressedMemory& narrow = rung.tile(0).narrowSram;
    if (!at || narrow.firstUnwritten(*at, bytes)) return;
    const auto written = narrow.read(*at, bytes);
    into.assign(written.begin(), written.end());
  };
  const auto drive = [&](const models::DecodedProgram& p, bool execution) {
    // The execution-only run pops its own parameter stream (the 128 x 128 FULLY_CONNECTED weights); the caching run the cached one.
    streams.params = execution ? executionParams : params;
    // The execution-only run's stream arrives in its descriptors' blocks, one a parameter 0x25 (held_streams.h, "trk128");
    // the caching run's one 0x25 reads its whole stream.
    streams.paramBlocks = execution ? executionParamBlocks : std::vector<size_t>{};
    streams.blocksDelivered = 0;
    rung.beginRun();
    for (const models::DecodedPacket& packet : p.packets()) {
      if (packet.action != models::PacketAction::kIssue) continue;
      const bool steppedSixteen = execution && static_cast<uint8_t>(packet.opcode) == 0x01 && (packet.tileMask & 1u) &&
                                  ByteSteppedWeighing::isForm(packet.words) && readField(packet.words, LleField::ComputeSixteenBitResults) != 0;
      if (steppedSixteen) {
        readTile0(sumAt, 8, run.sumLanes);
        readTile0(squareAt, 16, run.squares);
      }
      if (static_cast<uint8_t>(packet.opcode) == 0x25 && readField(packet.words, LleField::InfeedIsInput) == 0) streams.deliverParameterBlock();
      try {
        rung.packet(packet, streams, 0);
        if (steppedSixteen) readTile0(readField(packet.words, LleField::ComputeOutputAt), 8, run.weighed);
        if (execution && static_cast<uint8_t>(packet.opcode) == 0x02 && ++passes == 2) {
          const uint64_t at = readField(packet.words, LleField::Max02OutputAt);
          for (unsigned t = 0; t < 16; ++t) {
            if (!(packet.tileMask & (1u << t))) continue;
            const uint8_t lane0 = rung.tile(t).narrowSram.read(at, 1)[0];
            const uint64_t unit = lane0 | uint64_t{filler} << 8 | uint64_t{filler} << 16 | uint64_t{filler} << 24;
            rung.packet(made.make(0x17, static_cast<uint16_t>(1u << t),
                                  {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17Immediate, 1}, {LleField::Fill17Value, unit},
                                   {LleField::Fill17At4, at / 4}}),
                        streams, 0);
          }
        }
      } catch (const std::exception& refusal) {
        run.stop = refusal.what();
        return false;
      }
      if (execution && static_cast<uint8_t>(packet.opcode) == 0x01 && isTwoByteLaneGroupForm(packet.words)) {
        const uint64_t at = readField(packet.words, LleField::ComputeOutputAt);
        const uint64_t bytes = 4 * (readField(packet.words, LleField::ComputeLaneGroups) + 1);
        for (unsigned t = 0; t < 16; ++t) {
          if (!(packet.tileMask & (1u << t))) continue;
          const AddressedMemory& narrow = rung.tile(t).narrowSram;
          EXPECT_FALSE(narrow.firstUnwritten(at, bytes).has_value()) << "tile " << t << " wrote nothing at ComputeOutputAt " << at;
          if (narrow.firstUnwritten(at, bytes)) continue;
          const auto written = narrow.read(at, bytes);
          run.laneGroups.push_back({t, readField(packet.words, LleField::ComputeInputAt4) * 4, at, std::vector<uint8_t>(written.begin(), written.end())});
        }
      }
      if (execution && static_cast<uint8_t>(packet.opcode) == 0x01 && readField(packet.words, LleField::ComputeNluApply) != 0) {
        const uint64_t at = readField(packet.words, LleField::ComputeOutputAt);
        const uint64_t results = 4 * (readField(packet.words, LleField::ComputePositions) + 1);
        for (unsigned t = 0; t < 16; ++t) {
          if (!(packet.tileMask & (1u << t))) continue;
          const AddressedMemory& narrow = rung.tile(t).narrowSram;
          EXPECT_FALSE(narrow.firstUnwritten(at, 2 * results).has_value()) << "tile " << t << " wrote no 16-bit results at ComputeOutputAt " << at;
          if (narrow.firstUnwritten(at, 2 * results)) continue;
          const auto written = narrow.read(at, 2 * results);
          TableRun& table = run.tables.emplace_back();
          table.tile = t;
          table.inputAt = readField(packet.words, LleField::ComputeInputAt4) * 4;
          table.mult = std::bit_cast<float>(static_cast<uint32_t>(readField(packet.words, LleField::ComputeMult)));
          table.lo = std::bit_cast<float>(static_cast<uint32_t>(readField(packet.words, LleField::ComputeClampLo)));
          table.hi = std::bit_cast<float>(static_cast<uint32_t>(readField(packet.words, LleField::ComputeClampHi)));
          for (uint64_t i = 0; i < results; ++i) table.results.push_back(static_cast<uint16_t>(written[2 * i] | written[2 * i + 1] << 8));
        }
      }
      if (execution && static_cast<uint8_t>(packet.opcode) == 0x17 && !pairAt4 && readField(packet.words, LleField::Fill17Immediate) != 0 &&
          readField(packet.words, LleField::Mesh17RecvStride) == 2) {
        pairAt4 = readField(packet.words, LleField::Fill17At4);
      }
      if (execution && isTwoByteElementBroadcast(packet)) {
        const uint64_t at = readField(packet.words, LleField::ComputeOutputAt);
        const uint64_t bytes = 4 * (readField(packet.words, LleField::ComputeLaneGroups) + 1);
        for (unsigned t = 0; t < 16; ++t) {
          if (!(packet.tileMask & (1u << t))) continue;
          const AddressedMemory& narrow = rung.tile(t).narrowSram;
          std::vector<uint8_t>& units = run.broadcast16.emplace_back();
          if (narrow.firstUnwritten(at, bytes)) continue;
          const auto written = narrow.read(at, bytes);
          units.assign(written.begin(), written.end());
        }
      }
      if (execution && normalisedYet && static_cast<uint8_t>(packet.opcode) == 0x01 && readField(packet.words, LleField::ComputeParamPrefix) == 0) {
        fullyConnectedAt.push_back(readField(packet.words, LleField::ComputeOutputAt));
        fullyConnectedPc.push_back(packet.pc);
      }
      if (execution && static_cast<uint8_t>(packet.opcode) == 0x01 && KeptOperandWeighing::isForm(packet.words)) {
        normalisedYet = true;
        const uint64_t at = readField(packet.words, LleField::ComputeOutputAt);
        const uint64_t bytes = 4 * (readField(packet.words, LleField::ComputeLaneGroups) + 1);
        run.normaliseMult = std::bit_cast<float>(static_cast<uint32_t>(readField(packet.words, LleField::ComputeMult)));
        for (unsigned t = 0; t < 16; ++t) {
          if (!(packet.tileMask & (1u << t))) continue;
          const AddressedMemory& narrow = rung.tile(t).narrowSram;
          std::vector<uint8_t>& units = run.normalised.emplace_back();
          if (narrow.firstUnwritten(at, bytes)) continue;
          const auto written = narrow.read(at, bytes);
          units.assign(written.begin(), written.end());
        }
      }
      if (execution && static_cast<uint8_t>(packet.opcode) == 0x03 && (packet.tileMask & 1u)) {
        sumAt = readField(packet.words, LleField::ComputeOutputAt);
      }
      if (execution && static_cast<uint8_t>(packet.opcode) == 0x01 && WideStreamedSquare::isForm(packet.words) && (packet.tileMask & 1u)) {
        squareAt = readField(packet.words, LleField::ComputeOutputAt);
      }
      if (execution && isOneByteOutputCompute(packet)) {
        const uint64_t at = readField(packet.words, LleField::ComputeOutputAt);
        std::vector<uint8_t>& bytes = run.tileBytes.emplace_back();
        for (unsigned t = 0; t < 16; ++t) {
          if (!(packet.tileMask & (1u << t))) continue;
          const AddressedMemory& narrow = rung.tile(t).narrowSram;
          bytes.push_back(narrow.firstUnwritten(at, 1) ? 0 : narrow.read(at, 1)[0]);
          EXPECT_FALSE(narrow.firstUnwritten(at, 1).has_value()) << "tile " << t << " wrote nothing at ComputeOutputAt " << at;
        }
      }
    }
    if (execution) {
      for (const uint64_t at : fullyConnectedAt) {
        std::vector<uint8_t>& unit = run.fullyConnected.emplace_back();
        if (rung.tile(0).narrowSram.firstUnwritten(at, 4)) continue;
        const auto written = rung.tile(0).narrowSram.read(at, 4);
        unit.assign(written.begin(), written.end());
      }
      for (const uint64_t pc : fullyConnectedPc) {
        if (const auto seen = forms->byPc.find(pc); seen != forms->byPc.end()) run.fullyConnectedForms.push_back(seen->second);
      }
      run.outfeed = rung.windowTail(0, outputBytes, 0, streams);
    }
    rung.endRun();
    return true;
  };
  if (caching && !drive(*caching, false)) {
    run.stop = "(parameter caching) " + run.stop;
    return run;
  }
  drive(program, true);
  // A run that stopped before 0x07d1: the 0x03's result and the squaring after it (docs/decoding-log.md "trk14b") as left.
  if (run.sumLanes.empty()) readTile0(sumAt, 8, run.sumLanes);
  if (run.squares.empty()) readTile0(squareAt, 16, run.squares);
  for (unsigned t = 0; pairAt4 && t < 16; ++t) {
    const AddressedMemory& narrow = rung.tile(t).narrowSram;
    std::vector<uint8_t>& units = run.fillPairs.emplace_back();
    for (uint64_t b = 0; b < 16; ++b) units.push_back(narrow.firstUnwritten(*pairAt4 * 4 + b, 1) ? 0xee : narrow.read(*pairAt4 * 4 + b, 1)[0]);
  }
  return run;
}

TEST(LleBright, TheOneByteOutputComputeWritesTwoHundredFiftyFiveLessTheImagesMaximumOnEveryTile) {
  const auto corpus = coralsim::testing::corpusDir();
  if (!corpus) GTEST_SKIP() << "\n*** SKIPPED: no corpus ($CORALSIM_CORPUS). ***\n";
  unsigned programsRun = 0;
  for (const coralsim::testing::BrightTemplate& bright : coralsim::testing::brightTemplates(*corpus)) {
    const unsigned side = bright.side;
    const std::string& name = bright.name;
    const fs::path& path = bright.path;
    // The third spans the exp table's whole domain: every byte within 15 of its maximum (x = q - max in [-15, 0] with
    // beta s_in 1), so most exponentials are neither 0 nor 65535 (the other images' are, but for their maxima).
    std::vector<std::vector<uint8_t>> images{imageWithPeak(side * side, 3, 150, 203), imageWithPeak(side * side, 11, 60, 91),
                                             imageWithPeak(side * side, 5, 16, 15)};
    // The golden cases (docs/decoding-log.md "fcx" §C): every one is run (img_cat with both fillers, as before; the others
    // with one, the filler moving no byte) and its output compared with the golden's, in the device's encoding.
    std::vector<std::vector<uint8_t>> expectedOutputs(images.size());
    std::vector<std::string> caseNames(images.size(), "made up");
    const auto golden = coralsim::testing::goldenDir();
    const fs::path goldenCases = golden ? *golden / ("ricardodeazambuja+LibrEdgeTPU__" + name) : fs::path();
    if (!goldenCases.empty() && fs::exists(goldenCases / "manifest.json")) {
      const coralsim::testing::JsonValue manifest = coralsim::testing::readJsonFile(goldenCases / "manifest.json");
      for (const coralsim::testing::JsonValue& c : manifest.find("cases")->items) {
        images.push_back(coralsim::testing::readFile(goldenCases / c.find("tpu_inputs")->items.at(0).find("dev_file")->text));
        expectedOutputs.push_back(coralsim::testing::readPreferredGoldenDeviceOutput(goldenCases, c.find("tpu_outputs")->items.at(0)));
        caseNames.push_back(c.find("case")->text);
      }
    } else {
      std::printf("*** %s: no golden cases ($CORALSIM_GOLDEN): the outputs are not compared ***\n", name.c_str());
    }
    const driver::ModelFile model = driver::loadModelFile(path);
    // The caching program and its stream, and the execution-only stream's descriptor blocks (held_streams.h).
    const auto [caching, params, paramBlocks] = coralsim::testing::driveParameters(model);
    for (const driver::Executable* e : driver::allExecutables(model)) {
      if (e->type != driver::ExecutableType::ExecutionOnly) continue;
      for (const auto& bitstream : e->bitstreams) {
        const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);
        if (!std::ranges::any_of(program->packets(), isOneByteOutputCompute)) continue;
        ++programsRun;
        ASSERT_EQ(e->outputLayers.size(), 1u) << name;
        const driver::Layer& outputLayer = e->outputLayers[0];
        for (size_t imageIndex = 0; imageIndex < images.size(); ++imageIndex) {
          const std::vector<uint8_t>& image = images[imageIndex];
          ASSERT_EQ(image.size(), side * side) << name;
          const uint8_t imageMax = *std::ranges::max_element(image);
          const bool oneFiller = !expectedOutputs[imageIndex].empty() && caseNames[imageIndex] != "img_cat";
          for (const uint8_t filler : {uint8_t{0x00}, uint8_t{0xff}}) {
            if (oneFiller && filler != 0) continue;
            const OneByteRun run = runUpToTheRefusal(caching.get(), *program, params, image, filler, e->parameters,
                                                     paramBlocks,
                                                     static_cast<uint32_t>(outputLayer.sizeBytes));
            std::printf("%s (max %u, filler 0x%02x): %zu one-byte output compute(s) run; stopped at %s\n", name.c_str(), unsigned{imageMax},
                        unsigned{filler}, run.tileBytes.size(), run.stop.c_str());
            ASSERT_EQ(run.tileBytes.size(), 1u) << name << ": stopped at " << run.stop;
            EXPECT_EQ(run.tileBytes[0], std::vector<uint8_t>(16, static_cast<uint8_t>(255 - imageMax))) << name << " filler " << unsigned{filler};
            // The x - max computes after it (docs/decoding-log.md "soft14" §C): one a tile, each writing its slice of the
            // image (from its ComputeInputAt4 x 4) less the maximum plus 255 -- checked against the image itself.
            std::printf("%s (max %u, filler 0x%02x): %zu x - max compute(s) run\n", name.c_str(), unsigned{imageMax}, unsigned{filler},
                        run.laneGroups.size());
            EXPECT_EQ(run.laneGroups.size(), 16u) << name << ": stopped at " << run.stop;
            for (const LaneGroupRun& xMinusMax : run.laneGroups) {
              ASSERT_LE(xMinusMax.inputAt + xMinusMax.bytes.size(), image.size()) << name << " tile " << xMinusMax.tile;
              std::vector<uint8_t> expected(xMinusMax.bytes.size());
              for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<uint8_t>(image[xMinusMax.inputAt + i] - imageMax + 255);
              EXPECT_EQ(xMinusMax.bytes, expected) << name << " tile " << xMinusMax.tile << " filler " << unsigned{filler};
            }
            // The exponentials after them (docs/decoding-log.md "exp19" §B): one a tile, each walking the x - max bytes its
            // tile holds and writing 65535 e^x through the exp table, x = mult (q - max) clamped -- checked against the
            // image and the exponential itself (the table's fit is within 0.11, "nlu" §B: |d| <= 1 after rounding).
            std::printf("%s (max %u, filler 0x%02x): %zu exponential compute(s) run\n", name.c_str(), unsigned{imageMax}, unsigned{filler},
                        run.tables.size());
            EXPECT_EQ(run.tables.size(), 16u) << name << ": stopped at " << run.stop;
            size_t exact = 0, compared = 0, inside = 0;
            for (const TableRun& table : run.tables) {
              const auto xMinusMax = std::ranges::find(run.laneGroups, table.tile, &LaneGroupRun::tile);
              ASSERT_NE(xMinusMax, run.laneGroups.end()) << name << ": no x - max compute on tile " << table.tile;
              ASSERT_GE(table.inputAt, xMinusMax->outputAt) << name << " tile " << table.tile;
              const uint64_t imageAt = xMinusMax->inputAt + (table.inputAt - xMinusMax->outputAt);
              ASSERT_LE(imageAt + table.results.size(), image.size()) << name << " tile " << table.tile;
              for (size_t i = 0; i < table.results.size(); ++i) {
                const float x = std::clamp(table.mult * static_cast<float>(int{image[imageAt + i]} - imageMax), table.lo, table.hi);
                const double want = std::nearbyint(65535.0 * std::exp(static_cast<double>(x)));
                EXPECT_LE(std::abs(table.results[i] - want), 1.0) << name << " tile " << table.tile << " result " << i << " x " << x;
                exact += table.results[i] == want;
                inside += table.results[i] != 0 && table.results[i] != 65535;
                ++compared;
              }
            }
            std::printf("%s (max %u, filler 0x%02x): %zu / %zu exponentials equal to round(65535 e^x) (%zu neither 0 nor 65535)\n",
                        name.c_str(), unsigned{imageMax}, unsigned{filler}, exact, compared, inside);
            if (imageMax == 15) {
              EXPECT_GT(inside, compared / 2) << name << ": the image near its maximum should reach inside the table";
            }
            // The 0x03 after them on tile 0 (docs/decoding-log.md "sum03", "trk14", "trk14b"): it takes the gathered exponentials
            // (tile 0's read @ 0x079d, kept for it), sums their 16-bit elements and applies the tile's 1/sqrt table reduced by even
            // powers of two; the result t must be 2^15.5 / sqrt(S / 65,535) with S the sum of every exponential the sixteen
            // computes wrote (T1's fit is within 2.1e-5: |d| <= 1), written in all four 16-bit lanes. Then the squaring
            // (0x07b8, the 16-bit streamed product) must write u = min(32,768, t x t / 65,535) rounded in all eight 16-bit slots
            // of its four units.
            uint64_t written = 0;
            for (const TableRun& table : run.tables) {
              for (const uint16_t r : table.results) written += r;
            }
            double fromImage = 0;
            for (const uint8_t q : image) {
              const float x = std::clamp(run.tables.front().mult * static_cast<float>(int{q} - imageMax), run.tables.front().lo, run.tables.front().hi);
              fromImage += std::nearbyint(65535.0 * std::exp(static_cast<double>(x)));
            }
            EXPECT_EQ(static_cast<double>(written), fromImage) << name;
            ASSERT_EQ(run.sumLanes.size(), 8u) << name << ": the 0x03 wrote nothing; stopped at " << run.stop;
            const auto lane = [](const std::vector<uint8_t>& b, size_t i) { return unsigned{b[2 * i]} | unsigned{b[2 * i + 1]} << 8; };
            const unsigned t = lane(run.sumLanes, 0);
            for (size_t i = 1; i < 4; ++i) EXPECT_EQ(lane(run.sumLanes, i), t) << name << " lane " << i;
            const double reference = std::ldexp(1.0, 15) * std::sqrt(2.0) / std::sqrt(static_cast<double>(written) / 65535.0);
            EXPECT_LE(std::abs(t - std::nearbyint(reference)), 1.0) << name;
            ASSERT_EQ(run.squares.size(), 16u) << name << ": the squaring wrote nothing; stopped at " << run.stop;
            const double square = std::min(32768.0, static_cast<double>(t) * t / 65535.0);
            for (size_t i = 0; i < 8; ++i) EXPECT_LE(std::abs(lane(run.squares, i) - square), 0.5 + 1e-3) << name << " slot " << i;
            // 0x07d1 (docs/decoding-log.md "trk15"): the squares' 4-byte groups weighed one byte a group over the identity
            // block by the diagonal rule (lane c = byte c of group c), 16-bit results: u's low byte in lanes 0 and 2, its
            // high byte in lanes 1 and 3 -- the pair 0x0949's weights 1 and 256 rebuild into u. (The rotating read would
            // give u's low byte in all four lanes; the golden outputs downstream rule it out, "trk15" §A.)
            // The fills after it (0x0935 / 0x093b, "trk15" §D): 1 and 256 at alternate units on every tile, the level-0
            // stride being the receive stride 2 -- the four units (1, 256, 1, 256) the read @ 0x0941 takes.
            ASSERT_EQ(run.fillPairs.size(), 16u) << name << ": no receive-stride-2 fill ran; stopped at " << run.stop;
            const std::vector<uint8_t> pairs = {1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
            for (size_t tile = 0; tile < 16; ++tile) EXPECT_EQ(run.fillPairs[tile], pairs) << name << " tile " << tile;
            const unsigned u = lane(run.squares, 0);
            ASSERT_EQ(run.weighed.size(), 8u) << name << ": 0x07d1 wrote nothing; stopped at " << run.stop;
            for (size_t c = 0; c < 4; ++c) EXPECT_EQ(lane(run.weighed, c), c % 2 == 0 ? (u & 0xffu) : (u >> 8)) << name << " 0x07d1 lane " << c;
            // 0x0949 (docs/decoding-log.md "trk16" §A): the broadcast copy of 2-byte elements reads 0x07d1's group as the
            // 16-bit elements (u_lo, u_hi) and weighs them by the fills' block, (1, 256, 1, 256) as 4-byte values: every
            // unit of its output on every tile is u as a 16-bit element twice, (u_lo, u_hi, u_lo, u_hi) -- u' = u.
            ASSERT_EQ(run.broadcast16.size(), 16u) << name << ": the 2-byte element broadcast did not run; stopped at " << run.stop;
            size_t unitsRight = 0, units = 0;
            for (size_t tile = 0; tile < 16; ++tile) {
              const std::vector<uint8_t>& bytes = run.broadcast16[tile];
              ASSERT_FALSE(bytes.empty()) << name << " tile " << tile << ": the broadcast wrote no whole output";
              for (size_t at = 0; at + 4 <= bytes.size(); at += 4) {
                const bool right = bytes[at] == (u & 0xffu) && bytes[at + 1] == (u >> 8) && bytes[at + 2] == (u & 0xffu) && bytes[at + 3] == (u >> 8);
                EXPECT_TRUE(right) << name << " tile " << tile << " unit " << at / 4 << ": " << unsigned{bytes[at]} << " " << unsigned{bytes[at + 1]}
                                   << " " << unsigned{bytes[at + 2]} << " " << unsigned{bytes[at + 3]} << " for u = " << u;
                unitsRight += right;
                ++units;
              }
            }
            std::printf("%s (max %u, filler 0x%02x): 0x0949's units equal to (u_lo, u_hi, u_lo, u_hi): %zu / %zu\n", name.c_str(),
                        unsigned{imageMax}, unsigned{filler}, unitsRight, units);
            // 0x09cb (docs/decoding-log.md "trk16" §B): the weighing by the kept operand -- the tile's exponentials gathered in the
            // (0, 2, 1, 3) unit order @ 0x095b, as unsigned 16-bit weights -- writes each of its tile's pixels' byte
            // clamp(round(e x u x mult), 0, 255) in the pixels' order: checked against the tile's own exponentials and u (the
            // rung's bytes), and counted against the offline chain model of scripts/trk15_pairing_rule_downstream.py (e =
            // round(65535 e^x) from the image, t, u from their sum; T1's bias 0), which gave the golden outputs downstream.
            ASSERT_EQ(run.normalised.size(), 16u) << name << ": the weighing by the kept operand did not run; stopped at " << run.stop;
            double chainS = 0;
            for (const uint8_t q : image) chainS += std::nearbyint(65535.0 * std::exp(static_cast<double>(std::clamp(
                                                        run.tables.front().mult * static_cast<float>(int{q} - imageMax), run.tables.front().lo, run.tables.front().hi))));
            const double chainT = std::nearbyint(std::ldexp(1.0, 15) * std::sqrt(2.0) / std::sqrt(chainS / 65535.0));
            const double chainU = std::min(32768.0, std::nearbyint(chainT * chainT / 65535.0));
            size_t selfExact = 0, chainExact = 0, chainNear = 0, pixels = 0;
            for (const TableRun& table : run.tables) {
              const std::vector<uint8_t>& bytes = run.normalised[table.tile];
              ASSERT_EQ(bytes.size(), table.results.size()) << name << " tile " << table.tile << ": one byte a pixel";
              const auto xMinusMax = std::ranges::find(run.laneGroups, table.tile, &LaneGroupRun::tile);
              const uint64_t imageAt = xMinusMax->inputAt + (table.inputAt - xMinusMax->outputAt);
              for (size_t i = 0; i < bytes.size(); ++i) {
                const double self = std::clamp(std::nearbyint(static_cast<double>(static_cast<float>(table.results[i] * static_cast<double>(u)) *
                                                                                  run.normaliseMult)), 0.0, 255.0);
                EXPECT_EQ(bytes[i], self) << name << " tile " << table.tile << " pixel " << i << ": e = " << table.results[i] << ", u = " << u;
                selfExact += bytes[i] == self;
                const float x = std::clamp(table.mult * static_cast<float>(int{image[imageAt + i]} - imageMax), table.lo, table.hi);
                const double expo = std::nearbyint(65535.0 * std::exp(static_cast<double>(x)));
                const double chain = std::clamp(std::nearbyint(expo * chainU * static_cast<double>(run.normaliseMult)), 0.0, 255.0);
                chainExact += bytes[i] == chain;
                chainNear += std::abs(bytes[i] - chain) <= 1.0;
                ++pixels;
              }
            }
            std::printf("%s (max %u, filler 0x%02x): 0x09cb's bytes: %zu / %zu equal to clamp(round(e u mult)) of the tile's exponentials and u; "
                        "against the chain model (u = %.0f): %zu exact, %zu within 1\n",
                        name.c_str(), unsigned{imageMax}, unsigned{filler}, selfExact, pixels, chainU, chainExact, chainNear);
            std::printf("%s (max %u, filler 0x%02x): sum %llu, t = %u (2^15.5 / sqrt(S / 65535) = %.3f), u = %u (t^2 / 65535 = %.3f), "
                        "0x07d1 lanes %u %u %u %u; stopped at %s\n",
                        name.c_str(), unsigned{imageMax}, unsigned{filler}, static_cast<unsigned long long>(written), t, reference,
                        u, square, lane(run.weighed, 0), lane(run.weighed, 1), lane(run.weighed, 2), lane(run.weighed, 3), run.stop.c_str());
            // The two FULLY_CONNECTED computes (docs/decoding-log.md "fcx" §A / §B) and the outfeed after the CONCATENATION's
            // packets: the run reaches the chunk's end, each FC writes one 4-lane unit on tile 0 whose lanes 1-3 (weights at
            // the weight zero point) hold the output zero point, the outfeed sends the layer's bytes, and where the case is a
            // golden one, the output in TFLite order is the golden's; the concatenation copies lane 0 of each FC (identity).
            EXPECT_EQ(run.stop, "the chunk's end") << name << " " << caseNames[imageIndex];
            ASSERT_EQ(run.fullyConnected.size(), 2u) << name << ": stopped at " << run.stop;
            for (const std::vector<uint8_t>& unit : run.fullyConnected) {
              ASSERT_EQ(unit.size(), 4u) << name << ": a FULLY_CONNECTED compute wrote no unit on tile 0";
            }
            // 64 x 64: the first is the single-position form over the cached wide rows, the second the reduction split over
            // positions (its weight stream the ring send of tile 1's rows); 128 x 128: both split, their streams popped from
            // the host -- the split ones executed by the convolution form ("trkfc" §B's walk: one run of (K + 1) P units).
            ASSERT_EQ(run.fullyConnectedForms.size(), 2u) << name;
            EXPECT_EQ(run.fullyConnectedForms[0], side == 64 ? ComputeForm::kSinglePosition : ComputeForm::kConvolution) << name;
            EXPECT_EQ(run.fullyConnectedForms[1], ComputeForm::kConvolution) << name;
            const uint8_t zpOut = run.fullyConnected[0][1];
            for (const std::vector<uint8_t>& unit : run.fullyConnected) {
              EXPECT_EQ(unit[2], zpOut) << name;
              EXPECT_EQ(unit[3], zpOut) << name;
            }
            ASSERT_EQ(run.outfeed.size(), static_cast<size_t>(outputLayer.sizeBytes)) << name << ": the outfeed sent too few bytes";
            const auto output = driver::deviceToTfliteOrder(outputLayer, run.outfeed);
            ASSERT_TRUE(output.has_value()) << name;
            EXPECT_EQ(*output, (std::vector<uint8_t>{run.fullyConnected[0][0], run.fullyConnected[1][0]})) << name << " " << caseNames[imageIndex];
            std::printf("%s %s (max %u, filler 0x%02x): FULLY_CONNECTED units %u %u %u %u / %u %u %u %u, output %u %u", name.c_str(),
                        caseNames[imageIndex].c_str(), unsigned{imageMax}, unsigned{filler}, run.fullyConnected[0][0], run.fullyConnected[0][1],
                        run.fullyConnected[0][2], run.fullyConnected[0][3], run.fullyConnected[1][0], run.fullyConnected[1][1],
                        run.fullyConnected[1][2], run.fullyConnected[1][3], (*output)[0], (*output)[1]);
            if (!expectedOutputs[imageIndex].empty()) {
              std::printf(", golden %u %u", expectedOutputs[imageIndex][0], expectedOutputs[imageIndex][1]);
              EXPECT_EQ(*output, expectedOutputs[imageIndex]) << name << " " << caseNames[imageIndex];
            }
            std::printf("\n");
          }
        }
      }
    }
  }
  if (programsRun == 0) GTEST_SKIP() << "\n*** SKIPPED: no bright template with a one-byte output compute in the corpus. ***\n";
}

}  // namespace
}  // namespace coralsim::lle::lle_one_byte_output_test
