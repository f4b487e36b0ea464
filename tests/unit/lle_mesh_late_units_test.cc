// A mesh send's units that no packet had written when it was issued take what the same sync window writes there later
// (models/lle/lle_rung_mesh_late_units.cc; docs/decoding-log.md "halo" §A): the halo corners of the edgetpu test_data
// PoseNet 353 x 481, whose column exchange is issued before the row exchange that writes the neighbour's border. Here
// tile 0 sends its units 500-504 to tile 1 (a send-only 0x18, t + 1; received at 700-704) while 500, 502 and 504 are
// unwritten and 501 holds W; then tile 4 sends V0, V1 into tile 0's 500-501 (a 0x17, t - 4), an immediate fill writes Y
// at tile 0's 504 and X at tile 1's 703, and the tile fence (0x1a) ends the window. Before the fence 700 is unwritten
// (the send read it undefined, "convx"); after it 700 = V0 (written later in the window), 701 = W (written before the
// send: never re-read, though the 0x17 replaced it with V1), 702 unwritten (nothing wrote it), 703 = X (the receiving
// tile's own later write stands), 704 = Y. No corpus packet has these tiles, units or values. Without the change 700
// and 704 stay unwritten (by construction; not run against the old tree).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_mesh_late_units_test {
namespace {

using models::DecodedPacket;

constexpr uint64_t kSendAt = 500;
constexpr uint64_t kReceiveAt = 700;
constexpr uint64_t kUnits = 5;
constexpr uint32_t kW = 0x11223344u, kV0 = 0x0a0b0c0du, kV1 = 0x55667788u, kX = 0x01020304u, kY = 0x7f7e7d7cu;

class MeshLateUnitsTest : public ::testing::Test {
 protected:
  // Tile 0's send of its units 500-504 towards tile 1 (0x18: t + 1), and tile 1's receive of them at 700-704.
  DecodedPacket columnSend() {
    DecodedPacket p = f.make(0x18, 0x1, {{LleField::Mesh18SendStride, 1}, {LleField::Mesh18SendAt4, kSendAt}, {LleField::Mesh18SendLevelOn, 1},
                                         {LleField::Mesh18SendFlags, 1}});
    f.setOneLevelSide(LleField::Mesh18SendLimit, LleField::Mesh18SendCarry, kUnits);
    return p;
  }
  DecodedPacket columnReceive() {
    DecodedPacket p = f.make(0x18, 0x2, {{LleField::Mesh18RecvStride, 1}, {LleField::Mesh18RecvAt4, kReceiveAt}, {LleField::Mesh18RecvLevelOn, 1},
                                         {LleField::Mesh18Flags, 1}});
    f.setOneLevelSide(LleField::Mesh18RecvLimit, LleField::Mesh18RecvCarry, kUnits);
    return p;
  }
  // Tile 4's units 500-501 into tile 0's 500-501 (0x17: t - 4): tile 4's send, then tile 0's receive.
  DecodedPacket rowSend() {
    DecodedPacket p = f.make(0x17, 0x10, {{LleField::Mesh17SendStride, 1}, {LleField::Mesh17SendAt4, kSendAt}, {LleField::Mesh17SendLevelOn, 1},
                                          {LleField::Mesh17SendFlags, 1}});
    f.setOneLevelSide(LleField::Mesh17SendLimit, LleField::Mesh17SendCarry, 2);
    return p;
  }
  DecodedPacket rowReceive() {
    DecodedPacket p = f.make(0x17, 0x1, {{LleField::Mesh17RecvStride, 1}, {LleField::Fill17At4, kSendAt}, {LleField::Fill17Step, 1},
                                         {LleField::Fill17Flags, 1}});
    f.setOneLevelSide(LleField::Fill17Limit, LleField::Fill17Carry, 2);
    return p;
  }

  // Tile 1's units 700-704 after the window (nullopt: unwritten), with or without its fence.
  std::vector<std::optional<uint32_t>> run(bool fence) {
    LleRung rung(config);
    rung.beginRun();
    rung.packet(f.fillUnit(0, kSendAt + 1, kW), streams, 0);
    rung.packet(f.fillUnit(4, kSendAt, kV0), streams, 0);
    rung.packet(f.fillUnit(4, kSendAt + 1, kV1), streams, 0);
    rung.packet(columnSend(), streams, 0);
    rung.packet(columnReceive(), streams, 0);
    rung.packet(rowSend(), streams, 0);
    rung.packet(rowReceive(), streams, 0);
    rung.packet(f.fillUnit(0, kSendAt + 4, kY), streams, 0);
    rung.packet(f.fillUnit(1, kReceiveAt + 3, kX), streams, 0);
    if (fence) rung.packet(f.make(0x1a, 0xffff), streams, 0);
    std::vector<std::optional<uint32_t>> got;
    const AddressedMemory& m = rung.tile(1).narrowSram;
    for (uint64_t k = 0; k < kUnits; ++k) {
      const uint64_t at = 4 * (kReceiveAt + k);
      if (m.firstUnwritten(at, 4)) {
        got.emplace_back(std::nullopt);
        continue;
      }
      const auto b = m.read(at, 4);
      got.emplace_back(b[0] | (uint32_t{b[1]} << 8) | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24));
    }
    rung.endRun();
    return got;
  }

  models::ChipConfig config;
  EnvelopePackets f{0x400};
  EmptyStreams streams;
};

TEST_F(MeshLateUnitsTest, UnitsASendReadUnwrittenTakeWhatTheWindowWritesThereLaterAtItsFence) {
  const std::vector<std::optional<uint32_t>> before = run(false);
  const std::vector<std::optional<uint32_t>> wantBefore = {std::nullopt, kW, std::nullopt, kX, std::nullopt};
  EXPECT_EQ(before, wantBefore);
  const std::vector<std::optional<uint32_t>> after = run(true);
  const std::vector<std::optional<uint32_t>> wantAfter = {kV0, kW, std::nullopt, kX, kY};
  EXPECT_EQ(after, wantAfter);
}

}  // namespace
}  // namespace coralsim::lle::lle_mesh_late_units_test
