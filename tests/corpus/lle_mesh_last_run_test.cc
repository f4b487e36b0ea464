// The mesh sides' shorter last repetition (docs/decoding-log.md "short18"; lle_fields.def Mesh15SendLastRunOn ...,
// read with the 0x11's helper, models/lle/last_repetition.h) over every distinct compiled corpus program.
//
// The streams are joined as LleRung::meshTransfer pairs them: per direction and receiving tile, the sends in
// program order; a relay (both sides walking the same units) takes the oldest stream sent towards each of its
// tiles and sends it on. A relay whose walk carries the flag must walk exactly the units its upstream send put
// on the mesh when its last pass of level 0 is read LastRun + 1 units long; read whole (the control) it must
// not. Counted apart for the decode set (rubensrech conv 1024^2) and the held-out rest; a held-out relay the
// join does not match must miss under both readings (the join lost its stream, not the reading). Every flagged
// side without the undecoded bit beside the flag (w1 bit 122 / w3 bit 71) states LastShort = limit0 - LastRun
// with only level 1 counting above level 0 (lastRepetitionConflict finds nothing).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "driver/model/model_file.h"
#include "models/lle/last_repetition.h"
#include "models/lle/lle_fields.h"
#include "models/lle/mesh_sides.h"
#include "models/scalar/decoded_program.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_mesh_last_run_test {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;
using lle::readField;

// The bit beside each side's flag (not decoded; the envelope pins it): send w1 bit 122, receive w3 bit 71.
constexpr unsigned kSendBeside = 128 + 122, kRecvBeside = 3 * 128 + 71;

bool bitAt(const models::DecodedPacket& p, unsigned absolute) { return p.words[absolute / 128].bits(absolute % 128, 1) != 0; }

struct Stream {
  uint64_t units = 0;       // with every flagged side's last pass shortened
  uint64_t wholeUnits = 0;  // every side read whole
};

TEST(LleCorpus, MeshRelaysWithAShorterLastRepetitionWalkTheirUpstreamStream) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  struct Tally {
    size_t flaggedSides = 0, conflictFree = 0, relayTiles = 0, shortened = 0, whole = 0, missBoth = 0;
  } decide, heldOut;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    Tally& t = path.filename().string().find("conv_2d_1_1024_1024_1_40_40") != std::string::npos ? decide : heldOut;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      std::array<std::array<std::deque<Stream>, 16>, 4> sent{};
      std::array<std::array<size_t, 16>, 4> armed{};  // receives waiting for a stream, per direction and tile
      for (const models::DecodedPacket& p : program.packets()) {
        const lle::MeshLayout* m = lle::meshLayoutOf(static_cast<uint8_t>(p.opcode));
        if (!m || p.words.size() < 6) continue;
        const bool sends = readField(p.words, m->sendStride) != 0;
        const bool receives = readField(p.words, m->recvStride) != 0;
        const bool fills = readField(p.words, m->fill) != 0;
        for (const auto& [on, last, beside] : {std::tuple{sends, m->sendLast, kSendBeside}, {receives, m->recvLast, kRecvBeside}}) {
          if (!on || readField(p.words, last.on) == 0 || bitAt(p, beside)) continue;
          ++t.flaggedSides;
          t.conflictFree += !lle::lastRepetitionConflict(p.words, last).has_value();
        }
        const auto nestOf = [&](bool sendSide, bool shortened) {
          lle::LoopNest<4> nest = sendSide ? lle::meshNest(p.words, m->sendAt4, m->sendStride, m->sendLimit, m->sendCarry, m->sendLast)
                                           : lle::meshNest(p.words, m->recvAt4, m->recvStride, m->recvLimit, m->recvCarry, m->recvLast);
          if (!shortened) nest.lastPassDrops = 0;
          return nest;
        };
        const auto direction = static_cast<size_t>(m - lle::kMeshLayouts.data());
        const auto inGrid = [&](unsigned tile) {
          const int to = static_cast<int>(tile) + m->neighbourOffset;
          return to >= 0 && to < 16 ? std::optional<unsigned>(static_cast<unsigned>(to)) : std::nullopt;
        };
        const lle::LoopNest<4> send = nestOf(true, true), receive = nestOf(false, true);
        const bool relay = sends && receives && !fills && send.firstUnit == receive.firstUnit && send.limits == receive.limits &&
                           send.strides == receive.strides;
        if (relay) {
          const bool flagged = readField(p.words, m->recvLast.on) != 0 && !bitAt(p, kRecvBeside);
          for (unsigned k = 0; k < 16; ++k) {
            const unsigned tile = m->neighbourOffset < 0 ? 15 - k : k;  // upstream first, as relayMeshStream
            const auto to = inGrid(tile);
            if (!(p.tileMask >> tile & 1u) || !to || sent[direction][tile].empty()) continue;
            const Stream arrived = sent[direction][tile].front();
            sent[direction][tile].pop_front();
            if (flagged) {
              ++t.relayTiles;
              const bool shortHolds = arrived.units == receive.units();
              const bool wholeHolds = arrived.wholeUnits == nestOf(false, false).units();
              t.shortened += shortHolds;
              t.whole += wholeHolds;
              t.missBoth += !shortHolds && !wholeHolds;
            }
            sent[direction][*to].push_back(arrived);
          }
          continue;
        }
        for (unsigned tile = 0; tile < 16; ++tile) {
          if (!(p.tileMask >> tile & 1u)) continue;
          if (sends) {
            if (const auto to = inGrid(tile)) sent[direction][*to].push_back({send.units(), nestOf(true, false).units()});
          }
          if (receives && !fills) ++armed[direction][tile];
        }
        for (unsigned tile = 0; tile < 16; ++tile) {
          for (; armed[direction][tile] > 0 && !sent[direction][tile].empty(); --armed[direction][tile]) sent[direction][tile].pop_front();
        }
      }
    });
  });
  for (const auto& [label, t] : {std::pair<const char*, const Tally&>{"decide", decide}, {"held out", heldOut}}) {
    std::printf("%s: flagged mesh sides %zu, LastShort = limit0 - LastRun with level 1 alone above in %zu; flagged relay "
                "tiles %zu: the upstream stream's units = the shortened walk in %zu, the whole walk in %zu (neither: %zu)\n",
                label, t.flaggedSides, t.conflictFree, t.relayTiles, t.shortened, t.whole, t.missBoth);
    EXPECT_GT(t.relayTiles, 0u) << label;
    EXPECT_EQ(t.conflictFree, t.flaggedSides) << label;
    EXPECT_EQ(t.shortened + t.missBoth, t.relayTiles) << label << ": a relay the whole reading matches and the shortened does not";
    EXPECT_LT(t.whole, t.shortened) << label;
  }
  EXPECT_EQ(decide.shortened, decide.relayTiles);
  EXPECT_EQ(decide.whole, 0u);
}

}  // namespace
}  // namespace coralsim::driver::lle_mesh_last_run_test
