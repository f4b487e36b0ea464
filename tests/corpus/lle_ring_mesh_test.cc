// The evidence behind the ring and mesh transfer sizes (docs/decoding-log.md "ringmesh"), checked on
// every corpus program:
//   - a 0x10 send's beat nest (Dma10Beats) counts ceil(bytes / 256) beats of the 0x13 read whose
//     stream tag it names (the read with the same tag, on a tile of the send, nearest in the
//     program); with 128- or 512-byte beats the same pairs agree far less often;
//   - a tile that sends in a mesh packet (0x15 / 0x16 / 0x18, MeshNNSendStride non-zero) finds its neighbour (t + 4,
//     t - 1, t + 1) receiving the same number of bytes (MeshNNRecvStride non-zero, not a fill) in the same run of
//     that opcode; with the directions reversed almost no sender finds one.
// The rung executes only the outfeed send; these keep the corpus-wide joins that made the fields sizes.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <span>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_ring_mesh_test {
namespace {

using coralsim::testing::forEachDecodedChunk;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;
namespace fs = std::filesystem;

uint64_t productOfCounts(std::span<const isa::Word128> words, LleField limit) {
  uint64_t product = 1;
  for (unsigned level = 0; level < lle::fieldDef(limit).count; ++level) product *= readField(words, limit, level) + 1;
  return product;
}

// The bytes a 0x13 read covers: 4-byte groups over its five levels (Stage13Groups, Stage13OuterLimit).
uint64_t readBytes(std::span<const isa::Word128> words) {
  return 4 * (readField(words, LleField::Stage13Groups) + 1) * productOfCounts(words, LleField::Stage13OuterLimit);
}

struct SendJoins {
  size_t sends = 0;
  std::map<uint64_t, size_t> agreeAtBeat;  // beat bytes -> sends whose beats = ceil(read bytes / beat)
};

void joinSends(std::span<const models::DecodedPacket> packets, SendJoins& joins) {
  for (size_t i = 0; i < packets.size(); ++i) {
    const models::DecodedPacket& send = packets[i];
    if (static_cast<uint8_t>(send.opcode) != 0x10) continue;
    const uint64_t tag = readField(send.words, LleField::Dma10Channel);
    if (tag == 0) continue;  // no stream named
    const models::DecodedPacket* read = nullptr;
    size_t distance = SIZE_MAX;
    for (size_t j = 0; j < packets.size(); ++j) {
      const models::DecodedPacket& p = packets[j];
      if (static_cast<uint8_t>(p.opcode) != 0x13 || !(p.tileMask & send.tileMask)) continue;
      if (readField(p.words, LleField::Stage13Channel) != tag) continue;
      const size_t d = j > i ? j - i : i - j;
      if (d < distance) distance = d, read = &p;
    }
    if (!read) continue;
    ++joins.sends;
    const uint64_t beats = productOfCounts(send.words, LleField::Dma10Beats), bytes = readBytes(read->words);
    for (const uint64_t beat : {128u, 256u, 512u}) joins.agreeAtBeat[beat] += beats == (bytes + beat - 1) / beat;
  }
}

TEST(LleCorpus, SendBeatsCoverTheReadOfTheirStream) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  SendJoins joins;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path&, const ModelFile& model) {
    forEachDecodedChunk(model, [&](size_t, const models::DecodedProgram& program) { joinSends(program.packets(), joins); });
  });
  std::printf("sends joined to the read of their stream: %zu; beats = ceil(bytes / 256) in %zu (128-byte beats: %zu, 512: %zu)\n",
              joins.sends, joins.agreeAtBeat[256], joins.agreeAtBeat[128], joins.agreeAtBeat[512]);
  ASSERT_GT(joins.sends, 1000u);
  EXPECT_GE(joins.agreeAtBeat[256] * 100, joins.sends * 95) << "the beat nest no longer counts the read's 256-byte beats";
  EXPECT_LT(joins.agreeAtBeat[128] * 100, joins.sends * 75) << "the check could not tell 256-byte beats from 128";
  EXPECT_LT(joins.agreeAtBeat[512] * 100, joins.sends * 75) << "the check could not tell 256-byte beats from 512";
}

