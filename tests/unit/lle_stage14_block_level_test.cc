// The block level of a compute-feeding write (models/lle/stage14_block_level.h; docs/decoding-log.md "twice14"): its
// nest stages the prefix of the stream its compute takes -- level 0 over a part's units, a level over the prefix's
// parts one 64-unit row apart, and an outermost level of stride 0 counting the stream's blocks, each block's prefix
// over the last one's. Writes on tiles 6 and 11 (a mask no corpus 0x14 has) with 3 units a part (the corpus has 2, 8,
// 16, 24 and 32) and 5 or 7 blocks: the shape passes; a block level that is not the blocks, one that is not
// outermost, a part level that is not the parts or not one row a part, a write that is not compute-feeding are
// refused naming the level. Through the rung: after a three-array ring stream of 6 blocks the corpus's two-row
// shape is accepted and moves no byte; on main it was refused ("writes some units more than once, and not as a window").
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/stage14_block_level.h"
#include "models/lle/write_nest.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_stage14_block_level_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 6) | (1u << 11);
constexpr uint64_t kAt64 = 40;  // byte 2,560

class Stage14BlockLevelTest : public ::testing::Test {
 protected:
  // A compute-feeding write (`feeds`) naming `blocks` blocks and a run of `run` (its wraps -run), its nest's limits
  // and carries (WrapA, WrapB, WrapD, WrapE), the return carry to its first unit.
  DecodedPacket write(std::vector<uint64_t> limits, std::vector<int64_t> carries, uint64_t blocks, uint64_t run,
                      uint64_t feeds = 1, uint64_t arrays = 3) {
    DecodedPacket p = packets_.make(0x14, kTiles,
                                    {{LleField::Stage14FeedsCompute, feeds}, {LleField::Stage14StreamPrefixArrays, arrays},
                                     {LleField::Stage14StreamPrefixOn, arrays != 0}, {LleField::Stage14StreamPrefixBlocks, blocks - 1},
                                     {LleField::Stage14RingStream, 1}, {LleField::Stage14StreamPrefixRun, run},
                                     {LleField::Stage14NarrowAt64, kAt64}, {LleField::Stage14Groups, limits[0]},
                                     {LleField::Stage14LoopOn, 1}, {LleField::Stage14WordThreeMark, 1}, {LleField::Stage14SelectW4, 1}, {LleField::Stage14SelectW5, 1}});
    const LleFieldDef& wrap = fieldDef(LleField::Stage14StreamPrefixWrap);
    for (unsigned e = 0; e < wrap.count; ++e) packets_.setElement(LleField::Stage14StreamPrefixWrap, e, (0 - run) & ((1ull << wrap.width) - 1));
    for (unsigned i = 1; i < limits.size(); ++i) packets_.setElement(LleField::Stage14OuterLimit, i - 1, limits[i]);
    const std::array<LleField, 4> carry = {LleField::Stage14WrapA, LleField::Stage14WrapB, LleField::Stage14WrapD, LleField::Stage14WrapE};
    for (unsigned i = 0; i < carries.size(); ++i) packets_.setElement(carry[i], 0, static_cast<uint64_t>(carries[i]) & ((1ull << 17) - 1));
    const int64_t last = WriteNest::fromPacket(packets_.lastWords()).lastUnit();
    packets_.setElement(LleField::Stage14WrapC, 0, static_cast<uint64_t>(-last) & 0xffff);
    p.words = packets_.lastWords();
    return p;
  }
  static std::string problem(const DecodedPacket& p) { return stage14BlockLevelProblem(p.words, WriteNest::fromPacket(p.words)); }
  static void refused(const std::string& why, const std::string& expected) { EXPECT_NE(why.find(expected), std::string::npos) << why; }

  EnvelopePackets packets_{0x700};
};

