// The units of the staging addresses (docs/decoding-log.md "xray" §B) against the compiler's own
// record of how much narrow memory each executable uses (`used_narrow_memory_bytes_per_tile`,
// which the decoding did not use): every 0x14 write (Stage14NarrowAt64 x 64 + 4 x Stage14NarrowUnit +
// the 4-byte groups of its loop) and every 0x13 read (Stage13NarrowAt4 x 4 + its groups) of every compiled program
// must end inside that footprint. The test also shows it can fail: with the units doubled, some
// executables' staging would leave their footprint. The 0x14 write's nest is checked the same way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <string>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/lle/write_nest.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"
#include "traces/sha256.h"

namespace coralsim::driver::lle_staging_footprint_test {
namespace {

using coralsim::testing::forEachDecodedPacket;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
namespace fs = std::filesystem;
using lle::readField;

struct StagingEnds {
  uint64_t write = 0, read = 0;                // with the decoded units
  uint64_t writeDoubled = 0, readDoubled = 0;  // with twice the units
  bool any = false;
};

StagingEnds stagingEnds(const Executable& e) {
  StagingEnds ends;
  for (const auto& bitstream : e.bitstreams) {
    const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);
    for (const models::DecodedPacket& p : program->packets()) {
      const auto op = static_cast<uint8_t>(p.opcode);
      if (op == 0x14) {
        const uint64_t at = readField(p.words, LleField::Stage14NarrowAt64);
        const uint64_t unit = readField(p.words, LleField::Stage14NarrowUnit);  // "identform" §B
        const uint64_t bytes = 4 * (readField(p.words, LleField::Stage14Groups) + 1);
        ends.write = std::max(ends.write, at * 64 + unit * 4 + bytes);
        ends.writeDoubled = std::max(ends.writeDoubled, at * 128 + unit * 8 + bytes);
        ends.any = true;
      } else if (op == 0x13) {
        const uint64_t at = readField(p.words, LleField::Stage13NarrowAt4);
        const uint64_t bytes = 4 * (readField(p.words, LleField::Stage13Groups) + 1);
        ends.read = std::max(ends.read, at * 4 + bytes);
        ends.readDoubled = std::max(ends.readDoubled, at * 8 + bytes);
        ends.any = true;
      }
    }
  }
  return ends;
}

TEST(LleCorpus, StagingAddressesStayInsideTheCompilersNarrowFootprint) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t executables = 0, writesAtFootprint = 0, readsAtFootprint = 0, beyondWhenDoubled = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    for (const Executable* e : allExecutables(model)) {
      const StagingEnds ends = stagingEnds(*e);
      if (!ends.any) continue;
      const auto footprint = static_cast<uint64_t>(e->usedNarrowMemoryBytesPerTile);
      ++executables;
      EXPECT_LE(ends.write, footprint) << path << ": a 0x14 writes beyond the recorded narrow footprint";
      EXPECT_LE(ends.read, footprint) << path << ": a 0x13 reads beyond the recorded narrow footprint";
      writesAtFootprint += ends.write == footprint;
      readsAtFootprint += ends.read == footprint;
      beyondWhenDoubled += ends.writeDoubled > footprint || ends.readDoubled > footprint;
    }
  });
  std::printf("%zu executables with staging packets: the last 0x14 write ends at the footprint in %zu, the last 0x13 "
              "read in %zu; with doubled units %zu would leave it\n",
              executables, writesAtFootprint, readsAtFootprint, beyondWhenDoubled);
  ASSERT_GT(executables, 0u);
  EXPECT_GT(readsAtFootprint, 0u) << "the decoded units never meet a footprint exactly";
  EXPECT_GT(beyondWhenDoubled, 0u) << "the check could not tell the units from twice the units";
}

// The 0x14 write's nest (docs/decoding-log.md "write14" §B): every write whose outer levels count,
// read as the rung's odometer (write_nest.h), stays inside [0, footprint); laid end to end (the units
// one after another), some would leave it, and with the carries read as plain strides some would
// reach below address 0 — so the check can reject the two other readings.
TEST(LleCorpus, StagingWriteNestsStayInsideTheCompilersNarrowFootprint) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t nests = 0, endToEndBeyond = 0, plainStridesBelowZero = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    forEachDecodedPacket(model, [&](const Executable& e, const models::DecodedPacket& p) {
      const auto footprint = static_cast<int64_t>(e.usedNarrowMemoryBytesPerTile);
      if (static_cast<uint8_t>(p.opcode) != 0x14) return;
      const lle::WriteNest nest = lle::WriteNest::fromPacket(p.words);
      if (nest.contiguous()) return;
      ++nests;
      const auto at = static_cast<int64_t>(readField(p.words, LleField::Stage14NarrowAt64) * 64 +
                                           readField(p.words, LleField::Stage14NarrowUnit) * 4);
      EXPECT_GE(at + 4 * nest.lowestUnit(), 0) << path << ": a 0x14 nest reaches below address 0";
      EXPECT_LE(at + 4 * (nest.highestUnit() + 1), footprint) << path << ": a 0x14 nest ends beyond the footprint";
      endToEndBeyond += at + 4 * static_cast<int64_t>(nest.units()) > footprint;
      int64_t lowest = 0;  // the carries as strides of their own levels
      for (unsigned i = 1; i < lle::WriteNest::kLevels; ++i) {
        const int64_t plain = nest.strides[i] - [&] {
          int64_t walk = 0;
          for (unsigned j = 0; j < i; ++j) walk += static_cast<int64_t>(nest.limits[j]) * nest.strides[j];
          return walk;
        }();
        lowest += std::min<int64_t>(0, static_cast<int64_t>(nest.limits[i]) * plain);
      }
      plainStridesBelowZero += at + 4 * lowest < 0;
    });
  });
  std::printf("%zu 0x14 nests with a counting outer level, all inside their footprint; end to end %zu would leave it, "
              "with plain strides %zu would reach below 0\n",
              nests, endToEndBeyond, plainStridesBelowZero);
  ASSERT_GT(nests, 0u);
  EXPECT_GT(endToEndBeyond, 0u) << "the check could not tell the odometer from the units laid end to end";
  EXPECT_GT(plainStridesBelowZero, 0u) << "the check could not tell the odometer from plain strides";
}

}  // namespace
}  // namespace coralsim::driver::lle_staging_footprint_test
