// The 0x13 reads kept for the tile's compute (Stage13Route both clear, docs/decoding-log.md "form13"):
// how many of the corpus's pass the shipped envelope, and which bits stop the others. The envelope
// rows of this form come from a decode set of three programs (scripts/gen_lle_envelope.py --opcode
// 0x13); every other program is held out. The test prints the figures the log quotes and checks the
// two sides: some held-out kept reads pass on decoded fields, and the bits still pinned by value
// (w4, w6 and w2 bit 97 of the kept form, not decoded) stop others, naming word and bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/isa/compute_loop_nest.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"
#include "traces/sha256.h"

namespace coralsim::driver {
namespace {

using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
namespace fs = std::filesystem;
using lle::readField;

TEST(LleCorpus, KeptReadsPassTheEnvelopeOnDecodedFieldsOrNameTheBitsThatStopThem) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t kept = 0, passing = 0, firstKept = 0, firstPassing = 0;
  std::map<std::string, size_t> stoppedBy;  // "word K" of the first refusal
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    for (const Executable* e : allExecutables(model)) {
      for (const auto& bitstream : e->bitstreams) {
        const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);
        bool first = true;
        for (const models::DecodedPacket& p : program->packets()) {
          if (static_cast<uint8_t>(p.opcode) != 0x13) continue;
          const bool isFirst = first;
          first = false;
          if (readField(p.words, LleField::Stage13Route, 0) != 0 || readField(p.words, LleField::Stage13Route, 1) != 0) continue;
          ++kept;
          firstKept += isFirst;
          const std::string why = lle::checkEnvelope(p);
          if (why.empty()) {
            ++passing;
            firstPassing += isFirst;
            continue;
          }
          const size_t at = why.find(": word ");
          ASSERT_NE(at, std::string::npos) << path << ": a refusal that names no word: " << why;
          ++stoppedBy[why.substr(at + 2, why.find(" = ", at) - at - 2)];
        }
      }
    }
  });
  std::printf("kept 0x13 reads (Stage13Route 0, 0): %zu, inside the shipped envelope %zu; first 0x13 of a bitstream "
              "%zu, inside %zu\n",
              kept, passing, firstKept, firstPassing);
  for (const auto& [key, n] : stoppedBy) std::printf("  stopped at %s: %zu\n", key.c_str(), n);
  ASSERT_GT(kept, 0u);
  EXPECT_GT(firstPassing, 3u) << "no held-out identity read passes on decoded fields";
  EXPECT_LT(passing, kept) << "every kept read passes: the undecoded bits are no longer checked";
}

// The kept read's consumer, the compute (docs/decoding-log.md "convcompute" §A): w0 holds a third loop
// nest, four 14-bit limits from bit 62 (level 0 the K limit, ComputeLimitW0 levels 1-3). Its counts
// are those of the other two nests (models/isa/compute_loop_nest.def) in the factoring of one of them:
// the first four levels of Nest29 or of Nest37, or the same non-zero limits in another order. Read
// one bit higher (a wrong decode) the same packets agree almost never, which the test also checks.
TEST(LleCorpus, TheComputesW0NestCountsTheLoopsOfItsOtherTwoNests) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  using isa::ComputeNest;
  const auto w0Nest = [](std::span<const isa::Word128> words, unsigned shift) {
    const lle::LleFieldDef& def = lle::fieldDef(LleField::ComputeLimitW0);
    std::array<uint64_t, 4> limits{};
    limits[0] = isa::readPacketBits(words, def.lsb - def.stride + shift, def.width);  // level 0: the K limit
    for (unsigned level = 1; level < 4; ++level) {
      limits[level] = isa::readPacketBits(words, def.lsb + (level - 1) * def.stride + shift, def.width);
    }
    return limits;
  };
  const auto nonZero = [](std::span<const uint64_t> limits) {
    std::vector<uint64_t> v;
    for (const uint64_t l : limits) {
      if (l != 0) v.push_back(l);
    }
    std::ranges::sort(v);
    return v;
  };
  const auto agrees = [&](const std::array<uint64_t, 4>& w0, std::span<const isa::Word128> words) {
    for (const ComputeNest nest : {ComputeNest::Nest29, ComputeNest::Nest37}) {
      const auto other = isa::readComputeNestLimits(nest, words);
      if (std::equal(w0.begin(), w0.end(), other.begin()) || nonZero(w0) == nonZero(other)) return true;
    }
    return false;
  };
  size_t computes = 0, agree = 0, agreeShifted = 0, positions = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path&, const ModelFile& model) {
    for (const Executable* e : allExecutables(model)) {
      for (const auto& bitstream : e->bitstreams) {
        const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);
        for (const models::DecodedPacket& p : program->packets()) {
          if (static_cast<uint8_t>(p.opcode) != 0x01 || p.words.size() < 17) continue;
          ++computes;
          const auto limits = w0Nest(p.words, 0);
          agree += agrees(limits, p.words);
          agreeShifted += agrees(w0Nest(p.words, 1), p.words);
          positions += limits[1] + limits[2] + limits[3] > 0;
        }
      }
    }
  });
  std::printf("compute packets 0x01: %zu; the w0 nest counts the loops of Nest29 or Nest37 in %zu (read one bit "
              "higher: %zu); over more than one position: %zu\n",
              computes, agree, agreeShifted, positions);
  ASSERT_GT(computes, 1000u) << "the corpus lost its compute packets";
  EXPECT_GT(positions, computes / 2) << "the corpus's computes run over positions";
  EXPECT_GE(static_cast<double>(agree), 0.99 * static_cast<double>(computes));
  EXPECT_LT(static_cast<double>(agreeShifted), 0.5 * static_cast<double>(computes));
}

}  // namespace
}  // namespace coralsim::driver
