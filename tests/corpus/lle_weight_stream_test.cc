// The evidence behind the 0x12 weight-stream receive (docs/decoding-log.md "op12"), checked on every corpus
// program: a 0x12 with its loop nest (Recv12InnerLevel) names, in Recv12Stream, the ComputeStreamTag of the
// next compute on its tiles (the control, the compute before it, agrees far less often), and its prefix
// (Recv12PrefixBytes8 / 32 arrays of 256 bytes, 0 without Recv12PrefixOn) is the arrays that compute's
// ComputeParamPrefix reads (scale and weight offset for bit 1, the bias for bit 0). The rung checks both
// where it runs the convolution (lle_rung.cc computeConvolution); these keep the corpus-wide joins.
#include <gtest/gtest.h>

#include <cstdio>
#include <span>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_weight_stream_test {
namespace {

using coralsim::testing::forEachDecodedChunk;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

struct StreamJoins {
  size_t receives = 0;         // 0x12s with their nest and a compute after them on their tiles
  size_t tagOfNext = 0;        // Recv12Stream = the next compute's ComputeStreamTag
  size_t tagOfPrevious = 0;    // control: = the previous compute's tag
  size_t prefixOfNext = 0;     // prefix arrays = the next compute's
};

const models::DecodedPacket* computeOnTiles(std::span<const models::DecodedPacket> packets, size_t from, int step, uint16_t tiles) {
  for (auto i = static_cast<std::ptrdiff_t>(from) + step; i >= 0 && i < static_cast<std::ptrdiff_t>(packets.size()); i += step) {
    const models::DecodedPacket& p = packets[static_cast<size_t>(i)];
    if (static_cast<uint8_t>(p.opcode) == 0x01 && (p.tileMask & tiles)) return &p;
  }
  return nullptr;
}

void joinStreams(std::span<const models::DecodedPacket> packets, StreamJoins& joins) {
  for (size_t i = 0; i < packets.size(); ++i) {
    const models::DecodedPacket& receive = packets[i];
    if (static_cast<uint8_t>(receive.opcode) != 0x12 || !readField(receive.words, LleField::Recv12InnerLevel)) continue;
    const models::DecodedPacket* next = computeOnTiles(packets, i, 1, receive.tileMask);
    if (!next) continue;
    ++joins.receives;
    const uint64_t tag = readField(receive.words, LleField::Recv12Stream);
    joins.tagOfNext += readField(next->words, LleField::ComputeStreamTag) == tag;
    const models::DecodedPacket* previous = computeOnTiles(packets, i, -1, receive.tileMask);
    joins.tagOfPrevious += previous && readField(previous->words, LleField::ComputeStreamTag) == tag;
    const uint64_t prefix = readField(next->words, LleField::ComputeParamPrefix);
    const uint64_t arrays = ((prefix & 2) ? 2 : 0) + (prefix & 1);
    const uint64_t streamArrays =
        readField(receive.words, LleField::Recv12PrefixOn) ? readField(receive.words, LleField::Recv12PrefixBytes8) / 32 : 0;
    joins.prefixOfNext += streamArrays == arrays;
  }
}

TEST(LleCorpus, AWeightStreamReceiveNamesTheNextComputesTagAndPrefix) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  StreamJoins joins;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path&, const ModelFile& model) {
    forEachDecodedChunk(model, [&](size_t, const models::DecodedProgram& program) { joinStreams(program.packets(), joins); });
  });
  std::printf("0x12 stream receives before a compute: %zu; tag = next compute's %zu (previous compute's %zu); prefix arrays = "
              "next compute's %zu\n",
              joins.receives, joins.tagOfNext, joins.tagOfPrevious, joins.prefixOfNext);
  ASSERT_GT(joins.receives, 500u);
  EXPECT_EQ(joins.tagOfNext, joins.receives) << "a 0x12 names another stream than the compute after it";
  EXPECT_LT(joins.tagOfPrevious * 100, joins.receives * 25) << "the check could not tell the next compute from the previous one";
  EXPECT_GE(joins.prefixOfNext * 100, joins.receives * 99) << "the prefix arrays no longer follow the compute's ComputeParamPrefix";
}

}  // namespace
}  // namespace coralsim::driver::lle_weight_stream_test
