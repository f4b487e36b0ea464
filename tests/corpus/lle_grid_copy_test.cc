// The convolutions' identity computes write their positions into the interior of a zero-padded grid
// (docs/decoding-log.md "convcompute" §B, "gridcopy"): with T = the block width (w0 nest level 1 + 1),
// R = its rows (level 3 + 1), K = the convolution's square taps (its Nest37 levels 0 and 1 + 1),
// G = T + K - 1 and p = (K - 1) / 2, the first identity compute's output nest (models/lle/output_nest.h)
// covers grid rows p .. p + R - 1, columns p .. p + T - 1 (4 bytes a position), the second the row after,
// and the convolution writes right after the grid, at 4 G². The shape is found by structure over the
// whole corpus (identity, identity, convolution); no program is named. Decode set of the rule: the
// rubensrech single-channel 32² and 64² 3 x 3 and 256² 40 x 40 convolutions; every other match is held
// out. Some matches use another layout ("convcompute" §B: LibrEdgeTPU looming / gabor), so the test
// counts and asserts a floor rather than all.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/isa/compute_loop_nest.h"
#include "models/lle/lle_fields.h"
#include "models/lle/output_nest.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_grid_copy_test {
namespace {

using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
namespace fs = std::filesystem;
using lle::readField;

struct IdentityShape {
  uint64_t blockWidth = 0;  // T
  uint64_t rows = 0;        // R
};

// An identity compute's block (K limit 0, w0 nest levels T - 1, 0, R - 1), or nothing.
std::optional<IdentityShape> identityShape(const models::DecodedPacket& p) {
  if (readField(p.words, LleField::ComputeK4W0) != 0) return std::nullopt;
  const uint64_t width = readField(p.words, LleField::ComputeLimitW0, 0);
  if (width == 0 || readField(p.words, LleField::ComputeLimitW0, 1) != 0) return std::nullopt;
  return IdentityShape{width + 1, readField(p.words, LleField::ComputeLimitW0, 2) + 1};
}

std::vector<int64_t> outputUnits(const models::DecodedPacket& p) {
  const uint64_t at = readField(p.words, LleField::ComputeOutputAt);
  std::vector<int64_t> units;
  if (at % 4 != 0) return units;
  const lle::OutputNest nest = lle::OutputNest::fromPacket(p.words, static_cast<int64_t>(at / 4));
  if (nest.units() > (1u << 20)) return units;
  nest.forEachUnit([&](int64_t unit) { units.push_back(unit); });
  return units;
}

std::vector<int64_t> gridRows(uint64_t grid, uint64_t pad, uint64_t firstRow, uint64_t rows, uint64_t width) {
  std::vector<int64_t> units;
  for (uint64_t r = firstRow; r < firstRow + rows; ++r) {
    for (uint64_t c = 0; c < width; ++c) units.push_back(static_cast<int64_t>((pad + r) * grid + pad + c));
  }
  return units;
}

TEST(LleCorpus, TheIdentityComputesOutputNestCoversThePaddedGridsInterior) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t shapes = 0, exact = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      std::vector<const models::DecodedPacket*> computes;
      for (const models::DecodedPacket& p : program.packets()) {
        if (static_cast<uint8_t>(p.opcode) == 0x01 && p.words.size() >= 17) computes.push_back(&p);
      }
      // Leading identity computes of one block width (R rows in all, the last one row or more),
      // then a convolution with square taps (Nest37 levels 0 and 1).
      size_t identities = 0;
      std::vector<IdentityShape> blocks;
      while (identities < computes.size()) {
        const auto shape = identityShape(*computes[identities]);
        if (!shape || (!blocks.empty() && shape->blockWidth != blocks.front().blockWidth)) break;
        blocks.push_back(*shape);
        ++identities;
      }
      if (blocks.size() < 2 || identities == computes.size()) return;
      const auto taps = isa::readComputeNestLimits(isa::ComputeNest::Nest37, computes[identities]->words);
      if (taps[0] == 0 || taps[0] != taps[1]) return;
      ++shapes;
      const uint64_t t = blocks.front().blockWidth, k = taps[0] + 1, grid = t + k - 1, pad = (k - 1) / 2;
      // Each tile's block continues where that tile's previous identity compute stopped (a program
      // may send one packet per tile column: masks 1111, 2222, ...).
      bool rowsLand = true;
      std::map<uint64_t, uint64_t> rowOfTiles;
      uint64_t row = 0;
      for (size_t i = 0; i < blocks.size(); ++i) {
        uint64_t& at = rowOfTiles[readField(computes[i]->words, LleField::ComputeMask)];
        rowsLand = rowsLand && outputUnits(*computes[i]) == gridRows(grid, pad, at, blocks[i].rows, t);
        at += blocks[i].rows;
        row = std::max(row, at);
      }
      const bool convAfter = readField(computes[identities]->words, LleField::ComputeOutputAt) == 4 * grid * grid;
      const bool all = rowsLand && convAfter;
      exact += all;
      std::printf("  %s %s: T %llu, %zu identity computes, %llu rows a tile, K %llu, G %llu: rows on the grid %s, "
                  "convolution after the grid %s\n",
                  all ? "exact" : "other layout", path.filename().string().c_str(), static_cast<unsigned long long>(t),
                  blocks.size(), static_cast<unsigned long long>(row), static_cast<unsigned long long>(k),
                  static_cast<unsigned long long>(grid), rowsLand ? "yes" : "no", convAfter ? "yes" : "no");
    });
  });
  std::printf("identity, identity, convolution programs: %zu; output nests on the padded grid's interior: %zu\n", shapes, exact);
  ASSERT_GT(shapes, 0u) << "no program of the shape: the corpus lost its convolutions";
  // Decode set 3; the rest held out (the rubensrech 32² 6 x 6, 500², 512² among them).
  EXPECT_GE(exact, 6u) << "the output nest puts fewer held-out blocks in the grid interior than the log reports";
}

}  // namespace
}  // namespace coralsim::driver::lle_grid_copy_test
