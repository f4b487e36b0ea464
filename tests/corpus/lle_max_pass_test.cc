// The max reduction (opcode 0x02, docs/decoding-log.md "bright02") on real programs: the LibrEdgeTPU bright
// templates gather their image onto tile 0 ("bright10"), keep it for the softmax's first pass ("bright13") and run
// two 0x02 computes: four-byte groups into four partial maxima, then those four bytes into one. Their packets are
// fed to the lle rung one by one, in program order, up to the first one it refuses. If the passes are decoded
// right, tile 0 then holds, where each pass's Max02OutputAt says, the largest byte of each lane of the image (byte
// i of the image is lane i mod 4) and the largest byte of the image. The images are made up, each lane's maximum
// planted at a different place and value, so that a sum, the first or last group, or a swapped lane shows; the
// golden img_cat input too where the golden data is present. bright 64^2 is the decode set, 128^2 held out. No
// output is compared: the programs stop after the passes (the broadcast of the maximum, docs/decoding-log.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/bright_templates.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/held_streams.h"
#include "tests/support/corpus.h"

namespace coralsim::lle::lle_max_pass_test {
namespace {

namespace fs = std::filesystem;

// A made-up image below 100 everywhere but at one byte per lane: lane j's maximum 150 + 30 j at a place that
// depends on j and on `seed`.
std::vector<uint8_t> plantedImage(size_t bytes, unsigned seed) {
  std::vector<uint8_t> image(bytes);
  for (size_t i = 0; i < bytes; ++i) image[i] = static_cast<uint8_t>((37 * i + seed + i / 97) % 100);
  for (unsigned lane = 0; lane < 4; ++lane) {
    const size_t group = (seed * 131 + lane * 977) % (bytes / 4);
    image[4 * group + lane] = static_cast<uint8_t>(150 + 30 * lane);
  }
  return image;
}

struct PassRun {
  unsigned passes = 0;
  std::array<uint64_t, 2> outputAt{};
  // Tile 0's bytes at each pass's Max02OutputAt just after the pass (4 lanes, then 1; empty where unwritten): the run now
  // goes on past the broadcast ("trkrun" §A), and later packets write over both places.
  std::array<std::vector<uint8_t>, 2> written;
  std::string stop = "the chunk's end";
};

PassRun runUpToTheRefusal(const models::DecodedProgram& program, LleRung& rung, const std::vector<uint8_t>& image) {
  coralsim::testing::HeldStreams streams;
  streams.input = image;
  PassRun run;
  rung.reset();
  for (const models::DecodedPacket& p : program.packets()) {
    if (p.action != models::PacketAction::kIssue) continue;
    try {
      rung.packet(p, streams, 0);
    } catch (const std::exception& refusal) {
      run.stop = refusal.what();
      break;
    }
    if (static_cast<uint8_t>(p.opcode) == 0x02) {
      if (run.passes < run.outputAt.size()) {
        const uint64_t at = readField(p.words, LleField::Max02OutputAt);
        const uint64_t bytes = run.passes == 0 ? 4 : 1;
        run.outputAt[run.passes] = at;
        const AddressedMemory& tile0 = rung.tile(0).narrowSram;
        if (!tile0.firstUnwritten(at, bytes)) {
          const auto lanes = tile0.read(at, bytes);
          run.written[run.passes].assign(lanes.begin(), lanes.end());
        }
      }
      ++run.passes;
    }
  }
  return run;
}

TEST(LleBright, TheMaxPassesReduceTheGatheredImageToItsLargestByte) {
  const auto corpus = coralsim::testing::corpusDir();
  if (!corpus) GTEST_SKIP() << "\n*** SKIPPED: no corpus ($CORALSIM_CORPUS). ***\n";
  for (const coralsim::testing::BrightTemplate& bright : coralsim::testing::brightTemplates(*corpus)) {
    const unsigned side = bright.side;
    const std::string& name = bright.name;
    const fs::path& path = bright.path;
    std::vector<std::vector<uint8_t>> images{plantedImage(side * side, 1), plantedImage(side * side, 7)};
    const auto golden = coralsim::testing::goldenDir();
    const fs::path cat = golden ? *golden / ("ricardodeazambuja+LibrEdgeTPU__" + name) / "img_cat.in0.bin" : fs::path();
    if (!cat.empty() && fs::exists(cat)) images.push_back(coralsim::testing::readFile(cat));
    const driver::ModelFile model = driver::loadModelFile(path);
    bool ran = false;
    coralsim::testing::forEachDecodedBitstream(model, [&](const driver::Executable&, const models::DecodedProgram& program) {
      const bool hasPasses = std::ranges::any_of(program.packets(), [](const models::DecodedPacket& p) {
        return static_cast<uint8_t>(p.opcode) == 0x02;
      });
      if (!hasPasses) return;
      ran = true;
      for (const std::vector<uint8_t>& image : images) {
        ASSERT_EQ(image.size(), side * side) << name;
        std::array<uint8_t, 4> laneMax{};
        for (size_t i = 0; i < image.size(); ++i) laneMax[i % 4] = std::max(laneMax[i % 4], image[i]);
        const uint8_t imageMax = *std::ranges::max_element(laneMax);
        models::ChipConfig config;
        LleRung rung(config);
        const PassRun run = runUpToTheRefusal(program, rung, image);
        std::printf("%s: %u max passes run; stopped at %s\n", name.c_str(), run.passes, run.stop.c_str());
        ASSERT_GE(run.passes, 2u) << name << ": stopped at " << run.stop;
        EXPECT_EQ(run.stop.find("opcode 0x02"), std::string::npos) << name << ": stopped at " << run.stop;
        ASSERT_EQ(run.written[0].size(), 4u) << name << ": the first pass wrote no four lanes";
        EXPECT_EQ(run.written[0], std::vector<uint8_t>(laneMax.begin(), laneMax.end())) << name;
        ASSERT_EQ(run.written[1].size(), 1u) << name << ": the second pass wrote nothing";
        EXPECT_EQ(run.written[1][0], imageMax) << name;
      }
    });
    EXPECT_TRUE(ran) << name << ": no bitstream with an opcode-0x02 compute";
  }
}

}  // namespace
}  // namespace coralsim::lle::lle_max_pass_test
