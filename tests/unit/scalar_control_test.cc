// The scalar core's control flow: branches, hardware loops, HALT forms, START/END, chunk
// continuation, breakpoints, single-step, cycle budgets and cycle counting, packet issue order.
#include <gtest/gtest.h>

#include <string>

#include "models/isa/demo/demo_program.h"
#include "tests/unit/scalar_test_support.h"

namespace coralsim::models::scalar_control_test {
namespace {

using testing::assembleProgram;
using testing::faultMessage;
using testing::labelAddress;
using testing::programWithBody;
using testing::RecordingHost;
using testing::runBody;

constexpr uint32_t kMemoryWords = 4096;

// A frame written out by hand: START, body, HALT <kind>, 4 NOPs, END.
std::string frame(const std::string& body, const std::string& haltKind = "final") {
  return "start\n" + body + "\nhalt " + haltKind + "\nnop\nnop\nnop\nnop\nend\n";
}

// ---- branch ---------------------------------------------------------------------------------------

TEST(ScalarBranch, UnconditionalForwardSkipsTheBundlesBetween) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "s1 = mov 0x1\n"
      "br skip\n"
      "s2 = mov 0x5\n"
      "skip: s3 = mov 0x6\n";
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[2], 0u);
  EXPECT_EQ(engine.state().scalar[3], 6u);
  EXPECT_EQ(engine.cycles(), 4u) << "mov, br, mov, halt";
}

TEST(ScalarBranch, ConditionTakenAndNotTakenBothPolarities) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "s1 = mov 0x1\n"
      "p0 = eq s1, 0x2\n"   // false
      "(p0) br a\n"         // not taken
      "s2 = mov 0x5\n"
      "a: (!p0) br b\n"     // taken
      "s3 = mov 0x6\n"
      "b: p5 = eq s1, 0x1\n"
      "(p5) br c\n"         // taken
      "s4 = mov 0x7\n"
      "c: (!p5) br d\n"     // not taken
      "s6 = mov 0x8\n"
      "d: nop\n";
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[2], 5u);
  EXPECT_EQ(engine.state().scalar[3], 0u);
  EXPECT_EQ(engine.state().scalar[4], 0u);
  EXPECT_EQ(engine.state().scalar[6], 8u);
}

TEST(ScalarBranch, BackwardBranchLoopsLikeTheDemo) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "s0 = mov 0x0\n"
      "s1 = mov 0x1\n"
      "again: s0 = add s0, s1\n"
      "s1 = add s1, 0x1\n"
      "p0 = lt s1, 0xb\n"
      "(p0) br again\n";
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[0], 55u);
  EXPECT_EQ(engine.cycles(), 2u + 10 * 4 + 1);
}

TEST(ScalarBranch, TargetInsideAPacketPayloadFaults) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  // word 1: br +2 -> word 3, the second word of the 4-word tile.dma10 at word 2.
  engine.load(programWithBody("br +2\ntile.dma10 mask=0x0001\n"));
  const std::string message = faultMessage([&] { (void)engine.run(1000, host); });
  EXPECT_NE(message.find("PC 0x0001"), std::string::npos) << message;
  EXPECT_NE(message.find("branch target word 0x3"), std::string::npos) << message;
  EXPECT_NE(message.find("not the start of a packet"), std::string::npos) << message;
  EXPECT_EQ(engine.pc(), 1u);
  EXPECT_TRUE(host.issued.empty());
}

TEST(ScalarBranch, TargetOutsideTheChunkFaults) {
  for (const char* branch : {"br +100", "br -5"}) {
    SCOPED_TRACE(branch);
    ScalarEngine engine(kMemoryWords);
    RecordingHost host;
    engine.load(programWithBody(branch));
    const std::string message = faultMessage([&] { (void)engine.run(1000, host); });
    EXPECT_NE(message.find("not the start of a packet of this chunk"), std::string::npos) << message;
  }
}

TEST(ScalarBranch, NotTakenBranchWithABadTargetIsHarmless) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  ASSERT_EQ(runBody(engine, host, "p0 = ne s0, s0\n(p0) br +100\ns1 = mov 0x1\n"), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[1], 1u);
}

