// Programs on the emulated chip, driven through USB only: the edgetpuxray simple.py order, stream
// words, the debugger path through control transfers, faults, chunks, tile sequence numbers and
// the determinism of cycle counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "models/isa/demo/demo_program.h"
#include "models/isa/segmenter.h"
#include "tests/unit/device_harness.h"

namespace coralsim::testing::device_program_test {
namespace {

// The demo sums 1..10 twice and reports {addr 0x400, length = the sum, tag 4} (sum_loop.s).
TEST(DeviceProgram, SimplePyOrderProgramWhileIdleThenRun) {
  DeviceHarness h;
  h.openLikeLibedgetpu(/*moveToRun=*/false);
  h.out(record(0, isa::bytesFromWords(isa::assemble(isa::demoProgramText(), isa::demoProgramName()).words)));
  EXPECT_FALSE(h.event(200ms)) << "the core is idle: the program only waits in the instruction queue";
  EXPECT_EQ(h.read64(csr::scalarCoreRunStatus), 0u);
  h.write64(csr::scalarCoreRunControl, 1);
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->tag, 4);
  EXPECT_EQ(e->address, 0x400u);
  EXPECT_EQ(e->length, 55u) << "1 + 2 + ... + 10";
  const auto log = h.device.descriptorLog();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].length, 55u);
  const auto runs = h.device.runLog();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(runs[0].finished);
  EXPECT_GT(runs[0].cycles(), 50u) << "two loops of 10 iterations at one cycle per bundle";
  EXPECT_EQ(h.device.cycles(), runs[0].endCycle);
  EXPECT_EQ(h.read64(csr::scalarCoreRunStatus), 1u) << "running, waiting for the next chunk";
}

// At 1 kHz every cycle is 1 ms of simulated time, far longer than the kernel's time slice: the
// kernel must still advance to the next event (it once stalled there).
TEST(DeviceProgram, SlowClockStillRuns) {
  sim::DeviceOptions o;
  o.chip.clockHz = 1000;
  DeviceHarness h(o);
  h.openLikeLibedgetpu();
  h.sendProgram("program {\n s1 = mov 0x4\n s2 = mov 0x3\n desc[2] = s2\n desc[3] = s1\n push\n}\n");
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->length, 3u);
}

TEST(DeviceProgram, StreamWordsArriveOnEp81) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.sendProgram(
      "program {\n"
      "  s1 = mov 0x8\n  s2 = mov 0x3\n  desc[2] = s1\n  desc[3] = s2\n  push\n"
      "  s3 = mov 0x11223344\n  s4 = mov 0x55667788\n"
      "  stream s3\n  stream s4\n"
      "  s5 = mov 0x4\n  desc[2] = s0\n  desc[3] = s5\n  push\n"
      "}\n");
  auto out = h.in(0x81, 1024);
  ASSERT_TRUE(out) << h.device.lastFault();
  EXPECT_EQ(out->data, (std::vector<uint8_t>{0x44, 0x33, 0x22, 0x11, 0x88, 0x77, 0x66, 0x55}));
  auto e = h.event();
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tag, 4);
}

constexpr const char* kSumProgram =
    "program {\n"
    "        s0 = mov 0x0\n"
    "        s1 = mov 0x1\n"
    "again:  s0 = add s0, s1\n"
    "        s1 = add s1, 0x1\n"
    "        p0 = lt s1, 0xb\n"
    "        (p0) br again\n"
    "done:   p1 = eq s0, 0x37\n"
    "        s5 = mov 0x4\n"
    "        (!p1) s5 = mov 0x5\n"
    "        desc[3] = s5\n"
    "        push\n"
    "}\n";

uint32_t labelOf(const char* program, const char* label) {
  return isa::assemble(program, "test.s").labels.at(label);
}

