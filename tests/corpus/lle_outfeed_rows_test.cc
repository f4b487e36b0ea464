// The evidence behind the nested 0x27's row (docs/decoding-log.md "loop27"; models/lle/outfeed_rows.h),
// checked on every distinct corpus program:
// - every nested 0x27's line and beat fields (OutfeedWholeLines, OutfeedLastBeatLines, OutfeedBeatsWrap,
//   both slots) are what its count (OutfeedLines + 1 groups, 15 bits) gives — and read with the 10-bit
//   count "splitpad" used they are not, so the check can fail;
// - the rows of the outfeeds to scalar memory (OutfeedPath 0) take the host-bound sends that name the
//   nested form (Dma10OutfeedForm 1, 1, no weight feed) in program order: each send's rows fill its beats
//   (Dma10Beats), every row but a send's last in whole 256-byte beats — the rule the rung executes. The
//   chunks whose sends are taken by more than one row are printed (conv 500^2, the rule's decode set, and
//   the held-out depthwise 500^2, BodyPix / PoseNet 1280 x 720 and decoders, DeepLab).
#include <gtest/gtest.h>

#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/lle/outfeed_rows.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_outfeed_rows_test {
namespace {

using coralsim::testing::forEachDecodedChunk;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::OutfeedRows;
using lle::readField;
namespace fs = std::filesystem;

constexpr uint64_t kBeatBytes = 256;

bool nestedOutfeed(const models::DecodedPacket& p) {
  return static_cast<uint8_t>(p.opcode) == 0x27 && readField(p.words, LleField::OutfeedNested) != 0;
}

bool rowToScalarMemory(const models::DecodedPacket& p) { return nestedOutfeed(p) && readField(p.words, LleField::OutfeedPath) == 0; }

// A host-bound send the nested form takes, not the weight feed.
bool sendToScalarMemory(const models::DecodedPacket& p) {
  return static_cast<uint8_t>(p.opcode) == 0x10 && readField(p.words, LleField::Dma10ToOutfeed) != 0 &&
         readField(p.words, LleField::Dma10WeightFeed) == 0 && readField(p.words, LleField::Dma10OutfeedForm, 0) == 1 &&
         readField(p.words, LleField::Dma10OutfeedForm, 1) == 1;
}

uint64_t sendBeats(const models::DecodedPacket& send) {
  uint64_t beats = 1;
  for (unsigned level = 0; level < lle::fieldDef(LleField::Dma10Beats).count; ++level) beats *= readField(send.words, LleField::Dma10Beats, level) + 1;
  return beats;
}

struct RowTally {
  size_t chunks = 0, chunksHolding = 0, chunksLeftOut = 0, multiRowSends = 0;
  std::vector<std::string> multiRowChunks;
};

// Pairs the chunk's rows with its sends in program order. Returns false where they do not partition the
// sends' beats as the rung takes them; a chunk with rows and no matching sends (the 67 nested pairs with
// sends naming 2, 2, "splitpad" §A) is left out.
void tallyChunk(std::span<const models::DecodedPacket> packets, const std::string& label, RowTally& tally) {
  std::vector<uint64_t> sends;  // beats
  std::vector<OutfeedRows> rows;
  for (const models::DecodedPacket& p : packets) {
    if (sendToScalarMemory(p)) sends.push_back(sendBeats(p));
    if (rowToScalarMemory(p)) rows.push_back(OutfeedRows::of(p.words));
  }
  if (rows.empty()) return;
  if (sends.empty()) {
    ++tally.chunksLeftOut;
    return;
  }
  ++tally.chunks;
  size_t send = 0, rowsOfSend = 0, multi = 0;
  uint64_t taken = 0;
  for (const OutfeedRows& row : rows) {
    if (send == sends.size()) return;  // a row with no send left
    taken += row.bytes();
    ++rowsOfSend;
    const uint64_t beats = sends[send];
    if (taken > beats * kBeatBytes) return;
    if (taken > (beats - 1) * kBeatBytes) {  // the send's last beat: its last row
      multi += rowsOfSend > 1;
      ++send;
      taken = 0;
      rowsOfSend = 0;
    } else if (!row.wholeBeats()) {
      return;  // a row ending inside a beat with more of its send after it
    }
  }
  if (send != sends.size()) return;
  ++tally.chunksHolding;
  tally.multiRowSends += multi;
  if (multi > 0) tally.multiRowChunks.push_back(label + ": " + std::to_string(multi) + " of " + std::to_string(sends.size()) + " sends");
}

template <typename Visit>
void forEveryChunk(Visit visit) {
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    forEachDecodedChunk(model, [&](size_t c, const models::DecodedProgram& program) {
      visit(path.filename().string() + " chunk " + std::to_string(c), program.packets());
    });
  });
}

TEST(LleCorpus, EveryNestedOutfeedsLineAndBeatFieldsFollowItsCount) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t nested = 0, holding = 0, holdingTenBits = 0, wide = 0;
  forEveryChunk([&](const std::string&, std::span<const models::DecodedPacket> packets) {
    for (const models::DecodedPacket& p : packets) {
      if (!nestedOutfeed(p)) continue;
      ++nested;
      const OutfeedRows rows = OutfeedRows::of(p.words);
      holding += rows.slotProblem(p.words).empty();
      wide += rows.groups > 1024;
      // "splitpad" §B's reading: the count in w0[52:43] alone.
      holdingTenBits += OutfeedRows{(rows.groups - 1) % 1024 + 1}.slotProblem(p.words).empty();
    }
  });
  std::printf("nested 0x27s: %zu; line and beat fields as the 15-bit count gives: %zu (as the 10-bit count gives: %zu); rows over "
              "1,024 groups: %zu\n",
              nested, holding, holdingTenBits, wide);
  ASSERT_GT(nested, 0u);
  EXPECT_EQ(holding, nested) << "a nested 0x27 whose line or beat fields disagree with its count: the rung would refuse it";
  ASSERT_GT(wide, 0u) << "no row over 1,024 groups: the 15-bit count is not exercised";
  EXPECT_LT(holdingTenBits, nested) << "the check cannot tell the 15-bit count from the 10-bit one";
}

TEST(LleCorpus, TheRowsToScalarMemoryTakeEachSendsBeatsInOrder) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  RowTally tally;
  forEveryChunk([&](const std::string& label, std::span<const models::DecodedPacket> packets) { tallyChunk(packets, label, tally); });
  std::printf("chunks with rows to scalar memory: %zu paired with their sends, %zu partitioning them as the rung takes them, %zu "
              "left out (no 1, 1 send); sends taken by more than one row: %zu, in:\n",
              tally.chunks, tally.chunksHolding, tally.chunksLeftOut, tally.multiRowSends);
  for (const std::string& chunk : tally.multiRowChunks) std::printf("  %s\n", chunk.c_str());
  ASSERT_GT(tally.chunks, 0u);
  EXPECT_EQ(tally.chunksHolding, tally.chunks) << "a chunk whose rows do not take its sends' beats in order: the rung would refuse it";
  EXPECT_GE(tally.multiRowChunks.size(), 2u) << "fewer than two chunks send more than one row: the split is not exercised";
}

}  // namespace
}  // namespace coralsim::driver::lle_outfeed_rows_test
