// The write that takes the read before it, run (models/lle/lle_rung_read_copy.cc; docs/decoding-log.md "mnv1c"): a read
// with the copy marks gathers its bytes along its nest, and the 0x14 next on its tiles -- the staging form with
// Stage14TakesTileRead, or the compute-feeding form with Stage14CopyInnerLevel (w0 bit 78) clear -- lays them along its
// own nest, unit k taking the read's bytes [4k, 4k + 4). Tiles 5 and 11, stream 3,005, a read of 3 x 4 units 10 units
// apart and a write of 2 x 6 units 8 apart: shapes no corpus pair has. Also the static side: in the compute-feeding form
// bit 78 clear means the copy of the read before it (no stream-prefix fields), and the watch asks for that read.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/chip/block_interfaces.h"
#include "models/chip_config.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/lle_rung.h"
#include "models/lle/read_copy_watch.h"
#include "tests/unit/lle_empty_streams.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_read_copy_run_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 5) | (1u << 11);
constexpr uint64_t kStream = 3005;
constexpr uint64_t kReadAt4 = 20;      // the read's first unit
constexpr uint64_t kWriteAt64 = 40;    // the write's first unit: 640
constexpr uint64_t kReadUnits = 12;    // 3 runs of 4 units, 10 apart

class ReadCopyRunTest : public ::testing::Test {
 protected:
  // A read routed by w3 bit 107 alone with the copy marks (w4 bits 35, 36, 38): 4 units a run, `runs` runs 10 apart.
  DecodedPacket read(uint64_t runs = 3) {
    DecodedPacket p = packets_.make(0x13, kTiles, {{LleField::Stage13Channel, kStream}, {LleField::Stage13RepeatSlot, 0},
                                                   {LleField::Stage13NarrowAt4, kReadAt4}, {LleField::Stage13Groups, 3},
                                                   {LleField::Stage13LoopOn, 1}, {LleField::Stage13Step, 1}});
    packets_.setElement(LleField::Stage13OuterLimit, 0, runs - 1);
    packets_.setElement(LleField::Stage13OuterOn, 0, runs > 1 ? 1 : 0);
    packets_.setElement(LleField::Stage13Wrap, 0, 10 - 3);  // the next run 10 units on
    auto& words = packets_.lastWords();
    const LleFieldDef& route = fieldDef(LleField::Stage13Route);
    words[route.lsb / 128].setBits(route.lsb % 128, 1, 0);
    words[(route.lsb + route.stride) / 128].setBits((route.lsb + route.stride) % 128, 1, 1);
    words[4].setBits(35, 1, 1);
    words[4].setBits(36, 1, 1);
    words[4].setBits(38, 1, 1);
    words[4].setBits(39, 1, 0);
    p.words = words;
    return p;
  }
  // The write: `groups` + 1 units a run, two runs 8 units apart. `feeds`: the compute-feeding form (bit 78 as given),
  // else the staging form with Stage14TakesTileRead.
  DecodedPacket write(uint64_t groups, bool feeds, uint64_t bit78 = 0) {
    DecodedPacket p = feeds ? packets_.make(0x14, kTiles, {{LleField::Stage14FeedsCompute, 1}, {LleField::Stage14RingStream, 1}})
                            : packets_.make(0x14, kTiles, {{LleField::Stage14TakesTileRead, 1}, {LleField::Stage14TakesDelivered, 0}});
    auto& words = packets_.lastWords();
    const auto set = [&](LleField field, uint64_t value) {
      const LleFieldDef& f = fieldDef(field);
      words[f.lsb / 128].setBits(f.lsb % 128, f.width, value);
    };
    set(LleField::Stage14CopyStream, kStream);
    set(LleField::Stage14CopyInnerLevel, bit78);
    set(LleField::Stage14NarrowAt64, kWriteAt64);
    set(LleField::Stage14NarrowUnit, 0);
    set(LleField::Stage14Groups, groups);
    set(LleField::Stage14LoopOn, 1);
    set(LleField::Stage14WrapA, 8 - groups);  // the second run 8 units on
    set(LleField::Stage14WrapC, (uint64_t{1} << 16) - (groups + 8));  // the return: minus the last unit ("wrap14")
    // The thermometer marks of the corpus's copies (0.75 192 @ 0x09aa / 0x0b7f: 1 with code 1, 3 with code 2; "dense").
    set(LleField::Stage14WordThreeMark, 1);
    set(LleField::Stage14WordThreeLevels, feeds ? 3 : 1);
    set(LleField::Stage14WordSixCode, feeds ? 2 : 1);
    packets_.setElement(LleField::Stage14OuterLimit, 0, 1);
    p.words = words;
    return p;
  }
  DecodedPacket fence() { return packets_.make(0x1a, 0); }
  // Fills units [kReadAt4, kReadAt4 + 30) of both tiles with a pattern (unit u holds 0x0101 * u + 0x10203), runs `packets`.
  std::string run(const std::vector<DecodedPacket>& packets, bool fill = true) {
    try {
      rung_.beginRun();
      if (fill) {
        for (uint64_t u = kReadAt4; u < kReadAt4 + 30; ++u) {
          rung_.packet(packets_.make(0x17, kTiles, {{LleField::Fill17Immediate, 1}, {LleField::Fill17Value, 0x0101 * u + 0x10203},
                                                    {LleField::Fill17At4, u}, {LleField::Mesh17RecvStride, 1}}),
                       streams_, 0);
        }
      }
      for (const DecodedPacket& p : packets) rung_.packet(p, streams_, 0);
    } catch (const models::ChipFault& e) {
      return e.what();
    }
    return "";
  }
  uint32_t unitAt(unsigned tile, uint64_t unit) {
    const auto bytes = rung_.tile(tile).narrowSram.read(unit * 4, 4);
    return static_cast<uint32_t>(bytes[0]) | static_cast<uint32_t>(bytes[1]) << 8 | static_cast<uint32_t>(bytes[2]) << 16 |
           static_cast<uint32_t>(bytes[3]) << 24;
  }
  void expectTheReadsUnitsAlongTheWrite() {
    // Read order: units 20-23, 30-33, 40-43; write order: units 640-645, 648-653.
    std::vector<uint64_t> from;
    for (uint64_t r = 0; r < 3; ++r) {
      for (uint64_t k = 0; k < 4; ++k) from.push_back(kReadAt4 + 10 * r + k);
    }
    std::vector<uint64_t> to;
    for (uint64_t r = 0; r < 2; ++r) {
      for (uint64_t k = 0; k < 6; ++k) to.push_back(kWriteAt64 * 16 + 8 * r + k);
    }
    for (const unsigned t : {5u, 11u}) {
      for (size_t i = 0; i < from.size(); ++i) {
        EXPECT_EQ(unitAt(t, to[i]), 0x0101 * from[i] + 0x10203) << "tile " << t << " unit " << to[i];
      }
      EXPECT_TRUE(rung_.tile(t).narrowSram.firstUnwritten(kWriteAt64 * 64 + 6 * 4, 2 * 4).has_value()) << "the gap stays unwritten";
    }
  }

