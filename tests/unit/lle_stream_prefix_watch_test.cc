// StreamPrefixWatch (models/lle/stream_prefix_watch.h; docs/decoding-log.md "prefix14" §B): a compute-feeding
// 0x14 stages the prefix of the weight stream the receive before it on its tiles armed -- its arrays (or 0)
// and the flag saying it holds them, the stream's output blocks - 1, and whether it comes over the ring (a
// 0x12) or from the host (a 0x11). Tiles 6 and 11 (a mask no corpus 0x14 has), a 0x12 with three prefix
// arrays and its levels 2-3 counting 3 x 2 blocks, a 0x11 with one array and 5 blocks (no corpus stream has
// either shape): the matching write passes on both tiles; every other value, a write after a receive on one
// tile only, a write after no stream and a stream with a part array are refused by field.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/lle/receive_kind.h"
#include "models/lle/stream_prefix_watch.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_stream_prefix_watch_test {
namespace {

using models::DecodedPacket;

class StreamPrefixWatchTest : public ::testing::Test {
 protected:
  DecodedPacket make(uint8_t op, uint16_t mask, const std::vector<std::pair<LleField, uint64_t>>& fields = {}) {
    return packets_.make(op, mask, fields);
  }
  // A 0x12 with its nest and 3 prefix arrays (Bytes8 96), output blocks at levels 2-3: 3 x 2.
  DecodedPacket ringStream(uint16_t mask, uint64_t bytes8 = 96) {
    return make(0x12, mask, {{LleField::Recv12InnerLevel, 1}, {LleField::Recv12PrefixOn, 1}, {LleField::Recv12PrefixBytes8, bytes8}});
  }
  DecodedPacket withBlocks(DecodedPacket p, LleField repeat, uint64_t level1, uint64_t level2) {
    auto& words = packets_.lastWords();
    const LleFieldDef& f = fieldDef(repeat);
    words[(f.lsb + f.stride) / 128].setBits((f.lsb + f.stride) % 128, f.width, level1);
    words[(f.lsb + 2 * f.stride) / 128].setBits((f.lsb + 2 * f.stride) % 128, f.width, level2);
    p.words = words;
    return p;
  }
  // A 0x11 stream with one prefix array (Bytes8 32) and 6 output blocks at level 2.
  DecodedPacket hostStream(uint16_t mask) {
    DecodedPacket p = make(0x11, mask, {{LleField::Recv11ExecutionForm, 1}, {LleField::Recv11ExecInnerLevel, 1},
                                        {LleField::Recv11PrefixOn, 1}, {LleField::Recv11PrefixBytes8, 32}});
    return withBlocks(p, LleField::Recv11ExecRepeat, 5, 0);
  }
  // `run`: the staged prefix's parts - 1 (docs/decoding-log.md "pair14b"), 1 after a three-array stream; its three
  // wraps -run.
  DecodedPacket write(uint16_t mask, uint64_t arrays, uint64_t on, uint64_t blocks, uint64_t ring, uint64_t run) {
    DecodedPacket p = make(0x14, mask, {{LleField::Stage14FeedsCompute, 1}, {LleField::Stage14StreamPrefixArrays, arrays},
                                        {LleField::Stage14StreamPrefixOn, on}, {LleField::Stage14StreamPrefixBlocks, blocks},
                                        {LleField::Stage14RingStream, ring}, {LleField::Stage14StreamPrefixRun, run}});
    setWraps(-static_cast<int64_t>(run));
    p.words = packets_.lastWords();
    return p;
  }
  // Every element of the last packet's Stage14StreamPrefixWrap (two's complement of its 17 bits).
  void setWraps(int64_t wrap) {
    const LleFieldDef& f = fieldDef(LleField::Stage14StreamPrefixWrap);
    for (unsigned e = 0; e < f.count; ++e) {
      const uint32_t lsb = f.lsb + e * f.stride;
      packets_.lastWords()[lsb / 128].setBits(lsb % 128, f.width, static_cast<uint64_t>(wrap) & ((1ull << f.width) - 1));
    }
  }
  std::string after(const DecodedPacket& receive, const DecodedPacket& staging) {
    StreamPrefixWatch watch;
    const std::string first = watch.observe(receive);
    if (!first.empty()) return "receive: " + first;
    EXPECT_EQ(watch.observe(make(0x1a, 0)), "");  // a fence moves no data
    return watch.observe(staging);
  }