TEST(ScalarBranch, ReachingStartOrEndFaults) {
  {
    ScalarEngine engine(kMemoryWords);
    RecordingHost host;
    engine.load(programWithBody("br -1\n"));  // word 1 -> word 0, START
    const std::string message = faultMessage([&] { (void)engine.run(1000, host); });
    EXPECT_NE(message.find("reached START"), std::string::npos) << message;
    EXPECT_EQ(engine.pc(), 0u);
  }
  {
    ScalarEngine engine(kMemoryWords);
    RecordingHost host;
    // word 1: br +6 -> word 7 = END (HALT at 2, NOPs at 3..6).
    engine.load(assembleProgram(frame("br +6")));
    const std::string message = faultMessage([&] { (void)engine.run(1000, host); });
    EXPECT_NE(message.find("reached END"), std::string::npos) << message;
    EXPECT_EQ(engine.pc(), 7u);
  }
}

// ---- hardware loop --------------------------------------------------------------------------------

TEST(ScalarLoop, BodyRunsNTimes) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "s1 = mov 0x0\n"
      "loop n=5 body=3\n"
      "s1 = add s1, 0x1\n"
      "s2 = add s2, s1\n"
      "s3 = mov s2\n"
      "s4 = mov s1\n";  // after the body: runs once
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[1], 5u);
  EXPECT_EQ(engine.state().scalar[2], 15u);  // 1+2+3+4+5
  EXPECT_EQ(engine.state().scalar[3], 15u);
  EXPECT_EQ(engine.state().scalar[4], 5u);
  // mov, loop, 5 x 3 body bundles, mov, halt
  EXPECT_EQ(engine.cycles(), 1u + 1 + 15 + 1 + 1);
  EXPECT_EQ(engine.bundlesExecuted(), 1u + 15 + 1);
}

TEST(ScalarLoop, OneIteration) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  ASSERT_EQ(runBody(engine, host, "loop n=1 body=2\ns1 = add s1, 0x1\ns2 = add s2, 0x2\ns3 = mov 0x3\n"),
            StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[1], 1u);
  EXPECT_EQ(engine.state().scalar[2], 2u);
  EXPECT_EQ(engine.state().scalar[3], 3u);
  EXPECT_EQ(engine.cycles(), 5u);
}

TEST(ScalarLoop, ZeroIterationsSkipTheBody) {  // [choice] N = 0 skips the body
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  ASSERT_EQ(runBody(engine, host, "loop n=0 body=2\ns1 = add s1, 0x1\ns2 = add s2, 0x2\ns3 = mov 0x3\n"),
            StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[1], 0u);
  EXPECT_EQ(engine.state().scalar[2], 0u);
  EXPECT_EQ(engine.state().scalar[3], 3u);
  EXPECT_EQ(engine.cycles(), 3u) << "loop word, mov, halt";
}

TEST(ScalarLoop, ZeroBundleBodyIsANoOp) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  ASSERT_EQ(runBody(engine, host, "loop n=7 body=0\ns3 = add s3, 0x3\n"), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[3], 3u);
}

TEST(ScalarLoop, OutputGatheringIdiomStreamsEveryWord) {
  // docs/isa.md §3.7: DESC(tag 3, len), then two post-increment loads and LOOP(B=2, N) over
  // {stream; load [s6++]}, i.e. a software-pipelined copy of scalar memory to the host stream.
  ScalarEngine engine(kMemoryWords);
  for (uint32_t i = 0; i < 8; ++i) engine.state().memory[i] = 0x100 + i;
  RecordingHost host;
  const char* body =
      "s6 = mov 0x0\n"
      "s7 = ld [s6], s6 += 1\n"
      "s8 = ld [s6], s6 += 1\n"
      "loop n=3 body=4\n"
      "stream s7\n"
      "s7 = ld [s6], s6 += 1\n"
      "stream s8\n"
      "s8 = ld [s6], s6 += 1\n"
      "stream s7\n"
      "stream s8\n";
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  ASSERT_EQ(host.stream.size(), 8u);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(host.stream[i], 0x100 + i);
}

TEST(ScalarLoop, NestedLoopFaults) {  // the body must be scalar bundles: nesting is a fault
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  engine.load(programWithBody("loop n=2 body=2\nloop n=2 body=1\ns1 = add s1, 0x1\n"));
  const std::string message = faultMessage([&] { (void)engine.run(1000, host); });
  EXPECT_NE(message.find("PC 0x0001"), std::string::npos) << message;
  EXPECT_NE(message.find("PC 0x0002 (loop) is not a scalar bundle"), std::string::npos) << message;
}