// Two parts of 3 units one row apart (carry 64 - 2 = 62: stride 64), then 5 blocks back over them (carry -(2 + 64)).
TEST_F(Stage14BlockLevelTest, PartsOneRowApartThenTheBlocksAtStrideZeroPass) {
  const DecodedPacket p = write({2, 1, 4}, {62, -66}, 5, 1);
  const WriteNest nest = WriteNest::fromPacket(p.words);
  EXPECT_EQ(nest.strides[1], 64);
  EXPECT_EQ(nest.strides[2], 0);
  EXPECT_TRUE(nest.revisitsAUnit());
  EXPECT_EQ(problem(p), "");
  // One part (a one-array stream, run 0): level 0 and the blocks at level 1 (the window's shape), or at level 2.
  EXPECT_EQ(problem(write({2, 6}, {-2}, 7, 0, 1, 1)), "");
  EXPECT_EQ(problem(write({2, 0, 6}, {0, -2}, 7, 0, 1, 1)), "");
}

TEST_F(Stage14BlockLevelTest, OtherRevisitingNestsAreRefusedNamingTheLevel) {
  // The block level counts 5, the write names 4 or 6 blocks.
  refused(problem(write({2, 1, 4}, {62, -66}, 4, 1)), "stride-0 level 2 (5 counts, stride 0 units) is not the stream's 4 blocks");
  refused(problem(write({2, 1, 4}, {62, -66}, 6, 1)), "Stage14StreamPrefixBlocks (word 1 bits 15:0) = 5");
  // Three parts where the run says two; two parts 65 units apart.
  refused(problem(write({2, 2, 4}, {62, -130}, 5, 1)), "level 1 (3 counts, stride 64 units) below its block level is not the prefix's 2 parts");
  refused(problem(write({2, 1, 4}, {63, -67}, 5, 1)), "level 1 (2 counts, stride 65 units) below its block level");
  // The blocks below a level that moves on: the stride-0 level is not the outermost.
  refused(problem(write({2, 4, 1}, {-2, 64}, 5, 1)), "comes back to its units below its outermost counting level, level 2");
  // Two stride-0 levels: the outer one counts the blocks, the inner one comes back too.
  refused(problem(write({2, 1, 4}, {-2, -2}, 5, 1)), "levels below its block level 2 (5 counts, stride 0 units) come back to a unit");
  // The same nest in a write that does not feed a compute.
  refused(problem(write({2, 1, 4}, {62, -66}, 5, 1, 0)), "not a compute-feeding write");
}

// Through the rung: a three-array ring stream of 6 blocks (levels 2-3: 3 x 2), then the corpus's shape with 6 blocks.
TEST_F(Stage14BlockLevelTest, TheRungTakesTheBlockLevelAndMovesNoByte) {
  const auto run = [&](const DecodedPacket& staging) -> std::string {
    models::ChipConfig config;
    LleRung rung(config);
    EmptyStreams streams;
    rung.beginRun();
    try {
      DecodedPacket ring = packets_.make(0x12, kTiles, {{LleField::Recv12InnerLevel, 1}, {LleField::Recv12PrefixOn, 1},
                                                        {LleField::Recv12PrefixBytes8, 96}, {LleField::Recv12PrefixSpan8, 64}});
      packets_.setElement(LleField::Recv12Repeat, 1, 2);
      packets_.setElement(LleField::Recv12Repeat, 2, 1);
      ring.words = packets_.lastWords();
      rung.packet(ring, streams, 0);
      rung.packet(staging, streams, 0);
    } catch (const models::ChipFault& e) {
      return e.what();
    }
    for (const unsigned t : {6u, 11u}) {
      EXPECT_TRUE(rung.tile(t).narrowSram.firstUnwritten(kAt64 * 64, 4 * 130).has_value()) << "tile " << t;
    }
    return "";
  };
  EXPECT_EQ(run(write({2, 1, 5}, {62, -66}, 6, 1)), "");
  refused(run(write({2, 1, 4}, {62, -66}, 6, 1)), "is not the stream's 6 blocks");
}

}  // namespace
}  // namespace coralsim::lle::lle_stage14_block_level_test