TEST(DeviceProgram, DebuggerHaltStepBreakpointRegisters) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.write64(csr::scalarCoreRunControl, 2);  // halt before the program arrives
  EXPECT_EQ(h.read64(csr::scalarCoreRunStatus), 4u);
  const uint32_t done = labelOf(kSumProgram, "done");
  h.write64(csr::scalarCoreBreakPoint, (uint64_t{done} << 1) | 1);
  h.sendProgram(kSumProgram);
  EXPECT_FALSE(h.event(100ms));

  // Single steps: one packet each, the PC in 16-byte words.
  h.write64(csr::scalarCoreRunControl, 3);
  EXPECT_EQ(h.read64(csr::currentPc), 2u);  // word 1 executed
  EXPECT_EQ(h.read64(csr::scalarCoreRunStatus), 4u);
  h.write64(csr::scalarCoreRunControl, 3);
  EXPECT_EQ(h.read64(csr::currentPc), 3u);
  EXPECT_EQ(h.read64(csr::scalarRegisterFile + 8 * 1), 1u);
  h.write64(csr::scalarCoreRunControl, 3);
  EXPECT_EQ(h.read64(csr::currentPc), 4u);
  EXPECT_EQ(h.read64(csr::scalarRegisterFile + 8 * 0), 1u);

  // Run to the breakpoint: the loop has finished, nothing after it has run.
  h.write64(csr::scalarCoreRunControl, 1);
  int polls = h.poll(csr::scalarCoreRunStatus, 64, [](uint64_t v) { return v == 4; });
  ASSERT_LE(polls, 1000);
  EXPECT_EQ(h.read64(csr::currentPc), done);
  EXPECT_EQ(h.read64(csr::scalarRegisterFile + 8 * 0), 55u);
  EXPECT_EQ(h.read64(csr::scalarRegisterFile + 8 * 1), 11u);
  EXPECT_EQ(h.read64(csr::predicateRegisterFile + 8 * 0), 0u) << "p0 = (11 < 11)";
  EXPECT_FALSE(h.event(100ms));

  // A debugger write changes what the program computes: s0 != 55 makes it report tag 5.
  h.write64(csr::scalarRegisterFile + 8 * 0, 100);
  h.write64(csr::scalarCoreRunControl, 3);  // executes p1 = eq s0, 0x37 at the breakpoint
  EXPECT_EQ(h.read64(csr::currentPc), done + 1);
  EXPECT_EQ(h.read64(csr::predicateRegisterFile + 8 * 1), 0u);
  h.write64(csr::scalarCoreRunControl, 1);
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->tag, 5);
}

TEST(DeviceProgram, HaltARunningLoopAndStepIt) {
  constexpr const char* kLoop =
      "program {\n"
      "top:  s0 = add s0, 0x1\n"
      "      br top\n"
      "}\n";
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.sendProgram(kLoop);
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(h.read64(csr::scalarCoreRunStatus), 1u);
  h.write64(csr::scalarCoreRunControl, 2);
  ASSERT_LE(h.poll(csr::scalarCoreRunStatus, 64, [](uint64_t v) { return v == 4; }), 1000);
  const uint32_t top = labelOf(kLoop, "top");
  uint64_t pc = h.read64(csr::currentPc);
  ASSERT_TRUE(pc == top || pc == top + 1) << pc;
  const uint64_t count = h.read64(csr::scalarRegisterFile);
  EXPECT_GT(count, 0u);
  // Two steps: one bundle and one branch, whichever comes first.
  h.write64(csr::scalarCoreRunControl, 3);
  h.write64(csr::scalarCoreRunControl, 3);
  EXPECT_EQ(h.read64(csr::currentPc), pc);
  EXPECT_EQ(h.read64(csr::scalarRegisterFile), count + 1);
  // The state does not move while halted.
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(h.read64(csr::scalarRegisterFile), count + 1);
  // Run again, halt again: it went on.
  h.write64(csr::scalarCoreRunControl, 1);
  std::this_thread::sleep_for(20ms);
  h.write64(csr::scalarCoreRunControl, 2);
  ASSERT_LE(h.poll(csr::scalarCoreRunStatus, 64, [](uint64_t v) { return v == 4; }), 1000);
  EXPECT_GT(h.read64(csr::scalarRegisterFile), count + 1);
}

