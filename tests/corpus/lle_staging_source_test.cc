// The 0x14 staging write's source side (docs/decoding-log.md "src14" §B, §C) over every compiled corpus
// program and raw program: the address pair the rung checks beside the skip (Stage14SourceBase = the
// distribution's origin, the address its first, non-skipping write lands at; Stage14SourceEnd = Base +
// Skip, both 16 bits like the write's address, "x14" §B) holds in every 0x14 with Stage14SourceOn, and the skipping write itself lands
// either at that origin (its own copy) or at its units' place in the pop laid out from it, Base + Skip + 1
// (docs/decoding-log.md "x14" §A: matmul_256's column groups), so the rung's refusals never hit a corpus
// program; the same checks one unit off would fail, so they can. And
// where the skips partition the pop: the distributions (a run of 0x14s on disjoint tiles, the first
// without a skip) whose tile group k skips exactly the units of the groups before it (Dense) are
// counted, the runs that skip by another rule (add_128_128, the stride sweep's quarter rows, the
// padding form) apart.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "driver/model/model_file.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_staging_source_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDecodedChunk;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

uint64_t writeUnits(const models::DecodedPacket& p) {
  return readField(p.words, LleField::Stage14NarrowAt64) * 16 + readField(p.words, LleField::Stage14NarrowUnit);
}

// Runs of consecutive 0x14s (no other tile packet between them) on pairwise disjoint tiles.
std::vector<std::vector<const models::DecodedPacket*>> distributions(const models::DecodedProgram& program) {
  std::vector<std::vector<const models::DecodedPacket*>> runs(1);
  uint16_t tiles = 0;
  for (const models::DecodedPacket& p : program.packets()) {
    if (!p.tilePacket) continue;
    const bool joins = static_cast<uint8_t>(p.opcode) == 0x14 && (p.tileMask & tiles) == 0;
    if (!joins && !runs.back().empty()) {
      runs.emplace_back();
      tiles = 0;
    }
    if (static_cast<uint8_t>(p.opcode) != 0x14) continue;
    runs.back().push_back(&p);
    tiles |= p.tileMask;
  }
  return runs;
}

TEST(LleCorpus, StagingSourceSkipsKeepTheirAddressPairAndFollowTheTileGroupsBeforeThem) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  const uint64_t modulus = uint64_t{1} << lle::fieldDef(LleField::Stage14SourceBase).width;
  size_t skipping = 0, baseOneOff = 0, endOneOff = 0, partitions = 0, otherRuns = 0, withOrigin = 0, atOrigin = 0,
         atPopPlace = 0, highAddress = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path& path, const ModelFile& model) {
    forEachDecodedChunk(model, [&](size_t, const models::DecodedProgram& program) {  // raw programs too
      for (const auto& run : distributions(program)) {
        // The distribution's origin: where its first write without a skip lands (none in 11 corpus runs).
        const auto first = std::find_if(run.begin(), run.end(), [](const models::DecodedPacket* p) {
          return readField(p->words, LleField::Stage14SourceOn) == 0;
        });
        for (const models::DecodedPacket* p : run) {
          if (readField(p->words, LleField::Stage14SourceOn) == 0) continue;
          ++skipping;
          const uint64_t base = readField(p->words, LleField::Stage14SourceBase);
          const uint64_t skip = readField(p->words, LleField::Stage14SourceSkip);
          const uint64_t end = readField(p->words, LleField::Stage14SourceEnd);
          const uint64_t own = writeUnits(*p) % modulus;
          if (first != run.end()) {
            ++withOrigin;
            EXPECT_EQ(base, writeUnits(**first) % modulus) << path << " 0x14 @ " << p->pc << ": Stage14SourceBase is not the origin";
          }
          atOrigin += base == own;
          highAddress += own >= (uint64_t{1} << 14);  // Base's and End's two top bits (w4 48-49, 80-81) in use
          atPopPlace += base != own && (base + skip + 1) % modulus == own;
          EXPECT_TRUE(base == own || (base + skip + 1) % modulus == own) << path << " 0x14 @ " << p->pc << ": Stage14SourceBase";
          EXPECT_EQ(end, (base + skip) % modulus) << path << " 0x14 @ " << p->pc << ": Stage14SourceEnd";
          baseOneOff += base == (own + 1) % modulus;
          endOneOff += end == (base + skip + 1) % modulus;
        }
        if (run.size() < 2 || readField(run.front()->words, LleField::Stage14SourceOn) != 0) continue;
        bool follows = true;
        uint64_t before = 0;  // units the earlier tile groups keep
        for (const models::DecodedPacket* p : run) {
          const bool on = readField(p->words, LleField::Stage14SourceOn) != 0;
          const uint64_t skipped = on ? readField(p->words, LleField::Stage14SourceSkip) + 1 : 0;
          follows = follows && (p == run.front() || on) && skipped == before;
          before += readField(p->words, LleField::Stage14Groups) + 1;
        }
        if (!std::any_of(run.begin() + 1, run.end(), [](const models::DecodedPacket* p) {
              return readField(p->words, LleField::Stage14SourceOn) != 0;
            })) {
          continue;
        }
        ++(follows ? partitions : otherRuns);
      }
    });
  });
  std::printf("%zu 0x14s with Stage14SourceOn: the address pair holds in all (one unit off: base %zu, end %zu); "
              "Base is the origin in %zu with a non-skipping first write; the write lands at the origin in %zu, at its "
              "pop place in %zu; %zu at addresses >= 2^14 units; %zu distributions whose tile groups skip the units of the groups before them, %zu by "
              "another rule\n",
              skipping, baseOneOff, endOneOff, withOrigin, atOrigin, atPopPlace, highAddress, partitions, otherRuns);
  ASSERT_GT(skipping, 0u);
  EXPECT_GT(withOrigin, 0u) << "no skipping write with a non-skipping first write in its distribution";
  EXPECT_GT(highAddress, 0u) << "no skipping write above 2^14 units: Base's and End's top bits unchecked";
  EXPECT_LT(baseOneOff, skipping) << "the base check could not tell the write's address from the next unit";
  EXPECT_LT(endOneOff, skipping) << "the end check could not tell Base + Skip from the next unit";
  EXPECT_GT(partitions, 0u) << "no distribution whose skips follow its tile groups (Dense's column groups)";
}