TEST(ScalarLoop, BranchOrTilePacketOrHaltInTheBodyFaults) {
  for (const char* body : {"loop n=2 body=2\ns1 = add s1, 0x1\nbr +1\n", "loop n=2 body=1\ntile.sync mask=0x0001\n",
                           "loop n=2 body=3\ns1 = add s1, 0x1\n"}) {
    SCOPED_TRACE(body);
    ScalarEngine engine(kMemoryWords);
    RecordingHost host;
    engine.load(programWithBody(body));
    const std::string message = faultMessage([&] { (void)engine.run(1000, host); });
    EXPECT_NE(message.find("is not a scalar bundle"), std::string::npos) << message;
    EXPECT_EQ(engine.state().scalar[1], 0u);
    EXPECT_TRUE(host.issued.empty());
  }
}

TEST(ScalarLoop, PredicatedOffBodyBundlesStillCountAsIterations) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  ASSERT_EQ(runBody(engine, host, "p0 = ne s0, s0\nloop n=4 body=2\n(p0) s1 = add s1, 0x1\ns2 = add s2, 0x1\n"),
            StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[1], 0u);
  EXPECT_EQ(engine.state().scalar[2], 4u);
  EXPECT_EQ(engine.cycles(), 1u + 1 + 8 + 1);
}

// ---- HALT and chunk continuation ------------------------------------------------------------------

TEST(ScalarHalt, KindsFinalChunkAndOlderChunkEnd) {
  struct Case {
    const char* kind;
    StopReason reason;
  };
  for (const Case& c : {Case{"final", StopReason::kFinalHalt}, Case{"chunk", StopReason::kChunkEnd},
                        Case{"0x0", StopReason::kChunkEnd}}) {
    SCOPED_TRACE(c.kind);
    ScalarEngine engine(kMemoryWords);
    RecordingHost host;
    engine.load(assembleProgram(frame("s1 = mov 0x1", c.kind)));
    EXPECT_EQ(engine.run(1000, host), c.reason);
    EXPECT_EQ(engine.pc(), 2u) << "the core stays at the HALT";
    EXPECT_EQ(engine.haltReason(), c.reason);
    EXPECT_EQ(engine.cycles(), 2u);
    // Halted: further calls report the same reason and spend nothing.
    EXPECT_EQ(engine.run(1000, host), c.reason);
    EXPECT_EQ(engine.step(host), c.reason);
    EXPECT_EQ(engine.cycles(), 2u);
  }
}

TEST(ScalarHalt, OtherKindsFault) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  engine.load(assembleProgram(frame("s1 = mov 0x1", "0x7")));
  const std::string message = faultMessage([&] { (void)engine.run(1000, host); });
  EXPECT_NE(message.find("HALT kind 0x7"), std::string::npos) << message;
  EXPECT_NE(message.find("PC 0x0002"), std::string::npos) << message;
}

TEST(ScalarHalt, ChunksContinueOneProgramWithStateKept) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  engine.load(assembleProgram(frame(
      "s1 = mov 0x5\n"
      "mem[0x10] = s1\n"
      "p2 = eq s1, 0x5\n"
      "s9 = mov 0x44\n"
      "desc[0] = s9\n"
      "tile.sync mask=0x0001",
      "chunk")));
  ASSERT_EQ(engine.run(1000, host), StopReason::kChunkEnd);
  const uint64_t cyclesAfterFirst = engine.cycles();
  engine.load(assembleProgram(frame(
      "s2 = add s1, 0x1\n"
      "s3 = ld [0x10]\n"
      "(p2) s4 = mov 0x9\n"
      "s5 = mov 0x4\n"
      "desc[3] = s5\n"
      "push")));
  EXPECT_EQ(engine.pc(), 1u);
  EXPECT_FALSE(engine.haltReason().has_value());
  ASSERT_EQ(engine.run(1000, host), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[2], 6u);
  EXPECT_EQ(engine.state().scalar[3], 5u);
  EXPECT_EQ(engine.state().scalar[4], 9u);
  ASSERT_EQ(host.descriptors.size(), 1u);
  EXPECT_EQ(host.descriptors[0].address, 0x44u) << "DESC[0] written by the first chunk";
  EXPECT_EQ(host.descriptors[0].tag, 4u);
  EXPECT_EQ(engine.cycles(), cyclesAfterFirst + 7) << "the cycle count continues";
}