// Waits for the fatal interrupt on EP 0x83 and checks what libedgetpu would read next.
void expectFatal(DeviceHarness& h, PendingUrb& interrupt, const std::string& textPart) {
  ASSERT_TRUE(interrupt.wait->waitFor(10s)) << "no interrupt on EP 0x83";
  const std::vector<uint8_t> word = interrupt.wait->result().data;
  ASSERT_EQ(word.size(), 4u);
  EXPECT_EQ(word[0] & 1u, 1u) << "bit 0: fatal error";
  EXPECT_NE(h.read64(csr::hib_error_status), 0u);
  EXPECT_NE(h.read64(csr::hib_first_error_status), 0u);
  EXPECT_NE(h.device.lastFault().find(textPart), std::string::npos) << h.device.lastFault();
  EXPECT_EQ(h.read64(csr::scalarCoreRunStatus), 4u);
}

TEST(DeviceProgram, RunawayProgramHitsTheCycleLimit) {
  sim::DeviceOptions o;
  o.chip.cycleLimit = 200'000;
  DeviceHarness h(o);
  h.openLikeLibedgetpu();
  PendingUrb interrupt = h.submitIn(0x83, 4);
  h.sendProgram("program {\ntop: br top\n}\n");
  expectFatal(h, interrupt, "cycle limit");
  const auto runs = h.device.runLog();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(runs[0].faulted);
  EXPECT_GE(runs[0].cycles(), 200'000u);
  EXPECT_LT(runs[0].cycles(), 200'000u + 100);
  // A close/open cycle (GCB reset) brings the chip back.
  h.closeLikeLibedgetpu();
  h.openLikeLibedgetpu();
  h.sendProgram("program {\n s1 = mov 0x4\n desc[3] = s1\n push\n}\n");
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->tag, 4);
}

TEST(DeviceProgram, ScalarFaultNamesThePc) {
  constexpr const char* kBadLoad =
      "program {\n"
      "      s1 = mov 0x10000\n"
      "bad:  s2 = ld [s1]\n"
      "}\n";
  DeviceHarness h;
  h.openLikeLibedgetpu();
  PendingUrb interrupt = h.submitIn(0x83, 4);
  h.sendProgram(kBadLoad);
  expectFatal(h, interrupt, "outside scalar memory");
  EXPECT_EQ(h.read64(csr::currentPc), labelOf(kBadLoad, "bad"));
  EXPECT_EQ(h.read64(csr::hib_error_status), 1u) << "FaultKind::kScalarCore";
}

TEST(DeviceProgram, StartLengthMustMatchTheRecord) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  PendingUrb interrupt = h.submitIn(0x83, 4);
  std::vector<uint8_t> chunk = assembleBytes("program {\n s1 = mov 0x4\n}\n");
  chunk.resize(chunk.size() + 16, 0);  // one word more than START announces
  h.out(record(0, chunk));
  expectFatal(h, interrupt, "body_bits");
}

TEST(DeviceProgram, StreamWordWithoutWindowFaults) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  PendingUrb interrupt = h.submitIn(0x83, 4);
  h.sendProgram("program {\n s1 = mov 0x7\n stream s1\n}\n");
  expectFatal(h, interrupt, "no open output window");
}

TEST(DeviceProgram, ChunksContinueOneProgram) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  // Chunk 0 leaves a value in s7 and ends with HALT 0x04; chunk 1 reports it.
  h.out(record(0, assembleBytes("start\ns7 = mov 0x99\ntile.sync mask=0xffff\nhalt chunk\nnop\nnop\nnop\nnop\nend\n")));
  EXPECT_FALSE(h.event(100ms));
  h.out(record(0, assembleBytes("program {\n.tileseq 1\ntile.sync mask=0x0001\n"
                                " s1 = mov 0x4\n desc[2] = s7\n desc[3] = s1\n push\n}\n")));
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->length, 0x99u);
  const auto runs = h.device.runLog();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].chunks, 2u);
  // A new executable starts its tile sequence at 0 again.
  h.sendProgram("program {\n tile.sync mask=0xffff\n s1 = mov 0x4\n desc[3] = s1\n push\n}\n");
  ASSERT_TRUE(h.event()) << h.device.lastFault();
  EXPECT_EQ(h.device.runLog().size(), 2u);
}

