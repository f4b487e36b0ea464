// The reads a 0x14 copies, held out (docs/decoding-log.md "mnv1b"; models/lle/read_copy_watch.h): a read routed (0, 1)
// with the copy marks (Stage13TakenByCopy / Stage13TakenByCopyHigh, w4 bits 36 / 38) is followed on each of its tiles by
// a 0x14 naming its stream, and a staging 0x14's w4 bits 103 / 104 (Stage14TakesTileRead / Stage14TakesDelivered) say
// whether the packet just before it on every tile is a 0x13 of its stream. The reading was taken from the decode set
// (MobileNet v1 0.75 192); every other corpus program is held out (its co-compile, the 1.0 224 embedding extractor,
// DeepLab slim / mnv2 pascal for the marks; all programs for the source bits). The watch must pass every program; the
// control reads bit 103 as "a 0x13 of any stream just before it", which must disagree somewhere.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <span>
#include <string>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/read_copy_watch.h"
#include "models/lle/routed_read_mark.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_read_copy_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

constexpr const char* kDecodeSet = "mobilenet_v1_0.75_192_quant_edgetpu.tflite";

struct Counts {
  size_t markedTileReads = 0, copies = 0, tileReadWrites = 0, deliveredWrites = 0, refusals = 0, controlDisagrees = 0;
};

void count(std::span<const models::DecodedPacket> packets, Counts& c) {
  lle::ReadCopyWatch watch;
  std::array<bool, 16> lastWasRead{};
  for (const models::DecodedPacket& p : packets) {
    if (p.action != models::PacketAction::kIssue || !p.tilePacket) continue;
    const auto op = static_cast<uint8_t>(p.opcode);
    if (op >= 0x21 && op <= 0x23) continue;
    if (const std::string why = watch.observe(p); !why.empty()) {
      std::printf("  refused: %s\n", why.c_str());
      ++c.refusals;
    }
    if (op == 0x1a) continue;
    if (lle::isTakenByCopy(p)) c.markedTileReads += static_cast<size_t>(std::popcount(p.tileMask));
    if (watch.lastWasCopy()) ++c.copies;
    if (op == 0x14 && lle::fieldPresent(LleField::Stage14TakesTileRead, p.words)) {
      const bool tileRead = readField(p.words, LleField::Stage14TakesTileRead) != 0;
      (tileRead ? c.tileReadWrites : c.deliveredWrites) += 1;
      bool allRead = true;
      for (unsigned t = 0; t < 16; ++t) {
        if ((p.tileMask & (1u << t)) && !lastWasRead[t]) allRead = false;
      }
      c.controlDisagrees += tileRead != allRead ? 1 : 0;
    }
    for (unsigned t = 0; t < 16; ++t) {
      if (p.tileMask & (1u << t)) lastWasRead[t] = op == 0x13;
    }
  }
  if (const std::string why = watch.finish(); !why.empty()) {
    std::printf("  refused at the end: %s\n", why.c_str());
    ++c.refusals;
  }
}

TEST(LleCorpus, ReadsACopyTakesAndTheStagingWritesSourceBitsHoldOutAsInTheDecodeSet) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  Counts decode, heldOut;
  size_t heldOutWithMarks = 0;
  bool decodeFound = false;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    Counts c;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) { count(program.packets(), c); });
    const bool inDecodeSet = path.filename().string() == kDecodeSet;
    decodeFound = decodeFound || inDecodeSet;
    if (c.markedTileReads != 0 || c.tileReadWrites != 0 || c.refusals != 0) {
      std::printf("%-70.70s %-9s marked tile-reads %3zu copies %3zu; writes bit 103 %3zu bit 104 %4zu; refusals %zu\n",
                  path.filename().string().c_str(), inDecodeSet ? "decode" : "held out", c.markedTileReads, c.copies, c.tileReadWrites,
                  c.deliveredWrites, c.refusals);
    }
    if (!inDecodeSet && c.markedTileReads != 0) ++heldOutWithMarks;
    Counts& into = inDecodeSet ? decode : heldOut;
    into.markedTileReads += c.markedTileReads;
    into.copies += c.copies;
    into.tileReadWrites += c.tileReadWrites;
    into.deliveredWrites += c.deliveredWrites;
    into.refusals += c.refusals;
    into.controlDisagrees += c.controlDisagrees;
  });
  std::printf("decode set: marked tile-reads %zu, bit-103 writes %zu, bit-104 writes %zu, refusals %zu; held out (%zu programs with "
              "marks): marked tile-reads %zu, bit-103 writes %zu, bit-104 writes %zu, refusals %zu; control disagrees %zu\n",
              decode.markedTileReads, decode.tileReadWrites, decode.deliveredWrites, decode.refusals, heldOutWithMarks,
              heldOut.markedTileReads, heldOut.tileReadWrites, heldOut.deliveredWrites, heldOut.refusals,
              decode.controlDisagrees + heldOut.controlDisagrees);
  ASSERT_TRUE(decodeFound) << kDecodeSet << " not found";
  ASSERT_GT(decode.markedTileReads, 0u);
  ASSERT_GE(heldOutWithMarks, 2u);
  EXPECT_EQ(decode.refusals, 0u);
  EXPECT_EQ(heldOut.refusals, 0u) << "a held-out program breaks the copy pairing or the source bits";
  EXPECT_GT(heldOut.tileReadWrites, 0u);
  EXPECT_GT(decode.controlDisagrees + heldOut.controlDisagrees, 0u) << "the control passed: the check cannot fail";
}

}  // namespace
}  // namespace coralsim::driver::lle_read_copy_test