 protected:
  EnvelopePackets packets_{0x80};
};

constexpr uint16_t kTiles = (1u << 6) | (1u << 11);

TEST_F(StreamPrefixWatchTest, AComputeFeedingWriteStagesThePrefixOfTheStreamBeforeIt) {
  const auto ring = [&] { return withBlocks(ringStream(kTiles), LleField::Recv12Repeat, 2, 1); };
  EXPECT_EQ(after(ring(), write(kTiles, 3, 1, 5, 1, 1)), "");
  EXPECT_EQ(after(ring(), write(kTiles, 0, 0, 5, 1, 1)), "");  // a copy that holds no arrays (the corpus's count 0)
  EXPECT_EQ(after(hostStream(kTiles), write(kTiles, 1, 1, 5, 0, 0)), "");
}

TEST_F(StreamPrefixWatchTest, OtherValuesAreRefusedNamingTheField) {
  const auto ring = [&] { return withBlocks(ringStream(kTiles), LleField::Recv12Repeat, 2, 1); };
  const auto refusal = [](const std::string& why, const std::string& expected) {
    EXPECT_NE(why.find(expected), std::string::npos) << why;
  };
  refusal(after(ring(), write(kTiles, 2, 1, 5, 1, 1)), "Stage14StreamPrefixArrays (word 1 bits 98:88) = 2 is neither 0 nor the stream's 3");
  refusal(after(ring(), write(kTiles, 3, 0, 5, 1, 1)), "Stage14StreamPrefixOn (word 1 bit 86) = 0 with Stage14StreamPrefixArrays");
  refusal(after(ring(), write(kTiles, 3, 1, 2, 1, 1)), "Stage14StreamPrefixBlocks (word 1 bits 15:0) = 2 is not the stream's 6 output blocks");
  refusal(after(ring(), write(kTiles, 3, 1, 5, 0, 1)), "Stage14RingStream (word 4 bit 103) = 0 where the stream comes over the weight ring");
  refusal(after(hostStream(kTiles), write(kTiles, 1, 1, 5, 1, 0)), "Stage14RingStream (word 4 bit 103) = 1 where the stream comes from the host");
  // The receive on tile 6 alone: tile 11's packet before the write is none.
  refusal(after(withBlocks(ringStream(1u << 6), LleField::Recv12Repeat, 2, 1), write(kTiles, 3, 1, 5, 1, 1)),
          "where no prefixed stream receive comes before it on tile 11");
  // A compute before it: no stream, so nothing may be described.
  refusal(after(make(0x01, kTiles), write(kTiles, 0, 0, 1, 0, 0)), "Stage14StreamPrefixBlocks (word 1 bits 15:0) = 1");
  EXPECT_EQ(after(make(0x01, kTiles), write(kTiles, 0, 0, 0, 0, 0)), "");
  // The bias form (Bytes8 = 32 x arrays + 1, "stride11"): its arrays and blocks as the whole form's (with its level 1
  // counting, TheBlocksCountTheReceivesLevelsFromTwoOrFromOneUp below); two units more is not decoded.
  EXPECT_EQ(after(withBlocks(ringStream(kTiles, 97), LleField::Recv12Repeat, 2, 1), write(kTiles, 3, 1, 5, 1, 1)), "");
  refusal(after(ringStream(kTiles, 98), write(kTiles, 3, 1, 0, 1, 1)), "3 arrays and 2 eight-byte units more");
}

// The stream's output blocks where its receive's level 1 counts (docs/decoding-log.md "bias14"): level 1 counts K parts
// (the blocks are levels 2-3) or output blocks (levels 1-3), and the receive alone does not say which, so the write's
// Stage14StreamPrefixBlocks may name either: here a host 0x11 in the bias form (Bytes8 33) whose levels 1-3 repeat
// 3 x 1 x 5 (no corpus receive has this nest): 5 blocks (levels 2-3) and 15 (levels 1-3) pass; 3 (level 1 alone),
// 4, 16 and 1 are refused naming both counts. The same for a whole-array 0x12 whose levels 1-3 repeat 4 x 1 x 2: 2
// and 8 blocks pass, 4 is refused. Where level 1 does not count, only levels 2-3. On main the bias form with its
// level 1 counting was refused whatever the write said, and a whole-array stream's write could not count level 1.
TEST_F(StreamPrefixWatchTest, TheBlocksCountTheReceivesLevelsFromTwoOrFromOneUp) {
  const auto refusal = [](const std::string& why, const std::string& expected) {
    EXPECT_NE(why.find(expected), std::string::npos) << why;
  };
  const auto biasHostStream = [&] {
    DecodedPacket p = make(0x11, kTiles, {{LleField::Recv11ExecutionForm, 1}, {LleField::Recv11ExecInnerLevel, 1},
                                          {LleField::Recv11PrefixOn, 1}, {LleField::Recv11PrefixBytes8, 33}});
    p = withBlocks(p, LleField::Recv11ExecRepeat, 0, 4);
    const LleFieldDef& f = fieldDef(LleField::Recv11ExecRepeat);
    packets_.lastWords()[f.lsb / 128].setBits(f.lsb % 128, f.width, 2);  // level 1: 3
    p.words = packets_.lastWords();
    return p;
  };
  EXPECT_EQ(after(biasHostStream(), write(kTiles, 1, 1, 4, 0, 0)), "");   // level 1 K parts: 5 blocks
  EXPECT_EQ(after(biasHostStream(), write(kTiles, 1, 1, 14, 0, 0)), "");  // level 1 blocks: 15
  EXPECT_EQ(after(biasHostStream(), write(kTiles, 0, 0, 14, 0, 0)), "");  // a copy that holds no arrays
  for (const uint64_t blocks : {uint64_t{2}, uint64_t{3}, uint64_t{15}, uint64_t{0}}) {
    refusal(after(biasHostStream(), write(kTiles, 1, 1, blocks, 0, 0)),
            "Stage14StreamPrefixBlocks (word 1 bits 15:0) = " + std::to_string(blocks) +
                " is not the stream's 5 output blocks - 1 (its receive's levels 2-3) nor its 15 (levels 1-3: level 1 counting blocks");
  }
  // A whole-array ring stream (three arrays) whose levels 1-3 repeat 4 x 1 x 2.
  const auto ring = [&] {
    DecodedPacket p = withBlocks(ringStream(kTiles), LleField::Recv12Repeat, 0, 1);
    const LleFieldDef& f = fieldDef(LleField::Recv12Repeat);
    packets_.lastWords()[f.lsb / 128].setBits(f.lsb % 128, f.width, 3);
    p.words = packets_.lastWords();
    return p;
  };
  EXPECT_EQ(after(ring(), write(kTiles, 3, 1, 1, 1, 1)), "");
  EXPECT_EQ(after(ring(), write(kTiles, 3, 1, 7, 1, 1)), "");
  refusal(after(ring(), write(kTiles, 3, 1, 3, 1, 1)), "is not the stream's 2 output blocks - 1 (its receive's levels 2-3) nor its 8");
  // Level 1 idle: levels 2-3 alone, no second reading offered.
  const auto flat = [&] { return withBlocks(ringStream(kTiles), LleField::Recv12Repeat, 0, 1); };
  EXPECT_EQ(after(flat(), write(kTiles, 3, 1, 1, 1, 1)), "");
  const std::string flatWhy = after(flat(), write(kTiles, 3, 1, 3, 1, 1));
  refusal(flatWhy, "is not the stream's 2 output blocks - 1 (its receive's levels 2-3) on tile");
}

// The staged prefix's run (docs/decoding-log.md "pair14b"): its parts - 1, where the bias array is one part and the
// scale / offset pair another -- ceil(arrays / 2) - 1 -- and its wraps -run. Streams no corpus program has: a host
// 0x11 with two arrays (the corpus's two-array streams are 0x12s), a 0x12 with one array and 6 blocks, the
// three-array ring stream on tiles 6 and 11.
TEST_F(StreamPrefixWatchTest, TheWritesRunCountsTheStreamPrefixsPartsAndItsWrapsReturnToTheFirst) {
  const auto refusal = [](const std::string& why, const std::string& expected) {
    EXPECT_NE(why.find(expected), std::string::npos) << why;
  };
  const auto ring = [&](uint64_t bytes8) { return withBlocks(ringStream(kTiles, bytes8), LleField::Recv12Repeat, 2, 1); };
  const auto twoArrayHostStream = [&] {
    DecodedPacket p = make(0x11, kTiles, {{LleField::Recv11ExecutionForm, 1}, {LleField::Recv11ExecInnerLevel, 1},
                                          {LleField::Recv11PrefixOn, 1}, {LleField::Recv11PrefixBytes8, 64}});
    return withBlocks(p, LleField::Recv11ExecRepeat, 5, 0);
  };
  // Three arrays (bias; scale and offset): two parts, run 1.
  EXPECT_EQ(after(ring(96), write(kTiles, 3, 1, 5, 1, 1)), "");
  refusal(after(ring(96), write(kTiles, 3, 1, 5, 1, 0)),
          "Stage14StreamPrefixRun (word 0 bits 110:95) = 0 is not the stream's prefix parts - 1 (1: ceil(3 arrays / 2) - 1");
  refusal(after(ring(96), write(kTiles, 3, 1, 5, 1, 2)), "Stage14StreamPrefixRun (word 0 bits 110:95) = 2 is not");
  // Two arrays (the scale / offset pair) and one (the bias): one part, run 0.
  EXPECT_EQ(after(twoArrayHostStream(), write(kTiles, 2, 1, 5, 0, 0)), "");
  refusal(after(twoArrayHostStream(), write(kTiles, 2, 1, 5, 0, 1)), "(0: ceil(2 arrays / 2) - 1");
  EXPECT_EQ(after(ring(32), write(kTiles, 1, 1, 5, 1, 0)), "");
  refusal(after(ring(32), write(kTiles, 1, 1, 5, 1, 1)), "(0: ceil(1 arrays / 2) - 1");
  // The run follows the stream, not the arrays the write holds (the corpus's count-0 copies after three arrays).
  EXPECT_EQ(after(ring(96), write(kTiles, 0, 0, 5, 1, 1)), "");
  // After no stream the run is 0 too.
  refusal(after(make(0x01, kTiles), write(kTiles, 0, 0, 0, 0, 1)),
          "Stage14StreamPrefixRun (word 0 bits 110:95) = 1) where no prefixed stream receive comes before it");

  // The wraps: -run at each of the three levels above it (lle_relations.def); a run of 0 never wraps.
  const auto relations = [&](uint64_t run, int64_t wrap, unsigned element) {
    (void)write(kTiles, 3, 1, 5, 1, run);  // its words are the last made
    const LleFieldDef& f = fieldDef(LleField::Stage14StreamPrefixWrap);
    const uint32_t lsb = f.lsb + element * f.stride;
    packets_.lastWords()[lsb / 128].setBits(lsb % 128, f.width, static_cast<uint64_t>(wrap) & ((1ull << f.width) - 1));
    return checkFieldRelations(0x14, packets_.lastWords());
  };
  EXPECT_EQ(relations(1, -1, 0), "");
  EXPECT_EQ(relations(5, -5, 2), "");
  refusal(relations(1, 0, 0), "Stage14StreamPrefixWrap[0]");
  refusal(relations(1, -2, 1), "Stage14StreamPrefixWrap[1]");
  refusal(relations(5, -1, 2), "Stage14StreamPrefixWrap[2]");
  // Only in the compute-feeding form: elsewhere the bits are the partner copy's, compared with the receive.
  DecodedPacket copy = make(0x14, kTiles, {{LleField::Stage14FeedsCompute, 0}, {LleField::Stage14CopyLimit, 1}});
  EXPECT_EQ(checkFieldRelations(0x14, copy.words), "");
  EXPECT_NE(checkEnvelope(copy, EnvelopeSet::kShipped), "");  // pinned there, as before
}

// After a read kept for the compute (a 0x13 routed 0, 0; docs/decoding-log.md "soft14" §A) the compute-feeding write's
// blocks slot restates the read's level-1 limit: a read whose level 1 counts 6 times (Stage13OuterLimit[0] = 5; the
// corpus's kept reads count it once or twice) passes with 5 and is refused with 4, 0 or 6, with any prefix array,
// ring mark or run; a sent read (routed 1, 1) with the same level 1 is no kept read: its write must describe nothing.
// On main every write with a blocks slot not 0 after a 0x13 was refused ("no prefixed stream").
TEST_F(StreamPrefixWatchTest, AfterAKeptReadTheBlocksSlotRestatesTheReadsLevelOneLimit) {
  const auto kept = [&] { return make(0x13, kTiles, {{LleField::Stage13OuterLimit, 5}}); };
  const auto refusal = [](const std::string& why, const std::string& expected) {
    EXPECT_NE(why.find(expected), std::string::npos) << why;
  };
  EXPECT_EQ(after(kept(), write(kTiles, 0, 0, 5, 0, 0)), "");
  for (const uint64_t blocks : {0u, 4u, 6u}) {
    refusal(after(kept(), write(kTiles, 0, 0, blocks, 0, 0)),
            "restates the read's level-1 limit (Stage13OuterLimit[0] (word 1 bits 15:0) = 5) and describes no stream prefix, but holds "
            "Stage14StreamPrefixBlocks (word 1 bits 15:0) = " + std::to_string(blocks));
  }
  refusal(after(kept(), write(kTiles, 1, 1, 5, 0, 0)), "Stage14StreamPrefixArrays (word 1 bits 98:88) = 1");
  refusal(after(kept(), write(kTiles, 0, 0, 5, 1, 0)), "Stage14RingStream (word 4 bit 103) = 1");
  refusal(after(kept(), write(kTiles, 0, 0, 5, 0, 1)), "Stage14StreamPrefixRun (word 0 bits 110:95) = 1");
  DecodedPacket sent = make(0x13, kTiles, {{LleField::Stage13OuterLimit, 5}, {LleField::Stage13Route, 1}});
  const LleFieldDef& route = fieldDef(LleField::Stage13Route);
  packets_.lastWords()[(route.lsb + route.stride) / 128].setBits((route.lsb + route.stride) % 128, 1, 1);
  sent.words = packets_.lastWords();
  refusal(after(sent, write(kTiles, 0, 0, 5, 0, 0)), "where no prefixed stream receive comes before it");
}

}  // namespace
}  // namespace coralsim::lle::lle_stream_prefix_watch_test