// libedgetpu reads a chunk's outputs before it sends the next chunk (single-EP order): the
// window a chunk leaves open must reach EP 0x81 when the chunk ends, not at the next descriptor.
TEST(DeviceProgram, OpenWindowIsProducedAtChunkEnd) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.out(record(0, assembleBytes("start\n s1 = mov 0x10\n s2 = mov 0x3\n desc[2] = s1\n desc[3] = s2\n push\n"
                                "tile.dma10 mask=0x0001\n sc.outfeed\nhalt chunk\nnop\nnop\nnop\nnop\nend\n")));
  auto out = h.in(0x81, 1024);
  ASSERT_TRUE(out) << "the host would wait here forever: " << h.device.lastFault();
  EXPECT_EQ(out->data, std::vector<uint8_t>(16, 0));
  EXPECT_FALSE(h.device.outputsComputed());
  h.out(record(0, assembleBytes("program {\n.tileseq 1\n s1 = mov 0x4\n desc[2] = s0\n desc[3] = s1\n push\n}\n")));
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->tag, 4);
}

// ---- oddities hardware runs (docs/refusal-rules.md): each of these programs faulted before ----

// The run record once the chip has closed it (the completion event comes before the final HALT).
sim::RunRecord settledRun(DeviceHarness& h) {
  for (int i = 0; i < 2000; ++i) {
    const auto runs = h.device.runLog();
    if (!runs.empty() && (runs.back().finished || runs.back().faulted)) return runs.back();
    std::this_thread::sleep_for(1ms);
  }
  ADD_FAILURE() << "the run did not finish: " << h.device.lastFault();
  return {};
}

bool anyNoteHas(const sim::RunRecord& run, const std::string& text) {
  return std::any_of(run.notes.begin(), run.notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

std::string allNotes(const sim::RunRecord& run) {
  std::string text;
  for (const std::string& n : run.notes) text += n + "\n";
  return text;
}

// Runs `program` on a fresh device to its completion event: it must finish without a fault.
sim::RunRecord runWithoutFault(const std::string& program) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.sendProgram(program);
  auto e = h.event();
  EXPECT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e ? e->tag : -1, 4);
  const sim::RunRecord run = settledRun(h);
  EXPECT_TRUE(run.finished);
  EXPECT_TRUE(h.device.lastFault().empty()) << h.device.lastFault();
  return run;
}

TEST(DeviceProgram, TileSequenceBreakIsNotedNamingPcAndTheCountContinues) {
  const sim::RunRecord run = runWithoutFault(
      "program {\n tile.sync mask=0xffff\nbad: tile.sync mask=0xffff seq=5\n tile.sync mask=0xffff seq=6\n"
      " s1 = mov 0x4\n desc[3] = s1\n push\n}\n");
  ASSERT_EQ(run.notes.size(), 1u) << allNotes(run) << "(seq 6 continues from 5: one note)";
  EXPECT_NE(run.notes[0].find("sequence number 5, expected 1"), std::string::npos) << run.notes[0];
  EXPECT_NE(run.notes[0].find("PC"), std::string::npos) << run.notes[0];
}

// An LSTM from the public compiler carries tile packets with mask 0 and runs on real Corals.
TEST(DeviceProgram, TileMaskZeroAddressesNoTileAndIsNoted) {
  const sim::RunRecord run =
      runWithoutFault("program {\n tile.dma10 mask=0x0000\n tile.sync mask=0xffff\n s1 = mov 0x4\n desc[3] = s1\n push\n}\n");
  // The mask-0 packet still counts in the sequence: the next one (seq 1) continues without a note.
  ASSERT_EQ(run.notes.size(), 1u) << allNotes(run);
  EXPECT_TRUE(anyNoteHas(run, "tile mask 0")) << allNotes(run);
}

