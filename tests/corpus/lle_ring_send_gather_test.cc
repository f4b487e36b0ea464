// The ring send between tiles on a real program (docs/decoding-log.md "bright10"): the LibrEdgeTPU bright
// templates deal their input image out to the 16 tiles (one input pop to each group of four, each tile
// keeping its slice) and gather it back onto tile 0 with fifteen ring sends, each tile's read carried into
// a staging write of tile 0. Their packets are fed to the lle rung one by one, in program order, up to their
// first 0x02 compute (the softmax's max pass, "bright02": lle_max_pass_test.cc runs it): if the sends'
// destinations, beats and reads are decoded right, tile 0's narrow memory then holds the whole image, in
// order, and the read kept for the 0x02 compute ("bright13") holds it too. The image is a golden input where the golden data is present (else a made-up one): the
// check is the gather's own, no output is compared.
#include <gtest/gtest.h>

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

namespace coralsim::lle::lle_ring_send_gather_test {
namespace {

namespace fs = std::filesystem;

bool isRingSend(const models::DecodedPacket& p) {
  return static_cast<uint8_t>(p.opcode) == 0x10 && readField(p.words, LleField::Dma10ToOutfeed) == 0 &&
         readField(p.words, LleField::Dma10WeightFeed) == 0;
}

TEST(LleBright, TheRingSendsGatherTheWholeImageOntoTileZero) {
  const auto corpus = coralsim::testing::corpusDir();
  if (!corpus) GTEST_SKIP() << "\n*** SKIPPED: no corpus ($CORALSIM_CORPUS). ***\n";
  for (const coralsim::testing::BrightTemplate& bright : coralsim::testing::brightTemplates(*corpus)) {
    const unsigned side = bright.side;
    const std::string& name = bright.name;
    const fs::path& path = bright.path;
    const auto golden = coralsim::testing::goldenDir();
    const fs::path input = golden ? *golden / ("ricardodeazambuja+LibrEdgeTPU__" + name) / "img_cat.in0.bin" : fs::path();
    std::vector<uint8_t> image;
    if (!input.empty() && fs::exists(input)) {
      image = coralsim::testing::readFile(input);
    } else {
      image.resize(side * side);
      for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<uint8_t>(31 * i + i / 251);
    }
    ASSERT_EQ(image.size(), side * side) << name;
    const driver::ModelFile model = driver::loadModelFile(path);
    bool ran = false;
    coralsim::testing::forEachDecodedBitstream(model, [&](const driver::Executable&, const models::DecodedProgram& program) {
      bool hasRingSends = false;
      for (const models::DecodedPacket& p : program.packets()) hasRingSends = hasRingSends || isRingSend(p);
      if (!hasRingSends) return;
      ran = true;
      models::ChipConfig config;
      LleRung rung(config);
      rung.reset();
      coralsim::testing::HeldStreams streams;
      streams.input = image;
      unsigned ringSends = 0;
      std::string stop = "the chunk's end";
      for (const models::DecodedPacket& p : program.packets()) {
        if (p.action != models::PacketAction::kIssue) continue;
        if (static_cast<uint8_t>(p.opcode) == 0x02) {
          stop = "the first 0x02 compute";
          break;
        }
        try {
          rung.packet(p, streams, 0);
        } catch (const std::exception& refusal) {
          stop = refusal.what();
          break;
        }
        ringSends += isRingSend(p) ? 1 : 0;
      }
      std::printf("%s: %u ring sends run; stopped at %s\n", name.c_str(), ringSends, stop.c_str());
      EXPECT_GE(ringSends, 15u) << name << ": the gather's fifteen sends did not all run";
      const AddressedMemory& tile0 = rung.tile(0).narrowSram;
      ASSERT_FALSE(tile0.firstUnwritten(0, image.size()).has_value())
          << name << ": tile 0 lacks byte " << *tile0.firstUnwritten(0, image.size()) << " of the image";
      const auto held = tile0.read(0, image.size());
      EXPECT_EQ(std::vector<uint8_t>(held.begin(), held.end()), image) << name;
      // The read after the gather (w3 bit 109, routed by bit 105 alone: docs/decoding-log.md "bright13") keeps
      // the image for the first softmax pass, an opcode-0x02 compute: the feed stops there.
      EXPECT_EQ(stop, "the first 0x02 compute") << name;
      ASSERT_TRUE(rung.tile(0).keptRead.has_value()) << name << ": tile 0 kept no read for its 0x02 compute";
      EXPECT_TRUE(rung.tile(0).keptReadFeedsNormalise) << name;
      EXPECT_EQ(*rung.tile(0).keptRead, image) << name << ": the kept read is not the gathered image";
    });
    EXPECT_TRUE(ran) << name << ": no bitstream with ring sends";
  }
}

}  // namespace
}  // namespace coralsim::lle::lle_ring_send_gather_test