namespace coralsim::lle::lle_stream_prefix_watch_test {
namespace {

// After no prefixed stream and no kept read (a compute before it; docs/decoding-log.md "nin14") a compute-feeding write
// may name blocks: it stages a prefix a block over one place (its nest's outermost counting level of stride 0 counts
// them) and the compute after it counts as many output positions (ComputeOut37Limit2) and takes a prefix. Made-up
// shape: tiles 6 and 11, level 0 over 3 units (the corpus's writes: 2), level 2 counting 5 blocks at stride 0 (corpus:
// 3, 11, 16): passes with a compute of 5 positions and a bias prefix; a compute of 4 positions or without a prefix, a
// write whose block level moves (stride 1), whose level counts 6 against 5 blocks, or that names a ring or a run, are
// refused naming the field. On main every such write was refused ("no prefixed stream receive comes before it").
class BlockPrefixWriteTest : public StreamPrefixWatchTest {
 protected:
  static constexpr uint64_t kWrap17 = (1u << 17) - 1;  // -1 in a 17-bit wrap
  // Level 0 three units, level 1 idle (its carry 63: the next 256-byte row), level 2 counting `level2` + 1 with
  // carry `carry2` (-2: stride 0 over the three units).
  DecodedPacket stagedPrefix(uint64_t blocks, uint64_t level2, uint64_t carry2, uint64_t ring = 0, uint64_t run = 0) {
    DecodedPacket p = make(0x14, kTiles, {{LleField::Stage14FeedsCompute, 1}, {LleField::Stage14StreamPrefixBlocks, blocks},
                                          {LleField::Stage14RingStream, ring}, {LleField::Stage14StreamPrefixRun, run},
                                          {LleField::Stage14Groups, 2}, {LleField::Stage14WrapA, 63}, {LleField::Stage14WrapB, carry2}});
    const LleFieldDef& limit = fieldDef(LleField::Stage14OuterLimit);
    packets_.lastWords()[(limit.lsb + limit.stride) / 128].setBits((limit.lsb + limit.stride) % 128, limit.width, level2);
    p.words = packets_.lastWords();
    return p;
  }
  // `staged`: ComputeStagedPrefix (w12 bit 83), set by every corpus compute after such a write.
  DecodedPacket compute(uint64_t positions, uint64_t prefix, uint64_t staged = 1) {
    return make(0x01, kTiles, {{LleField::ComputeOut37Limit2, positions}, {LleField::ComputeParamPrefix, prefix},
                               {LleField::ComputeStagedPrefix, staged}});
  }
  // After a receive of the write's stream carrying its blocks' prefixes: the write names one array (and the ring
  // after a 0x12).
  DecodedPacket streamedPrefix(uint64_t blocks, uint64_t tag, uint64_t arrays, uint64_t ring) {
    DecodedPacket p = stagedPrefix(blocks, 4, kWrap17 - 1, ring);
    const std::pair<LleField, uint64_t> more[] = {{LleField::Stage14FeedTag, tag}, {LleField::Stage14StreamPrefixArrays, arrays},
                                                  {LleField::Stage14StreamPrefixOn, arrays != 0 ? 1u : 0u}};
    for (const auto& [field, value] : more) {
      const LleFieldDef& f = fieldDef(field);
      packets_.lastWords()[f.lsb / 128].setBits(f.lsb % 128, f.width, value);
    }
    p.words = packets_.lastWords();
    return p;
  }
  std::string sequence(const DecodedPacket& write, const DecodedPacket& next, const DecodedPacket* before = nullptr) {
    StreamPrefixWatch watch;
    EXPECT_EQ(watch.observe(before ? *before : make(0x01, kTiles)), "");  // the packet before: no prefixed stream
    if (std::string why = watch.observe(write); !why.empty()) return "write: " + why;
    return watch.observe(next);
  }
};

TEST_F(BlockPrefixWriteTest, AfterAComputeAWriteStagesAPrefixABlockForTheComputeAfterIt) {
  const auto refusal = [](const std::string& why, const std::string& expected) {
    EXPECT_NE(why.find(expected), std::string::npos) << why;
  };
  EXPECT_EQ(sequence(stagedPrefix(4, 4, kWrap17 - 1), compute(4, 1)), "");
  EXPECT_EQ(sequence(stagedPrefix(4, 4, kWrap17 - 1), compute(4, 2)), "");
  refusal(sequence(stagedPrefix(4, 4, kWrap17 - 1), compute(3, 1)),
          "ComputeOut37Limit2 (word 5 bits 99:82) = 3 does not count the 5 blocks the write before it staged a prefix for");
  refusal(sequence(stagedPrefix(4, 4, kWrap17 - 1), compute(4, 0)), "ComputeParamPrefix = 0 after a write that staged a prefix");
  refusal(sequence(stagedPrefix(4, 4, kWrap17 - 1), compute(4, 1, 0)),
          "ComputeStagedPrefix (word 12 bit 83) = 0 after a write that staged a prefix for each of its 5 blocks");
  refusal(sequence(stagedPrefix(4, 4, 0), compute(4, 1)), "write: opcode 0x14");           // level 2 moves: no block level
  refusal(sequence(stagedPrefix(4, 5, kWrap17 - 1), compute(4, 1)), "is not the stream's 5 blocks");
  refusal(sequence(stagedPrefix(4, 4, kWrap17 - 1, 1), compute(4, 1)), "Stage14RingStream (word 4 bit 103) = 1 where no prefixed stream");
  refusal(sequence(stagedPrefix(4, 4, kWrap17 - 1, 0, 1), compute(4, 1)), "Stage14StreamPrefixRun (word 0 bits 110:95) = 1 where no prefixed stream");
}

// ComputeStagedPrefix (w12 bit 83) says the compute takes the prefix a write staged a block at a time
// (docs/decoding-log.md "misc"): set where no such write came before it on a tile (after a plain write naming no
// block, or after none), it is refused by name; clear after no such write it passes as before.
TEST_F(BlockPrefixWriteTest, AStagedPrefixComputeWithoutAWriteStagingOneIsRefused) {
  const std::string noBlock = sequence(stagedPrefix(0, 0, 0), compute(0, 2, 1));
  EXPECT_NE(noBlock.find("ComputeStagedPrefix (word 12 bit 83) = 1 on tile 6 where no write before it staged a prefix a block"),
            std::string::npos)
      << noBlock;
  StreamPrefixWatch watch;
  EXPECT_NE(watch.observe(compute(0, 1, 1)).find("ComputeStagedPrefix"), std::string::npos);
  EXPECT_EQ(sequence(stagedPrefix(0, 0, 0), compute(0, 2, 0)), "");
}

}  // namespace
}  // namespace coralsim::lle::lle_stream_prefix_watch_test