// A transformer's 262,176-byte chunk halts at word 4000 and pads with NOPs to the end; it runs on
// real Corals. The core stops at the final HALT: what follows is never executed.
TEST(DeviceProgram, HaltWithoutTheDrainNopsStopsThereAndIsNoted) {
  for (const int nops : {0, 1, 2, 5, 200}) {
    DeviceHarness h;
    h.openLikeLibedgetpu();
    std::string text = "start\n s2 = mov 0x11\n desc[2] = s2\n s1 = mov 0x4\n desc[3] = s1\n push\nhalt final\n";
    for (int i = 0; i < nops; ++i) text += "nop\n";
    text += "end\n";
    h.out(record(0, assembleBytes(text)));
    auto e = h.event();
    ASSERT_TRUE(e) << nops << " NOPs: " << h.device.lastFault();
    EXPECT_EQ(e->length, 0x11u);
    const sim::RunRecord run = settledRun(h);
    EXPECT_TRUE(run.finished) << nops;
    EXPECT_TRUE(anyNoteHas(run, "drain NOPs")) << nops << " NOPs: " << allNotes(run);
  }
}

// Packets after the final HALT (here a second completion) are not executed: the chunk decodes,
// the core stops at the halt.
TEST(DeviceProgram, PacketsAfterTheFinalHaltAreNotExecuted) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.out(record(0, assembleBytes("start\n s2 = mov 0x11\n desc[2] = s2\n s1 = mov 0x4\n desc[3] = s1\n push\nhalt final\n"
                                " s2 = mov 0x99\n desc[2] = s2\n push\nnop\nnop\nnop\nnop\nend\n")));
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->length, 0x11u);
  EXPECT_FALSE(h.event(200ms)) << "a packet after the final HALT ran";
  const sim::RunRecord run = settledRun(h);
  EXPECT_TRUE(run.finished);
  EXPECT_TRUE(anyNoteHas(run, "not halt")) << allNotes(run);
}

// An empty tag-0 record has nothing to fetch: ignored, the next program runs as usual.
TEST(DeviceProgram, EmptyInstructionRecordIsIgnored) {
  DeviceHarness h;
  h.openLikeLibedgetpu();
  h.out(record(0, {}));
  h.sendProgram("program {\n s1 = mov 0x4\n desc[3] = s1\n push\n}\n");
  auto e = h.event();
  ASSERT_TRUE(e) << h.device.lastFault();
  EXPECT_EQ(e->tag, 4);
  EXPECT_TRUE(settledRun(h).finished);
  EXPECT_EQ(h.device.runLog().size(), 1u);
  EXPECT_TRUE(h.device.lastFault().empty()) << h.device.lastFault();
}

// Asks for input, keeps the tiles busy, fences, streams 8 bytes out and signals done.
constexpr const char* kDeterminismProgram =
    "program {\n"
    "  s1 = mov 96\n  s2 = mov 0x1\n  desc[2] = s1\n  desc[3] = s2\n  push\n"
    "  tile.compute mask=0xffff\n  tile.dma14 mask=0x000f\n  tile.compute mask=0x00f0\n"
    "  sc.sync mask=0xffff\n"
    "  tile.compute mask=0xffff\n"
    "  s1 = mov 0x8\n  s2 = mov 0x3\n  desc[2] = s1\n  desc[3] = s2\n  push\n"
    "  s3 = mov 0x1234\n  stream s3\n  stream s3\n"
    "  s5 = mov 0x4\n  desc[2] = s0\n  desc[3] = s5\n  push\n"
    "}\n";

struct RunResult {
  uint64_t cycles = 0;
  uint64_t runCycles = 0;
  std::vector<uint8_t> output;
};

