// The receives' forward marks (models/lle/forward_marks.h; lle_fields.def Recv12Forward, Recv11ExecForward,
// w1[85:83]; docs/decoding-log.md "fwd12"): one mark a wrap of the receive's nest, set exactly where that wrap is +1.
// A weight-stream 0x12 and an execution-only 0x11 on tiles 2 and 9 with a run of 17 (voice_commands' marked 0x12s
// run 18, the MobileNet v2 0x11s 16): a marked +1 wrap at an idle level passes the envelope and the relations (on
// main the relation refused it: "Recv12Wrap[0] = 1 is not -1 x Recv12Run"); a mark without its +1 wrap, a +1 wrap
// without its mark, and a marked level that counts are refused naming the fields.
#include <gtest/gtest.h>

#include <string>

#include "models/lle/field_relations.h"
#include "models/lle/forward_marks.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "tests/unit/lle_envelope_packets.h"

namespace coralsim::lle::lle_receive_forward_marks_test {
namespace {

using models::DecodedPacket;

constexpr uint16_t kTiles = (1u << 2) | (1u << 9);
constexpr uint64_t kRun = 17;
constexpr uint64_t kWrapWidthMask = (uint64_t{1} << 17) - 1;

struct NestFields {
  LleField inner, run, repeat, wrap, step, mark;
};
constexpr NestFields kStream{LleField::Recv12InnerLevel, LleField::Recv12Run,  LleField::Recv12Repeat,
                             LleField::Recv12Wrap,       LleField::Recv12Step, LleField::Recv12Forward};
constexpr NestFields kExecution{LleField::Recv11ExecInnerLevel, LleField::Recv11ExecRun,  LleField::Recv11ExecRepeat,
                                LleField::Recv11ExecWrap,       LleField::Recv11ExecStep, LleField::Recv11ExecForward};

class ReceiveForwardMarksTest : public ::testing::TestWithParam<bool> {
 protected:
  const NestFields& nest() const { return GetParam() ? kStream : kExecution; }
  uint8_t opcode() const { return GetParam() ? 0x12 : 0x11; }

  // A receive with its nest: run kRun, level 1 repeated `repeat0` times more, levels 2-3 idle, wraps -run but element
  // 0's `wrap0`, marks as given.
  DecodedPacket receive(int64_t wrap0, uint64_t mark0, uint64_t repeat0 = 0) {
    std::vector<std::pair<LleField, uint64_t>> fields{{nest().inner, 1}, {nest().run, kRun}, {nest().step, 1}};
    if (!GetParam()) fields.emplace_back(LleField::Recv11ExecutionForm, 1);
    DecodedPacket p = packets_.make(opcode(), kTiles, fields);
    packets_.setElement(nest().repeat, 0, repeat0);
    packets_.setElement(nest().wrap, 0, static_cast<uint64_t>(wrap0) & kWrapWidthMask);
    for (unsigned i = 1; i < 3; ++i) packets_.setElement(nest().wrap, i, static_cast<uint64_t>(-static_cast<int64_t>(kRun)) & kWrapWidthMask);
    packets_.setElement(nest().mark, 0, mark0);
    p.words = packets_.lastWords();
    return p;
  }
  static void refused(const std::string& why, const std::string& expected) {
    EXPECT_NE(why.find(expected), std::string::npos) << why;
  }

  EnvelopePackets packets_{0x300};
};

TEST_P(ReceiveForwardMarksTest, AMarkedForwardWrapAtAnIdleLevelPassesAndAnUnmarkedReturnStill) {
  const DecodedPacket marked = receive(1, 1);
  EXPECT_EQ(forwardMarksProblem(opcode(), marked.words), "");
  EXPECT_TRUE(isForwardMarkedWrap(nest().wrap, 0, marked.words));
  EXPECT_FALSE(isForwardMarkedWrap(nest().wrap, 1, marked.words));
  EXPECT_EQ(checkEnvelope(marked), "") << checkEnvelope(marked);
  const DecodedPacket plain = receive(-static_cast<int64_t>(kRun), 0, 3);
  EXPECT_EQ(checkEnvelope(plain), "") << checkEnvelope(plain);
}

TEST_P(ReceiveForwardMarksTest, AMarkAndAWrapThatDisagreeAreRefusedNamingBoth) {
  const std::string mark(fieldDef(nest().mark).name);
  const std::string wrap(fieldDef(nest().wrap).name);
  refused(checkEnvelope(receive(-static_cast<int64_t>(kRun), 1)), mark + "[0] (word 1 bit 83) = 1 with " + wrap + "[0]");
  // A +1 wrap without its mark is the relation's refusal, as on main.
  refused(checkEnvelope(receive(1, 0)), wrap + "[0] (word 0 bits 127:111) = 1 is not -1 x " + std::string(fieldDef(nest().run).name));
  refused(checkEnvelope(receive(2, 1)), mark + "[0] (word 1 bit 83) = 1 with " + wrap + "[0] (word 0 bits 127:111) = 2 (2)");
}

TEST_P(ReceiveForwardMarksTest, AMarkedLevelThatCountsIsRefusedAsNotDecoded) {
  const std::string why = checkEnvelope(receive(1, 1, 2));
  refused(why, std::string(fieldDef(nest().mark).name) + "[0] (word 1 bit 83) = 1 where " + std::string(fieldDef(nest().repeat).name));
  refused(why, "is not decoded");
}

INSTANTIATE_TEST_SUITE_P(WeightStreamAndExecutionOnly, ReceiveForwardMarksTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& param) { return param.param ? "Dma12" : "Dma11Exec"; });

}  // namespace
}  // namespace coralsim::lle::lle_receive_forward_marks_test
