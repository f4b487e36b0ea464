// What a 0x14 that takes the read before it writes, held out (docs/decoding-log.md "mnv1c" §B; models/lle/lle_rung_read_copy.cc):
// the write lays the read's bytes along its own nest, unit k taking the read's bytes [4k, 4k + 4), so its nest must
// visit as many units as the read's nest walks, each once. Every corpus 0x14 that takes the read just before it on its
// tiles (the staging form with Stage14TakesTileRead, the compute-feeding form with Stage14CopyInnerLevel clear) is
// compared with that read on each of its tiles. Decode set: MobileNet v1 0.75 192; every other program is held out.
// The control counts the write's level 0 alone (as a one-loop copy would), which must disagree somewhere.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/lle/read_copy_watch.h"
#include "models/lle/read_nest.h"
#include "models/lle/write_nest.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_read_copy_bytes_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

constexpr const char* kDecodeSet = "mobilenet_v1_0.75_192_quant_edgetpu.tflite";

struct Counts {
  size_t tileCopies = 0, feedingTileCopies = 0, equal = 0, unequal = 0, revisiting = 0, noRead = 0, controlDisagrees = 0;
};

void count(std::span<const models::DecodedPacket> packets, Counts& c) {
  std::array<std::optional<std::vector<isa::Word128>>, 16> lastRead;  // the tile's last packet when it was a 0x13
  for (const models::DecodedPacket& p : packets) {
    if (p.action != models::PacketAction::kIssue || !p.tilePacket) continue;
    const auto op = static_cast<uint8_t>(p.opcode);
    if ((op >= 0x21 && op <= 0x23) || op == 0x1a) continue;
    if (op == 0x14 && p.words.size() > 4 && lle::takesTheReadBeforeIt(p.words)) {
      const lle::WriteNest write = lle::WriteNest::fromPacket(p.words);
      const bool feeds = readField(p.words, LleField::Stage14FeedsCompute) != 0;
      const uint64_t stream = readField(p.words, LleField::Stage14CopyStream);
      const bool revisits = write.revisitsAUnit();
      for (unsigned t = 0; t < 16; ++t) {
        if (!(p.tileMask & (1u << t))) continue;
        ++c.tileCopies;
        c.feedingTileCopies += feeds ? 1 : 0;
        if (!lastRead[t] || readField(*lastRead[t], LleField::Stage13Channel) != stream) {
          ++c.noRead;
          continue;
        }
        const lle::ReadNest read = lle::ReadNest::fromPacket(*lastRead[t]);
        const bool same = read.units() == write.units();
        (same && !revisits ? c.equal : c.unequal) += 1;
        c.revisiting += revisits ? 1 : 0;
        if (!same || revisits) {
          std::printf("  PC 0x%04x tile %u: read %llu units, write %llu%s\n", p.pc, t, static_cast<unsigned long long>(read.units()),
                      static_cast<unsigned long long>(write.units()), revisits ? " (revisits a unit)" : "");
        }
        c.controlDisagrees += read.units() != readField(p.words, LleField::Stage14Groups) + 1 ? 1 : 0;
      }
    }
    for (unsigned t = 0; t < 16; ++t) {
      if (!(p.tileMask & (1u << t))) continue;
      lastRead[t].reset();
      if (op == 0x13) lastRead[t].emplace(p.words.begin(), p.words.end());
    }
  }
}

TEST(LleCorpus, AWriteTakingTheReadBeforeItWritesAsManyUnitsAsTheReadWalksHeldOutAsInTheDecodeSet) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  Counts decode, heldOut;
  size_t heldOutPrograms = 0;
  bool decodeFound = false;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    Counts c;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) { count(program.packets(), c); });
    if (c.tileCopies == 0) return;
    const bool inDecodeSet = path.filename().string() == kDecodeSet;
    decodeFound = decodeFound || inDecodeSet;
    heldOutPrograms += inDecodeSet ? 0 : 1;
    std::printf("%-70.70s %-9s tile-copies %3zu (compute-feeding %2zu): equal %3zu, unequal %zu, no read %zu; control disagrees %zu\n",
                path.filename().string().c_str(), inDecodeSet ? "decode" : "held out", c.tileCopies, c.feedingTileCopies, c.equal,
                c.unequal, c.noRead, c.controlDisagrees);
    Counts& into = inDecodeSet ? decode : heldOut;
    into.tileCopies += c.tileCopies;
    into.feedingTileCopies += c.feedingTileCopies;
    into.equal += c.equal;
    into.unequal += c.unequal;
    into.revisiting += c.revisiting;
    into.noRead += c.noRead;
    into.controlDisagrees += c.controlDisagrees;
  });
  std::printf("decode set: %zu tile-copies (%zu compute-feeding), equal %zu, unequal %zu, no read %zu; held out (%zu programs): %zu "
              "(%zu compute-feeding), equal %zu, unequal %zu, no read %zu; control disagrees %zu\n",
              decode.tileCopies, decode.feedingTileCopies, decode.equal, decode.unequal, decode.noRead, heldOutPrograms, heldOut.tileCopies,
              heldOut.feedingTileCopies, heldOut.equal, heldOut.unequal, heldOut.noRead, decode.controlDisagrees + heldOut.controlDisagrees);
  ASSERT_TRUE(decodeFound) << kDecodeSet << " not found";
  ASSERT_GT(decode.feedingTileCopies, 0u);
  ASSERT_GE(heldOutPrograms, 2u);
  EXPECT_EQ(decode.unequal + decode.noRead, 0u);
  EXPECT_EQ(heldOut.unequal + heldOut.noRead, 0u) << "a held-out write takes another number of units than its read walks";
  EXPECT_GT(heldOut.equal, 0u);
  EXPECT_GT(decode.controlDisagrees + heldOut.controlDisagrees, 0u) << "the control passed: the check cannot fail";
}

}  // namespace
}  // namespace coralsim::driver::lle_read_copy_bytes_test