namespace coralsim::lle::lle_stream_prefix_watch_test {
namespace {

// The prefixes streamed just before the write (docs/decoding-log.md "nin14": ensemble, the co-compiled MobileNets): an
// execution-only 0x11 without its nest, or a 0x12 without it, of the write's stream tag (777: no corpus stream has it),
// whose run is the write's blocks - 1 (4). The write names one array, the ring exactly after the 0x12: passes; blocks 3
// against run 4, no array, the ring after the 0x11 or none after the 0x12 refused naming the field. A write of another
// tag after the receive is refused: the receive's kind code says the write after it takes its block prefixes.
TEST_F(BlockPrefixWriteTest, AfterAReceiveOfItsStreamTheWriteNamesOneArrayAndTheReceivesRunAsItsBlocks) {
  const auto refusal = [](const std::string& why, const std::string& expected) {
    EXPECT_NE(why.find(expected), std::string::npos) << why;
  };
  // Both carry the block-prefix kind code (48, receive_kind.h; the 0x11 with w2 bit 106 set, as every corpus one).
  const DecodedPacket host = make(0x11, kTiles, {{LleField::Recv11ExecutionForm, 1}, {LleField::Recv11ExecStream, 777}, {LleField::Recv11ExecRun, 4},
                                                 {LleField::Recv11ExecWideValue, 1}, {LleField::Recv11ExecKind, kReceiveKindBlockPrefixes}});
  const DecodedPacket ring = make(0x12, kTiles, {{LleField::Recv12Stream, 777}, {LleField::Recv12Run, 4}, {LleField::Recv12Kind, kReceiveKindBlockPrefixes}});
  EXPECT_EQ(sequence(streamedPrefix(4, 777, 1, 0), compute(4, 2), &host), "");
  EXPECT_EQ(sequence(streamedPrefix(4, 777, 1, 1), compute(4, 1), &ring), "");
  refusal(sequence(streamedPrefix(3, 777, 1, 0), compute(3, 1), &host),
          "Stage14StreamPrefixBlocks (word 1 bits 15:0) = 3 is not the receive's Recv11ExecRun (word 0 bits 110:95) = 4");
  refusal(sequence(streamedPrefix(4, 777, 0, 0), compute(4, 1), &host), "Stage14StreamPrefixArrays (word 1 bits 98:88) = 0 after a 0x11 receive");
  refusal(sequence(streamedPrefix(4, 777, 1, 1), compute(4, 1), &host), "Stage14RingStream (word 4 bit 103) = 1 after a 0x11 receive");
  refusal(sequence(streamedPrefix(4, 777, 1, 0), compute(4, 1), &ring), "Stage14RingStream (word 4 bit 103) = 0 after a 0x12 receive");
  refusal(sequence(streamedPrefix(4, 777, 1, 0), compute(3, 1), &host), "ComputeOut37Limit2 (word 5 bits 99:82) = 3 does not count the 5 blocks");
  // A write of another tag after it: the block-prefix receive (its kind code 48) is taken by no write ("mnv1d" §A).
  refusal(sequence(streamedPrefix(4, 778, 1, 0), compute(4, 1), &host), "no such write of its stream");
}

}  // namespace
}  // namespace coralsim::lle::lle_stream_prefix_watch_test

