// The evidence behind ComputeOffsetPrefixFirst / Count / Last (w14 bits 118, 106, 94: docs/decoding-log.md
// "p4w14"), checked on every distinct corpus program: a compute whose parameter prefix carries a per-lane weight
// offset array (ComputeParamPrefix bit 1, or one prefix array of a 0x12 stream under prefix 0: gabor's) names,
// as ComputeOffsetPrefixLast, the last 256-byte unit of the prefix of the weight stream on its tag
// (Recv11PrefixLast64 / 4 or Recv12PrefixLast64 / 4 of the receive on its first tile); a compute without an
// offset array holds 0 in all three. The rung checks both in the convolution form; this test keeps the
// corpus-wide rule that made the bits a bound rather than values, and shows it can fail: read one bit
// lower (w14[104:93]) almost no compute agrees.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdio>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_offset_prefix_test {
namespace {

using coralsim::testing::forEachDecodedChunk;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

struct Counts {
  size_t withOffset = 0, lastIsTheBound = 0, shiftedIsTheBound = 0;
  size_t withoutOffset = 0, withoutOffsetZero = 0;
};

// The prefix of a weight stream as its receive armed it on a tile.
struct ArmedPrefix {
  uint8_t opcode = 0;
  uint64_t bytes8 = 0;  // Recv1xPrefixBytes8: 32 a 256-byte array
  uint64_t last64 = 0;
};

constexpr uint64_t kUnits8PerArray = 32;  // one 256-byte array
constexpr uint64_t kUnits64PerRow = 4;

void countComputes(std::span<const models::DecodedPacket> packets, Counts& counts) {
  std::array<std::map<uint64_t, ArmedPrefix>, 16> armed;  // per tile, by stream tag
  for (const models::DecodedPacket& p : packets) {
    if (p.action != models::PacketAction::kIssue || !p.tilePacket) continue;
    const auto op = static_cast<uint8_t>(p.opcode);
    if (op == 0x11 || op == 0x12) {
      const bool prefixed = readField(p.words, op == 0x11 ? LleField::Recv11PrefixOn : LleField::Recv12PrefixOn) != 0;
      const uint64_t tag = readField(p.words, op == 0x11 ? LleField::Recv11ExecStream : LleField::Recv12Stream);
      const ArmedPrefix prefix{op, prefixed ? readField(p.words, op == 0x11 ? LleField::Recv11PrefixBytes8 : LleField::Recv12PrefixBytes8) : 0,
                               readField(p.words, op == 0x11 ? LleField::Recv11PrefixLast64 : LleField::Recv12PrefixLast64)};
      for (unsigned t = 0; t < 16; ++t) {
        if (p.tileMask & (1u << t)) armed[t][tag] = prefix;
      }
      continue;
    }
    if (op != 0x01 || p.tileMask == 0) continue;
    const unsigned first = static_cast<unsigned>(std::countr_zero(p.tileMask));
    const auto stream = armed[first].find(readField(p.words, LleField::ComputeStreamTag));
    const uint64_t prefix = readField(p.words, LleField::ComputeParamPrefix);
    const bool hasStream = stream != armed[first].end() && stream->second.bytes8 != 0;
    // gabor's form: exactly one whole array (five DeepLab / MobileNet v2 0x12s open with 33 units under prefix 0: not it).
    const bool offsetArray =
        (prefix & 2) != 0 || (prefix == 0 && hasStream && stream->second.opcode == 0x12 && stream->second.bytes8 == kUnits8PerArray);
    const uint64_t last = readField(p.words, LleField::ComputeOffsetPrefixLast);
    if (offsetArray && hasStream) {
      ++counts.withOffset;
      counts.lastIsTheBound += last == stream->second.last64 / kUnits64PerRow;
      counts.shiftedIsTheBound += p.words[14].bits(93, 12) == stream->second.last64 / kUnits64PerRow;
    } else if (!offsetArray) {
      ++counts.withoutOffset;
      counts.withoutOffsetZero += (last | readField(p.words, LleField::ComputeOffsetPrefixCount) |
                                   readField(p.words, LleField::ComputeOffsetPrefixFirst)) == 0;
    }
  }
}

TEST(LleCorpus, TheComputesWeightOffsetArrayEndsItsStreamsPrefix) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  Counts counts;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path&, const ModelFile& model) {
    forEachDecodedChunk(model, [&](size_t, const models::DecodedProgram& program) { countComputes(program.packets(), counts); });
  });
  std::printf("computes with a weight offset array and a prefixed stream on their tag: %zu, ComputeOffsetPrefixLast = the "
              "stream's PrefixLast64 / 4 in %zu (read one bit lower: %zu)\n"
              "computes without an offset array: %zu, all three numbers 0 in %zu\n",
              counts.withOffset, counts.lastIsTheBound, counts.shiftedIsTheBound, counts.withoutOffset, counts.withoutOffsetZero);
  ASSERT_GT(counts.withOffset, 0u);
  ASSERT_GT(counts.withoutOffset, 0u);
  EXPECT_EQ(counts.lastIsTheBound, counts.withOffset) << "a compute places its offset array elsewhere than its stream's prefix bound";
  EXPECT_LT(counts.shiftedIsTheBound * 2, counts.withOffset) << "the check could not tell the field from its neighbour";
  EXPECT_EQ(counts.withoutOffsetZero, counts.withoutOffset) << "a compute without an offset array places one";
}

}  // namespace
}  // namespace coralsim::driver::lle_offset_prefix_test
