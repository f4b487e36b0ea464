// The mesh pass-through form (models/lle/mesh_pass_through.h; docs/decoding-log.md "nin16"): a mesh packet with both sides'
// level-0 strides 0, both slots marked 4, one address and nest on both sides and the region naming its own bus forwards the
// stream sent towards each of its tiles to the neighbour on the same bus, writing none of it. Here tile 13 sends 5 units
// (from narrow unit 300) towards tile 9 in a send-only 0x17 (t - 4); tiles 9 and 5 pass it through (one packet on both, the
// upstream tile first), and tile 1 receives it at unit 700. No corpus packet has these tiles, this length or these
// addresses (nin_cnn's: 3 units at 48 / 63 / 57, tiles 8-11 -> 4-7 -> 0-3). A stream of another length, a pass-through
// with nothing sent towards it, another address on one side or the region off are refused by name.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/mesh_pass_through.h"
#include "models/lle/mesh_sides.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_mesh_pass_through_test {
namespace {

using models::DecodedPacket;

constexpr unsigned kSource = 13;
constexpr unsigned kSink = 1;
constexpr uint16_t kPassTiles = (1u << 9) | (1u << 5);
constexpr uint64_t kUnits = 5;
constexpr uint64_t kSendAt = 300;
constexpr uint64_t kPassAt = 900;
constexpr uint64_t kReceiveAt = 700;

struct PassThrough {
  uint64_t units = kUnits;
  uint64_t recvAt = kPassAt;
  uint64_t regionOn = 1;
};

class MeshPassThroughTest : public ::testing::Test {
 protected:
  DecodedPacket send() {
    DecodedPacket p = f.make(0x17, 1u << kSource,
                             {{LleField::Mesh17SendStride, 1}, {LleField::Mesh17SendAt4, kSendAt}, {LleField::Mesh17SendLevelOn, 1},
                              {LleField::Mesh17SendFlags, 1}});
    f.setOneLevelSide(LleField::Mesh17SendLimit, LleField::Mesh17SendCarry, kUnits);
    return p;
  }
  DecodedPacket receive() {
    DecodedPacket p = f.make(0x17, 1u << kSink,
                             {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17At4, kReceiveAt}, {LleField::Fill17Step, 1}, {LleField::Fill17Flags, 1}});
    f.setOneLevelSide(LleField::Fill17Limit, LleField::Fill17Carry, kUnits);
    return p;
  }
  // The pass-through as the corpus's: strides 0, flags 1, run masks 0, both slots' marks 4 (0x17's receive slot is
  // Fill17Step: 4 << 4), one address and nest, no carries, the region on naming bus 5 (0x17's own).
  DecodedPacket passThrough(const PassThrough& q) {
    DecodedPacket p = f.make(0x17, kPassTiles,
                             {{LleField::Mesh17SendAt4, kPassAt}, {LleField::Fill17At4, q.recvAt}, {LleField::Mesh17SendRingMarks, 4},
                              {LleField::Fill17Step, 4u << 4}, {LleField::Mesh17SendFlags, 1}, {LleField::Fill17Flags, 1},
                              {LleField::Mesh17RegionOn, q.regionOn}, {LleField::Mesh17RegionMark, q.regionOn},
                              {LleField::Mesh17RegionLink, q.regionOn ? 5u : 0u}});
    f.setElement(LleField::Mesh17SendLimit, 0, q.units - 1);
    f.setElement(LleField::Fill17Limit, 0, q.units - 1);
    return p;
  }
  // Tile 1's units from kReceiveAt after the run, or the refusal.
  std::pair<std::vector<uint32_t>, std::string> run(const PassThrough& q, bool sendFirst = true) {
    LleRung rung(config);
    try {
      rung.beginRun();
      for (uint64_t k = 0; k < kUnits; ++k) rung.packet(f.fillUnit(kSource, kSendAt + k, 0x5a000000u + static_cast<uint32_t>(k * 7 + 1)), streams, 0);
      if (sendFirst) rung.packet(send(), streams, 0);
      rung.packet(passThrough(q), streams, 0);
      rung.packet(receive(), streams, 0);
    } catch (const models::ChipFault& e) {
      return {{}, e.what()};
    }
    std::vector<uint32_t> got;
    const AddressedMemory& sink = rung.tile(kSink).narrowSram;
    for (uint64_t k = 0; k < kUnits; ++k) {
      if (sink.firstUnwritten(4 * (kReceiveAt + k), 4)) return {got, "tile 1 unit " + std::to_string(kReceiveAt + k) + " unwritten"};
      const auto b = sink.read(4 * (kReceiveAt + k), 4);
      got.push_back(b[0] | (uint32_t{b[1]} << 8) | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24));
    }
    // The pass-through wrote nothing on its tiles.
    for (const unsigned t : {5u, 9u}) {
      if (!rung.tile(t).narrowSram.firstUnwritten(4 * kPassAt, 4 * kUnits)) return {got, "tile " + std::to_string(t) + " was written"};
    }
    return {got, ""};
  }

  models::ChipConfig config;
  EnvelopePackets f{0x400};
  EmptyStreams streams;
};

TEST_F(MeshPassThroughTest, TheFormIsBothSidesOffAndMarked) {
  const MeshLayout& m = *meshLayoutOf(0x17);
  const DecodedPacket p = passThrough({});
  EXPECT_EQ(checkEnvelope(p), "");
  EXPECT_TRUE(isMeshPassThroughForm(p.words, m));
  EXPECT_FALSE(meshPassThroughConflict(p.words, m, 0x17).has_value());
  EXPECT_EQ(meshPassThroughUnits(p.words, m), kUnits);
  EXPECT_FALSE(isMeshPassThroughForm(send().words, m));
  EXPECT_FALSE(isMeshPassThroughForm(receive().words, m));
}

TEST_F(MeshPassThroughTest, TheStreamSentTowardsItsTilesGoesOnToTheNextTileWhole) {
  const auto [got, refusal] = run({});
  ASSERT_EQ(refusal, "");
  const std::vector<uint32_t> want = {0x5a000001u, 0x5a000008u, 0x5a00000fu, 0x5a000016u, 0x5a00001du};
  EXPECT_EQ(got, want);
}

TEST_F(MeshPassThroughTest, AnotherLengthNoStreamAnotherAddressOrNoRegionIsRefused) {
  EXPECT_NE(run({.units = 4}).second.find("the mesh pass-through on tile 9 names 16 bytes (its nest), the stream sent towards it carries 20"),
            std::string::npos)
      << run({.units = 4}).second;
  EXPECT_NE(run({}, false).second.find("the mesh pass-through on tile 9: no stream was sent towards it"), std::string::npos)
      << run({}, false).second;
  EXPECT_NE(run({.recvAt = kPassAt + 1}).second.find("one address in 356 / 356"), std::string::npos) << run({.recvAt = kPassAt + 1}).second;
  EXPECT_NE(run({.regionOn = 0}).second.find("names its own bus 5"), std::string::npos) << run({.regionOn = 0}).second;
}

}  // namespace
}  // namespace coralsim::lle::lle_mesh_pass_through_test
