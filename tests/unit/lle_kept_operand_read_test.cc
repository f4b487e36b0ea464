// The kept-operand read (models/lle/kept_operand_read.h; docs/decoding-log.md "trk15" §C): a read routed (0, 1) marked
// Stage13TakenByCompute and Stage13FeedsReduction whose taker is the next compute on each of its tiles, naming its
// channel with 16-bit weights. Tiles 5 and 11, stream 3,001 -- a mask and tag no corpus read has (the trackers' reads
// are one a tile, streams 2,077 / 2,080).
#include <gtest/gtest.h>

#include <vector>

#include "models/lle/kept_operand_read.h"
#include "models/lle/lle_fields.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_kept_operand_read_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 5) | (1u << 11);
constexpr uint64_t kStream = 3001;

class KeptOperandReadTest : public ::testing::Test {
 protected:
  DecodedPacket read(uint64_t feedsReduction) {
    DecodedPacket p = packets_.make(0x13, kTiles,
                                    {{LleField::Stage13Channel, kStream}, {LleField::Stage13NarrowAt4, 77}, {LleField::Stage13RepeatSlot, 0},
                                     {LleField::Stage13FeedsReduction, feedsReduction}});
    const LleFieldDef& route = fieldDef(LleField::Stage13Route);
    auto& words = packets_.lastWords();
    words[route.lsb / 128].setBits(route.lsb % 128, 1, 0);
    words[(route.lsb + route.stride) / 128].setBits((route.lsb + route.stride) % 128, 1, 1);
    words[4].setBits(35, 1, 1);  // Stage13TakenByCompute
    words[4].setBits(39, 1, 0);  // Stage13LeavesTile
    return p;
  }
  DecodedPacket compute(uint16_t mask, uint64_t tag, uint64_t wide) {
    return packets_.make(0x01, mask, {{LleField::ComputeStreamTag, tag}, {LleField::ComputeWideWeights, wide}});
  }

  EnvelopePackets packets_{0x200};
};

TEST_F(KeptOperandReadTest, TheNextComputeOnEveryTileNamingItsChannelWithWideWeightsTakesIt) {
  const std::vector<DecodedPacket> program = {read(1), packets_.make(0x17, 1u << 2), compute(1u << 5, kStream, 1), compute(1u << 11, kStream, 1),
                                              compute(kTiles, 9, 0)};
  EXPECT_TRUE(nextComputeTakesKeptOperand(program, 0));
  // The later compute on both tiles (another stream) is not the taker: the first on each tile is.
  const std::vector<DecodedPacket> both = {read(1), compute(kTiles, kStream, 1)};
  EXPECT_TRUE(nextComputeTakesKeptOperand(both, 0));
}

TEST_F(KeptOperandReadTest, AnotherMarkStreamWeightWidthOrAMissingTakerIsNotTheForm) {
  EXPECT_FALSE(nextComputeTakesKeptOperand(std::vector<DecodedPacket>{read(0), compute(kTiles, kStream, 1)}, 0));  // no reduction mark
  EXPECT_FALSE(nextComputeTakesKeptOperand(std::vector<DecodedPacket>{read(1), compute(1u << 5, kStream, 1), compute(1u << 11, kStream + 1, 1)}, 0));
  EXPECT_FALSE(nextComputeTakesKeptOperand(std::vector<DecodedPacket>{read(1), compute(kTiles, kStream, 0)}, 0));  // one-byte weights
  EXPECT_FALSE(nextComputeTakesKeptOperand(std::vector<DecodedPacket>{read(1), compute(1u << 5, kStream, 1)}, 0));  // tile 11: none after
  EXPECT_FALSE(nextComputeTakesKeptOperand(std::vector<DecodedPacket>{compute(kTiles, kStream, 1)}, 0));  // not a read
}

}  // namespace
}  // namespace coralsim::lle::lle_kept_operand_read_test