  EnvelopePackets packets_{0x500};
  models::ChipConfig config_;
  LleRung rung_{config_};
  EmptyStreams streams_;
};

TEST_F(ReadCopyRunTest, TheStagingCopyLaysTheReadsBytesAlongItsNest) {
  EXPECT_EQ(run({read(), fence(), write(5, false)}), "");
  expectTheReadsUnitsAlongTheWrite();
}

TEST_F(ReadCopyRunTest, TheComputeFeedingCopyWithBit78ClearLaysThemTooAndHasNoPrefixFields) {
  const DecodedPacket copy = write(5, true, 0);
  EXPECT_FALSE(fieldPresent(LleField::Stage14StreamPrefixRun, copy.words));
  EXPECT_FALSE(fieldPresent(LleField::Stage14StreamPrefixWrap, copy.words));
  EXPECT_FALSE(fieldPresent(LleField::Stage14StreamPrefixArrays, copy.words));
  EXPECT_TRUE(takesTheReadBeforeIt(copy.words));
  EXPECT_EQ(run({read(), copy}), "");
  expectTheReadsUnitsAlongTheWrite();
  const DecodedPacket prefixed = write(5, true, 1);
  EXPECT_TRUE(fieldPresent(LleField::Stage14StreamPrefixRun, prefixed.words));
  EXPECT_FALSE(takesTheReadBeforeIt(prefixed.words));
}

TEST_F(ReadCopyRunTest, AWriteOfOtherUnitsThanTheReadOrAReadOfUnwrittenBytesIsRefused) {
  std::string why = run({read(), write(6, false)});  // 14 units for the read's 12
  EXPECT_NE(why.find("holds 48 bytes where the write nest writes 56"), std::string::npos) << why;
  why = run({read(), write(5, false)}, false);
  EXPECT_NE(why.find("which this run never wrote"), std::string::npos) << why;
}

TEST_F(ReadCopyRunTest, AReadWhoseWriteNeverCameDoesNotFeedTheNextRunsWrite) {
  EXPECT_EQ(run({read()}), "");  // the run ends (or is abandoned) between the read and its write
  const std::string why = run({write(5, false)});
  EXPECT_NE(why.find("holds no read of stream 3005"), std::string::npos) << why;
}

TEST_F(ReadCopyRunTest, TheWatchAsksBit78ClearExactlyWhereTheComputeFeedingWriteTakesTheMarkedRead) {
  {
    ReadCopyWatch watch;
    EXPECT_EQ(watch.observe(read()), "");
    EXPECT_EQ(watch.observe(write(5, true, 0)), "");
    EXPECT_EQ(watch.finish(), "");
  }
  {
    ReadCopyWatch watch;
    EXPECT_EQ(watch.observe(read()), "");
    const std::string why = watch.observe(write(5, true, 1));
    EXPECT_NE(why.find("Stage14CopyInnerLevel (word 0 bit 78) = 1 takes the copy-marked read of stream 3005"), std::string::npos) << why;
  }
  {
    ReadCopyWatch watch;
    const std::string why = watch.observe(write(5, true, 0));
    EXPECT_NE(why.find("= 0 does not take, on every one of its tiles, the copy-marked read"), std::string::npos) << why;
  }
}

}  // namespace
}  // namespace coralsim::lle::lle_read_copy_run_test