// pacing 0: everything in one transfer. pacing 1: program first, input later in small pieces
// with pauses (the core waits at the fence meanwhile, the tiles keep working).
// `issueOnly`: the tile cost constants (models/timing_model.h) set to 0, so only the scalar core's
// issue costs remain.
RunResult runDeterminismProgram(int pacing, bool issueOnly = false) {
  sim::DeviceOptions options;
  if (issueOnly) {
    options.chip.timing.computePacketCycles = 0;
    options.chip.timing.macCyclesPerIteration = 0;
    options.chip.timing.tileDmaPacketCycles = 0;
  }
  DeviceHarness h(options);
  h.openLikeLibedgetpu();
  const std::vector<uint8_t> program = record(0, assembleBytes(kDeterminismProgram));
  std::vector<uint8_t> input = record(1, std::vector<uint8_t>(96, 0x5A));
  if (pacing == 0) {
    h.out(concat({program, input}));
  } else {
    h.out(program);
    std::this_thread::sleep_for(30ms);
    for (size_t at = 0; at < input.size(); at += 7) {
      h.out(std::vector<uint8_t>(input.begin() + static_cast<ptrdiff_t>(at),
                                 input.begin() + static_cast<ptrdiff_t>(std::min(at + 7, input.size()))));
      std::this_thread::sleep_for(2ms);
    }
  }
  RunResult r;
  auto out = h.in(0x81, 1024);
  if (out) r.output = out->data;
  auto e = h.event();
  EXPECT_TRUE(e) << h.device.lastFault();
  r.cycles = h.device.cycles();
  const auto runs = h.device.runLog();
  if (!runs.empty()) r.runCycles = runs[0].cycles();
  return r;
}

TEST(DeviceProgram, CycleCountsAreDeterministic) {
  const RunResult a = runDeterminismProgram(0);
  const RunResult b = runDeterminismProgram(0);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.runCycles, b.runCycles);
  // Host pacing changes wall-clock timing, never the chip's cycle count.
  const RunResult c = runDeterminismProgram(1);
  EXPECT_EQ(a.cycles, c.cycles);
  EXPECT_EQ(a.output, c.output);
  // Two devices at once share the kernel but not their clocks.
  RunResult d, e;
  std::thread t1([&] { d = runDeterminismProgram(1); });
  std::thread t2([&] { e = runDeterminismProgram(0); });
  t1.join();
  t2.join();
  EXPECT_EQ(a.cycles, d.cycles);
  EXPECT_EQ(a.cycles, e.cycles);
  std::printf("determinism program: %llu chip cycles (run %llu)\n", static_cast<unsigned long long>(a.cycles),
              static_cast<unsigned long long>(a.runCycles));
  // Issue costs (models/timing_model.h packetIssueCycles): every packet costs its length in cycles
  // at issue. With the tile costs set to 0 the tiles finish with the core in this straight-line
  // program, so the run lasts exactly the sum of the packet lengths from word 1 through the final
  // HALT, counted here from the segmenter.
  const RunResult issueOnly = runDeterminismProgram(0, /*issueOnly=*/true);
  const auto words = isa::assemble(kDeterminismProgram, "test.s").words;
  uint64_t issueCycles = 0;
  for (const isa::Packet& p : isa::segmentProgram(words).packets) {
    if (p.wordIndex == 0) continue;  // START is not executed
    issueCycles += p.length;
    if (p.op == isa::Opcode::Halt) break;
  }
  EXPECT_EQ(issueOnly.runCycles, issueCycles);
  // With the default constants tiles 4..7 receive all three compute packets (masks 0xffff, 0x00f0,
  // 0xffff; no loop fields set, so one iteration each), which run back to back on their MAC array
  // from the first one's issue cycle — 5, after the five bundles that push the input descriptor —
  // and end after the core's HALT, which waits for them (models/chip/tile.h).
  const models::TimingModel timing;
  EXPECT_EQ(a.runCycles, 5 + 3 * (timing.computePacketCycles + timing.macCyclesPerIteration));
  EXPECT_EQ(a.output, (std::vector<uint8_t>{0x34, 0x12, 0, 0, 0x34, 0x12, 0, 0}));
}

}  // namespace
}  // namespace coralsim::testing::device_program_test