TEST(ScalarHalt, ResetClearsArchitecturalStateButNotTheClock) {
  ScalarEngine engine(2048);
  RecordingHost host;
  ASSERT_EQ(runBody(engine, host, "s1 = mov 0x5\np3 = eq s1, s1\ndesc[2] = s1\nmem[0x7ff] = s1\n"),
            StopReason::kFinalHalt);
  const uint64_t cycles = engine.cycles();
  engine.reset();
  EXPECT_FALSE(engine.loaded());
  EXPECT_EQ(engine.state().scalar[1], 0u);
  EXPECT_FALSE(engine.state().predicate[3]);
  EXPECT_EQ(engine.state().descriptorWords[2], 0u);
  ASSERT_EQ(engine.state().memory.size(), 2048u);
  EXPECT_EQ(engine.state().memory[0x7ff], 0u);
  EXPECT_FALSE(engine.haltReason().has_value());
  EXPECT_EQ(engine.cycles(), cycles);
  EXPECT_THROW((void)engine.run(10, host), std::logic_error);
}

// ---- breakpoints, single-step, budgets ------------------------------------------------------------

TEST(ScalarDebug, BreakpointStopsBeforeThePacketAndResumesPastIt) {
  const std::string text =
      "program {\n"
      "s1 = mov 0x1\n"
      "s2 = mov 0x2\n"
      "bp: s3 = mov 0x3\n"
      "s4 = mov 0x4\n"
      "}\n";
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const uint32_t bp = labelAddress(text, "bp");
  engine.setBreakpoint(bp);
  engine.load(assembleProgram(text));
  ASSERT_EQ(engine.run(1000, host), StopReason::kBreakpoint);
  EXPECT_EQ(engine.pc(), bp);
  EXPECT_EQ(engine.state().scalar[2], 2u);
  EXPECT_EQ(engine.state().scalar[3], 0u) << "the packet at the breakpoint has not run";
  EXPECT_EQ(engine.cycles(), 2u);
  ASSERT_EQ(engine.run(1000, host), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[3], 3u);
  EXPECT_EQ(engine.state().scalar[4], 4u);
}

TEST(ScalarDebug, BreakpointInsideALoopBodyHitsEveryIteration) {
  const std::string text =
      "program {\n"
      "loop n=4 body=2\n"
      "s1 = add s1, 0x1\n"
      "bp: s2 = add s2, 0x1\n"
      "}\n";
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  engine.setBreakpoint(labelAddress(text, "bp"));
  engine.load(assembleProgram(text));
  int hits = 0;
  StopReason reason;
  while ((reason = engine.run(1000, host)) == StopReason::kBreakpoint) {
    ++hits;
    EXPECT_EQ(engine.state().scalar[1], static_cast<uint32_t>(hits));
    EXPECT_EQ(engine.state().scalar[2], static_cast<uint32_t>(hits - 1));
    ASSERT_LE(hits, 10);
  }
  EXPECT_EQ(reason, StopReason::kFinalHalt);
  EXPECT_EQ(hits, 4);
  EXPECT_EQ(engine.state().scalar[2], 4u);
}

TEST(ScalarDebug, BreakpointOnAPayloadWordNeverHits) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  engine.setBreakpoint(3);  // second word of the tile.dma10 at word 2
  EXPECT_EQ(runBody(engine, host, "s1 = mov 0x1\ntile.dma10 mask=0x0001\ns2 = mov 0x2\n"), StopReason::kFinalHalt);
}

TEST(ScalarDebug, SingleStepExecutesOnePacketAtATime) {
  const std::string text =
      "program {\n"
      "s1 = mov 0x1\n"
      "tile.compute mask=0x0001\n"  // 17 words
      "loop n=2 body=1\n"
      "s2 = add s2, 0x1\n"
      "s3 = mov 0x3\n"
      "}\n";
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  engine.load(assembleProgram(text));
  engine.setBreakpoint(1);  // single-step ignores the breakpoint of the packet it executes
  std::vector<uint32_t> pcs;
  StopReason reason;
  do {
    pcs.push_back(engine.pc());
    reason = engine.step(host);
  } while (reason == StopReason::kBudget && pcs.size() < 20);
  EXPECT_EQ(reason, StopReason::kFinalHalt);
  // s1, tile.compute, loop, body x2, s3, halt
  EXPECT_EQ(pcs, (std::vector<uint32_t>{1, 2, 19, 20, 20, 21, 22}));
  EXPECT_EQ(engine.state().scalar[2], 2u);
  EXPECT_EQ(engine.cycles(), 1u + 17 + 1 + 2 + 1 + 1);
}

