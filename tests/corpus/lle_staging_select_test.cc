// The evidence behind the 0x14 select pair (docs/decoding-log.md "xraypair" §A), checked on every
// corpus program: Stage14SelectW4 (w4[109:108]) and Stage14SelectW5 (w5[23:22]) are one-hot (never
// 3), and they go with what next carries data into the 0x14's tiles — every 0x14 with a w5 flag is
// fed by an input pop or precedes a compute on its tiles, never a ring send or a mesh transfer; every
// (1, 0) is followed by a 0x10 send on the ring. The rung's hypothesis (the covered selects leave a
// contiguous write where its address says) rests on this table and on sub1's bytes; the table is
// printed for the decoding log.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"
#include "traces/sha256.h"

namespace coralsim::driver::lle_staging_select_test {
namespace {

using coralsim::testing::forEachDecodedChunk;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
namespace fs = std::filesystem;
using lle::readField;

enum class Carrier { kInputPop, kParameterPop, kRingSend, kCompute, kMeshTransfer, kNextStagingWrite, kNone };

const char* carrierName(Carrier c) {
  switch (c) {
    case Carrier::kInputPop: return "input pop";
    case Carrier::kParameterPop: return "parameter pop";
    case Carrier::kRingSend: return "0x10 send";
    case Carrier::kCompute: return "compute";
    case Carrier::kMeshTransfer: return "mesh/ring transfer";
    case Carrier::kNextStagingWrite: return "next 0x14";
    case Carrier::kNone: return "nothing";
  }
  return "?";
}

// What carries data into the tiles of the 0x14 at `at` next, before another 0x14 of a shared tile.
Carrier nextCarrier(std::span<const models::DecodedPacket> packets, size_t at) {
  const uint16_t mask = packets[at].tileMask;
  for (size_t j = at + 1; j < packets.size(); ++j) {
    const models::DecodedPacket& p = packets[j];
    if (p.action != models::PacketAction::kIssue) continue;
    const auto op = static_cast<uint8_t>(p.opcode);
    const bool shared = (p.tileMask & mask) != 0;
    if (op == 0x26 && (readField(p.words, LleField::PopTiles) & mask) != 0) {
      return readField(p.words, LleField::PopIsInput) != 0 ? Carrier::kInputPop : Carrier::kParameterPop;
    }
    if (op == 0x10) return Carrier::kRingSend;
    if (op == 0x01 && shared) return Carrier::kCompute;
    if (op == 0x17 && shared && readField(p.words, LleField::Fill17Immediate) == 0) return Carrier::kMeshTransfer;
    if ((op == 0x12 || op == 0x15 || op == 0x16 || op == 0x18) && shared) return Carrier::kMeshTransfer;
    if (op == 0x14 && shared) return Carrier::kNextStagingWrite;
  }
  return Carrier::kNone;
}

TEST(LleCorpus, TheStagingSelectsAreOneHotAndGoWithWhatFeedsTheWrite) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::map<std::pair<uint64_t, uint64_t>, std::map<Carrier, size_t>> table;
  size_t writes = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    forEachDecodedChunk(model, [&](size_t, const models::DecodedProgram& program) {
      const std::span<const models::DecodedPacket> packets = program.packets();
      for (size_t i = 0; i < packets.size(); ++i) {
        const models::DecodedPacket& p = packets[i];
        if (p.action != models::PacketAction::kIssue || static_cast<uint8_t>(p.opcode) != 0x14) continue;
        const uint64_t w4 = readField(p.words, LleField::Stage14SelectW4);
        const uint64_t w5 = readField(p.words, LleField::Stage14SelectW5);
        const Carrier next = nextCarrier(packets, i);
        ++writes;
        ++table[{w4, w5}][next];
        EXPECT_NE(w4, 3u) << path << " PC " << p.pc << ": both flags of Stage14SelectW4";
        EXPECT_NE(w5, 3u) << path << " PC " << p.pc << ": both flags of Stage14SelectW5";
        if (w5 != 0) {
          EXPECT_TRUE(next == Carrier::kInputPop || next == Carrier::kCompute)
              << path << " PC " << p.pc << ": a 0x14 with a w5 flag followed by " << carrierName(next);
        }
        if (w4 == 1 && w5 == 0) {
          EXPECT_EQ(next, Carrier::kRingSend) << path << " PC " << p.pc << ": a (1, 0) 0x14 followed by "
                                              << carrierName(next);
        }
      }
    });
  });
  std::printf("%zu 0x14s; (Stage14SelectW4, Stage14SelectW5): what next carries data into their tiles\n", writes);
  for (const auto& [pair, carriers] : table) {
    std::printf("  (%llu, %llu):", static_cast<unsigned long long>(pair.first), static_cast<unsigned long long>(pair.second));
    for (const auto& [carrier, count] : carriers) std::printf(" %s %zu;", carrierName(carrier), count);
    std::printf("\n");
  }
  ASSERT_GT(writes, 0u);
  // The pop-fed and the ring-fed forms both occur, so the two checks above had something to check.
  const size_t popFed = table[std::pair<uint64_t, uint64_t>{2, 2}][Carrier::kInputPop] +
                        table[std::pair<uint64_t, uint64_t>{1, 1}][Carrier::kInputPop];
  const size_t ringFed = table[std::pair<uint64_t, uint64_t>{1, 0}][Carrier::kRingSend];
  EXPECT_GT(popFed, 0u);
  EXPECT_GT(ringFed, 0u);
}

}  // namespace
}  // namespace coralsim::driver::lle_staging_select_test