struct MeshDirection {
  uint8_t opcode;
  LleField sendOn, sendLimit, recvOn, recvLimit, fill;
  int dx, dy;  // the receiving neighbour of tile t = 4 y + x
};
constexpr MeshDirection kMesh[] = {
    {0x15, LleField::Mesh15SendStride, LleField::Mesh15SendLimit, LleField::Mesh15RecvStride, LleField::Mesh15RecvLimit, LleField::Mesh15Fill, 0, 1},
    {0x16, LleField::Mesh16SendStride, LleField::Mesh16SendLimit, LleField::Mesh16RecvStride, LleField::Mesh16RecvLimit, LleField::Mesh16Fill, -1, 0},
    {0x18, LleField::Mesh18SendStride, LleField::Mesh18SendLimit, LleField::Mesh18RecvStride, LleField::Mesh18RecvLimit, LleField::Mesh18Fill, 1, 0},
};

struct MeshJoins {
  size_t tileSends = 0, neighbourReceives = 0, reversedReceives = 0;
};

// Runs of one mesh opcode (tile fences 0x1a between them do not end a run; anything else does).
void joinMesh(std::span<const models::DecodedPacket> packets, MeshJoins& joins) {
  for (size_t start = 0; start < packets.size();) {
    const auto op = static_cast<uint8_t>(packets[start].opcode);
    const MeshDirection* dir = nullptr;
    for (const MeshDirection& m : kMesh) dir = m.opcode == op ? &m : dir;
    if (!dir) {
      ++start;
      continue;
    }
    size_t end = start;
    while (end < packets.size() && (static_cast<uint8_t>(packets[end].opcode) == op || static_cast<uint8_t>(packets[end].opcode) == 0x1a)) ++end;
    std::map<int, uint64_t> received;  // tile -> bytes its receive nest writes from the mesh
    for (size_t k = start; k < end; ++k) {
      const models::DecodedPacket& p = packets[k];
      if (static_cast<uint8_t>(p.opcode) != op || !readField(p.words, dir->recvOn) || readField(p.words, dir->fill)) continue;
      for (int t = 0; t < 16; ++t) {
        if (p.tileMask & (1u << t)) received[t] = 4 * productOfCounts(p.words, dir->recvLimit);
      }
    }
    const auto receives = [&](int x, int y, uint64_t bytes) {
      if (x < 0 || x > 3 || y < 0 || y > 3) return false;
      const auto it = received.find(4 * y + x);
      return it != received.end() && it->second == bytes;
    };
    for (size_t k = start; k < end; ++k) {
      const models::DecodedPacket& p = packets[k];
      if (static_cast<uint8_t>(p.opcode) != op || !readField(p.words, dir->sendOn)) continue;
      const uint64_t bytes = 4 * productOfCounts(p.words, dir->sendLimit);
      for (int t = 0; t < 16; ++t) {
        if (!(p.tileMask & (1u << t))) continue;
        ++joins.tileSends;
        joins.neighbourReceives += receives(t % 4 + dir->dx, t / 4 + dir->dy, bytes);
        joins.reversedReceives += receives(t % 4 - dir->dx, t / 4 - dir->dy, bytes);
      }
    }
    start = end;
  }
}

TEST(LleCorpus, MeshNeighboursReceiveWhatTheTilesSend) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  MeshJoins joins;
  forEachDistinctCorpusModel({"_edgetpu.tflite", ".coral"}, [&](const fs::path&, const ModelFile& model) {
    forEachDecodedChunk(model, [&](size_t, const models::DecodedProgram& program) { joinMesh(program.packets(), joins); });
  });
  std::printf("mesh tile sends: %zu; the neighbour receives the same bytes in %zu (direction reversed: %zu)\n",
              joins.tileSends, joins.neighbourReceives, joins.reversedReceives);
  ASSERT_GT(joins.tileSends, 1000u);
  EXPECT_GE(joins.neighbourReceives * 100, joins.tileSends * 90) << "mesh senders no longer find their receiving neighbour";
  EXPECT_LT(joins.reversedReceives * 100, joins.tileSends * 50) << "the check could not tell the direction";
}

}  // namespace
}  // namespace coralsim::driver::lle_ring_mesh_test