TEST(ScalarDebug, BudgetStopsBetweenPacketsAndAStartedPacketCompletes) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  engine.load(programWithBody("s1 = mov 0x1\ntile.compute mask=0x0001\ns2 = mov 0x2\ns3 = mov 0x3\n"));
  EXPECT_EQ(engine.run(0, host), StopReason::kBudget);
  EXPECT_EQ(engine.cycles(), 0u);
  EXPECT_EQ(engine.run(2, host), StopReason::kBudget);  // the compute packet starts at cycle 1
  EXPECT_EQ(engine.cycles(), 18u);
  EXPECT_EQ(engine.pc(), 19u);
  EXPECT_EQ(engine.run(1, host), StopReason::kBudget);
  EXPECT_EQ(engine.state().scalar[2], 2u);
  EXPECT_EQ(engine.state().scalar[3], 0u);
  EXPECT_EQ(engine.run(100, host), StopReason::kFinalHalt);
  EXPECT_EQ(engine.cycles(), 21u);
}

// ---- timing and the host side ---------------------------------------------------------------------

TEST(ScalarTiming, PacketsCostTheirLengthAndCallbacksSeeTheIssueCycle) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "s1 = mov 0x1\n"                 // cycle 0
      "tile.sync mask=0x0001\n"        // 1    (1 word)
      "tile.dma10 mask=0x0003\n"       // 2    (4 words)
      "tile.compute mask=0xffff\n"     // 6    (17 words)
      "sc.sync mask=0xffff\n"          // 23   (2 words)
      "s2 = mov 0x2\n"                 // 25
      "loop n=3 body=2\n"              // 26
      "s3 = add s3, 0x1\n"             // 27..32
      "s4 = add s4, 0x1\n"
      "stream s3\n";                   // 33, then HALT at 34
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  ASSERT_EQ(host.issued.size(), 4u);
  EXPECT_EQ(host.issued[0].cycle, 1u);
  EXPECT_EQ(host.issued[1].cycle, 2u);
  EXPECT_EQ(host.issued[2].cycle, 6u);
  EXPECT_EQ(host.issued[3].cycle, 23u);
  ASSERT_EQ(host.streamCycles.size(), 1u);
  EXPECT_EQ(host.streamCycles[0], 33u);
  EXPECT_EQ(engine.cycles(), 35u);
}

TEST(ScalarTiming, NonScalarPacketsReachTheHostInProgramOrderWithTheirFields) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "tile.sync mask=0x0001\n"
      "sc.infeed offset32=0x4\n"
      "s1 = mov 0x1\n"
      "tile.dma11 mask=0x00f0\n"
      "sc.pop\n"
      "sc.outfeed\n"
      "tile.nlu mask=0x8000\n"
      "tile.compute mask=0x0505\n";
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  using isa::Opcode;
  const std::vector<Opcode> expected = {Opcode::TileSync, Opcode::ScalarInfeed, Opcode::TileDma11, Opcode::ScalarPop,
                                        Opcode::ScalarOutfeed, Opcode::TileNlu, Opcode::TileCompute};
  ASSERT_EQ(host.issued.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(host.issued[i].opcode, expected[i]) << i;
  EXPECT_EQ(host.issued[0].tileMask, 0x0001u);
  EXPECT_EQ(host.issued[0].tileSequence, 0u);
  EXPECT_FALSE(host.issued[1].tilePacket);
  EXPECT_EQ(host.issued[2].tileMask, 0x00f0u);
  EXPECT_EQ(host.issued[2].tileSequence, 1u);
  EXPECT_EQ(host.issued[5].tileSequence, 2u);
  EXPECT_EQ(host.issued[6].tileMask, 0x0505u);
  EXPECT_EQ(host.issued[6].tileSequence, 3u);
}

TEST(ScalarDemo, TheDemoProgramPushesItsSum) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  engine.load(DecodedProgram::fromWords(isa::assemble(isa::demoProgramText(), isa::demoProgramName()).words));
  ASSERT_EQ(engine.run(10'000, host), StopReason::kFinalHalt);
  ASSERT_EQ(host.descriptors.size(), 1u);
  EXPECT_EQ(host.descriptors[0].address, 0x400u);
  EXPECT_EQ(host.descriptors[0].length, 55u);
  EXPECT_EQ(host.descriptors[0].tag, 4u);
}

}  // namespace
}  // namespace coralsim::models::scalar_control_test