namespace coralsim::lle::lle_stream_prefix_watch_test {
namespace {

// The receives' kind code (receive_kind.h, lle_fields.def Recv11ExecKind / Recv12Kind; docs/decoding-log.md "mnv1d"
// §A), made-up receives of tag 777 on tiles 6 and 11 (run 4; no corpus receive has the tag). 48 says the receive
// carries the block prefixes of the compute-feeding write after it: that write passes after it; the same write after
// the same receive with the stream code (4) is refused naming the code, as is a kind-48 receive followed by a compute
// or by a write of another tag. The code must fit the receive's own form: 44 exactly where the 0x11's w2 bit 106 is
// clear, 48 not in a receive arming a prefixed stream, 4 not in a 0x12 without its nest, and no other value.
TEST_F(BlockPrefixWriteTest, TheReceivesKindCodeSaysWhereItsTransfersGo) {
  const auto refusal = [](const std::string& why, const std::string& expected) {
    EXPECT_NE(why.find(expected), std::string::npos) << why;
  };
  const auto host = [&](uint64_t kind, uint64_t wide = 1, uint64_t inner = 0, uint64_t prefixOn = 0) {
    return make(0x11, kTiles, {{LleField::Recv11ExecutionForm, 1}, {LleField::Recv11ExecStream, 777}, {LleField::Recv11ExecRun, 4},
                               {LleField::Recv11ExecWideValue, wide}, {LleField::Recv11ExecKind, kind},
                               {LleField::Recv11ExecInnerLevel, inner}, {LleField::Recv11PrefixOn, prefixOn},
                               {LleField::Recv11PrefixBytes8, prefixOn != 0 ? 32u : 0u}});
  };
  const auto ring = [&](uint64_t kind, uint64_t inner = 0) {
    return make(0x12, kTiles, {{LleField::Recv12Stream, 777}, {LleField::Recv12Run, 4}, {LleField::Recv12Kind, kind},
                               {LleField::Recv12InnerLevel, inner}, {LleField::Recv12Step, inner}});
  };
  const DecodedPacket blockHost = host(kReceiveKindBlockPrefixes);
  EXPECT_EQ(sequence(streamedPrefix(4, 777, 1, 0), compute(4, 2), &blockHost), "");
  const DecodedPacket streamHost = host(kReceiveKindStream);
  refusal(sequence(streamedPrefix(4, 777, 1, 0), compute(4, 2), &streamHost),
          "Recv11ExecKind (word 2 bits 87:81) = 4 does not say block prefixes (48)");
  const DecodedPacket streamRing = ring(kReceiveKindStream, 1);
  refusal(sequence(streamedPrefix(4, 777, 1, 1), compute(4, 1), &streamRing), "Recv12Kind (word 2 bits 87:81) = 4 does not say block prefixes");
  // A kind-48 receive must be taken by the write next on its tiles.
  {
    StreamPrefixWatch watch;
    EXPECT_EQ(watch.observe(host(kReceiveKindBlockPrefixes)), "");
    EXPECT_EQ(watch.observe(make(0x1a, 0)), "");  // a fence moves no data
    refusal(watch.observe(compute(4, 1, 0)), "its kind code says it carries the block prefixes of the compute-feeding write after it");
  }
  {
    StreamPrefixWatch watch;
    EXPECT_EQ(watch.observe(ring(kReceiveKindBlockPrefixes)), "");
    refusal(watch.observe(streamedPrefix(4, 778, 1, 1)), "(Recv12Kind (word 2 bits 87:81) = 48), but the next packet on tile 6 is opcode 0x14");
  }
  // The code against the receive's own form.
  const auto alone = [&](const DecodedPacket& p) {
    StreamPrefixWatch watch;
    return watch.observe(p);
  };
  EXPECT_EQ(alone(host(kReceiveKindWaitRows, 0)), "");
  EXPECT_EQ(alone(host(kReceiveKindStream, 1, 1)), "");
  refusal(alone(host(kReceiveKindStream, 0)), "Recv11ExecKind (word 2 bits 87:81) = 4 where Recv11ExecWideValue is 0");
  refusal(alone(host(kReceiveKindWaitRows, 1)), "Recv11ExecKind (word 2 bits 87:81) = 44 is the wait-rows form's code");
  refusal(alone(host(kReceiveKindBlockPrefixes, 1, 1, 1)), "= 48 (block prefixes for the write after it) in a receive that arms a prefixed");
  refusal(alone(host(12)), "Recv11ExecKind (word 2 bits 87:81) = 12: the receive kinds decoded are");
  refusal(alone(ring(kReceiveKindStream, 0)), "Recv12Kind (word 2 bits 87:81) = 4 (a stream) in a 0x12 without its loop nest");
}

}  // namespace
}  // namespace coralsim::lle::lle_stream_prefix_watch_test