// The row form ("rowform" §A): its two parts add up to the group (RowRest + RowSkip = Stage14Groups mod
// 2^16) in every compiled 0x14 that has it, so the rung's sum check never refuses a compiled program;
// one unit off, it holds in none. The first part is the row after the skip (RowRest = Groups - Skip - 1,
// the case the rung executes) in some of them and not in all (the decoders and the padding form, refused
// by name).
TEST(LleCorpus, StagingRowFormPartsAddUpToTheGroupAndTheFirstIsTheRowAfterTheSkipInSome) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  const uint64_t modulus = uint64_t{1} << lle::fieldDef(LleField::Stage14SourceRowSkip).width;
  size_t rowForm = 0, sumOneOff = 0, rowAfterSkip = 0, withoutSourceOn = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        if (static_cast<uint8_t>(p.opcode) != 0x14 || readField(p.words, LleField::Stage14SourceRowForm) == 0) continue;
        ++rowForm;
        const uint64_t rest = readField(p.words, LleField::Stage14SourceRowRest);
        const uint64_t second = readField(p.words, LleField::Stage14SourceRowSkip);
        const uint64_t groups = readField(p.words, LleField::Stage14Groups);
        EXPECT_EQ((rest + second) % modulus, groups) << path << " 0x14 @ " << p.pc << ": RowRest + RowSkip";
        sumOneOff += (rest + second + 1) % modulus == groups;
        if (readField(p.words, LleField::Stage14SourceOn) == 0) {
          ++withoutSourceOn;
          continue;
        }
        rowAfterSkip += rest + readField(p.words, LleField::Stage14SourceSkip) + 1 == groups;
      }
    });
  });
  std::printf("%zu 0x14s with Stage14SourceRowForm: RowRest + RowSkip = Stage14Groups in all (one unit off: %zu); "
              "the row after the skip in %zu, another first part in %zu with SourceOn, %zu without it\n",
              rowForm, sumOneOff, rowAfterSkip, rowForm - withoutSourceOn - rowAfterSkip, withoutSourceOn);
  ASSERT_GT(rowForm, 0u);
  EXPECT_LT(sumOneOff, rowForm) << "the sum check could not tell the group from one unit more";
  EXPECT_GT(rowAfterSkip, 0u) << "no row-form write whose first part is the row after its skip";
}

// The compile mark beside SourceOn ("conv3" §B): 0 in every compiled 0x14 without SourceOn and one of
// the two one-hot values with it, so the rung's mark check never refuses a compiled program; one value
// per model (the mark follows the compile, not the layer), and both values occur.
TEST(LleCorpus, StagingSourceCompileMarkIsOneHotWithSourceOnAndOneValuePerModel) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t withSourceOn = 0, mixedModels = 0;
  std::array<size_t, 4> byValue{};
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    uint64_t seen = 0;  // bit v set: a skipping write of this model holds mark v
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        if (static_cast<uint8_t>(p.opcode) != 0x14) continue;
        const uint64_t mark = readField(p.words, LleField::Stage14SourceCompileMark);
        if (readField(p.words, LleField::Stage14SourceOn) == 0) {
          EXPECT_EQ(mark, 0u) << path << " 0x14 @ " << p.pc << ": a mark without SourceOn";
          continue;
        }
        ++withSourceOn;
        ++byValue[mark];
        EXPECT_TRUE(mark == 1 || mark == 2) << path << " 0x14 @ " << p.pc << ": mark " << mark;
        seen |= uint64_t{1} << mark;
      }
    });
    mixedModels += std::popcount(seen) > 1;
  });
  std::printf("%zu 0x14s with Stage14SourceOn: compile mark 1 in %zu, 2 in %zu, other %zu; models with both: %zu\n",
              withSourceOn, byValue[1], byValue[2], byValue[0] + byValue[3], mixedModels);
  ASSERT_GT(withSourceOn, 0u);
  EXPECT_GT(byValue[1], 0u);
  EXPECT_GT(byValue[2], 0u);
  EXPECT_EQ(mixedModels, 0u) << "a model holding both marks: the mark would not follow the compile";
}

}  // namespace
}  // namespace coralsim::driver::lle_staging_source_test
