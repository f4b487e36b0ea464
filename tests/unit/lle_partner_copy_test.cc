// PartnerCopyWatch (models/lle/partner_copy.h; docs/decoding-log.md "pair14"): a 0x14 whose
// w0[127:62] / w1 lie outside the envelope waits, per tile, for the next packet on that tile, which
// must be a 0x11 with the same bits. The copied values here (tag 1234, a 37-iteration loop, a w1
// pattern) are none a corpus program carries: the watch judges only the pairing; whether the 0x11's
// own bits mean anything is its envelope's business (the rung's test covers that).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"
#include "models/lle/partner_copy.h"

namespace coralsim::lle::lle_partner_copy_test {
namespace {

using models::DecodedPacket;

class PartnerCopyWatchTest : public ::testing::Test {
 protected:
  // A packet of `op` on `mask` with envelope words, w0[127:62] and w1 taken from `copied` when given.
  DecodedPacket make(uint8_t op, uint16_t mask, const std::vector<isa::Word128>* copied = nullptr) {
    const unsigned length = isa::packetLength(static_cast<isa::Opcode>(op));
    auto& words = storage_.emplace_back(length);
    for (unsigned k = 0; k < length; ++k) words[k] = envelopeValue(op, k);
    // Every corpus 0x14 with a word 4 takes a stream (lle_fields.def Stage14SourceSideOn); the form without one
    // (the kept-stream write) is asked for by the callers that test it.
    if (op == 0x14) words[4].setBits(fieldDef(LleField::Stage14SourceSideOn).lsb % 128, 1, 1);
    if (op < 0x20 && op != 0x1a) words[0].setBits(12, 16, mask);
    if (copied) {
      words[0].setBits(62, 64, (*copied)[0].bits(62, 64));
      words[0].setBits(126, 2, (*copied)[0].bits(126, 2));
      words[1] = (*copied)[1];
    }
    DecodedPacket p;
    p.pc = pc_++;
    p.opcode = static_cast<isa::Opcode>(op);
    p.length = static_cast<uint8_t>(length);
    p.words = words;
    p.tilePacket = op < 0x20;
    p.tileMask = p.tilePacket ? static_cast<uint16_t>(words[0].bits(12, 16)) : 0;
    return p;
  }
  // Copied bits no corpus 0x11 has: tag 1234 at w0[73:62], bit 78, a level-0 limit of 36 with its
  // three wraps -36, and in w1 a count of 37 at bits 98:88 and step 1 at 85:82.
  static std::vector<isa::Word128> copiedBits() {
    std::vector<isa::Word128> w(2);
    w[0].setBits(62, 12, 1234);
    w[0].setBits(78, 1, 1);
    w[0].setBits(95, 16, 36);
    w[0].setBits(111, 17, static_cast<uint64_t>(-36) & 0x1ffff);
    w[1].setBits(16, 17, static_cast<uint64_t>(-36) & 0x1ffff);
    w[1].setBits(49, 17, static_cast<uint64_t>(-36) & 0x1ffff);
    w[1].setBits(88, 11, 37);
    w[1].setBits(82, 4, 1);
    return w;
  }
  // The execution-only receive form (w2[123:122] = 3, lle_fields.def Recv11ExecutionForm).
  DecodedPacket executionOnly(DecodedPacket receive) {
    storage_.back()[2].setBits(122, 2, 3);
    return receive;
  }
  // A 0x14 on tile 5 copying `copied` whose nest writes `groups` + 1 units (its group loop on, wrap -limit).
  DecodedPacket writeOf(const std::vector<isa::Word128>& copied, uint64_t groups) {
    DecodedPacket write = make(0x14, 0x20, &copied);
    auto& words = storage_.back();
    const LleFieldDef& g = fieldDef(LleField::Stage14Groups);
    const LleFieldDef& w = fieldDef(LleField::Stage14WrapC);
    words[g.lsb / 128].setBits(g.lsb % 128, g.width, groups);
    words[w.lsb / 128].setBits(w.lsb % 128, w.width, (uint64_t{1} << w.width) - groups);
    const LleFieldDef& on = fieldDef(LleField::Stage14LoopOn);
    words[on.lsb / 128].setBits(on.lsb % 128, 1, 1);
    return write;
  }
  static constexpr const char* kPinned = "the envelope's refusal";

  std::vector<std::vector<isa::Word128>> storage_;
  uint32_t pc_ = 0x40;
};

TEST_F(PartnerCopyWatchTest, AWriteOutsideTheEnvelopeWaitsPerTileForTheReceiveWhoseBitsItCopies) {
  const std::vector<isa::Word128> copied = copiedBits();
  PartnerCopyWatch watch;
  // Two writes, tiles 1 and 2, then a fence (moves no data), then one receive on both.
  const DecodedPacket first = make(0x14, 0x2, &copied);
  const DecodedPacket second = make(0x14, 0x4, &copied);
  ASSERT_NE(checkEnvelope(first), "");
  ASSERT_EQ(checkEnvelope(first, EnvelopeSet::kShipped, PartnerBits::kComparedWithPartner), "");
  EXPECT_EQ(watch.observe(first, checkEnvelope(first)), "");
  EXPECT_EQ(watch.observe(second, checkEnvelope(second)), "");
  EXPECT_TRUE(watch.waiting(1));
  EXPECT_TRUE(watch.waiting(2));
  EXPECT_FALSE(watch.waiting(0));
  EXPECT_NE(watch.finish().find("none comes before the chunk ends"), std::string::npos) << watch.finish();
  EXPECT_EQ(watch.observe(make(0x1a, 0xffff), ""), "");
  EXPECT_EQ(watch.observe(make(0x11, 0x6, &copied), ""), "");
  EXPECT_FALSE(watch.waiting(1));
  EXPECT_FALSE(watch.waiting(2));
  EXPECT_EQ(watch.finish(), "");
}

TEST_F(PartnerCopyWatchTest, AReceiveWithOtherBitsOrAnotherPacketFirstRefusesTheWrite) {
  const std::vector<isa::Word128> copied = copiedBits();
  {
    PartnerCopyWatch watch;
    const DecodedPacket write = make(0x14, 0x8, &copied);
    ASSERT_EQ(watch.observe(write, kPinned), "");
    std::vector<isa::Word128> other = copied;
    other[0].setBits(95, 16, 35);  // the loop one shorter
    other[1].setBits(88, 11, 36);
    const std::string why = watch.observe(make(0x11, 0x8, &other), "");
    EXPECT_NE(why.find("Stage14PartnerW0 (word 0 bits 127:62) differs in bits 97:95"), std::string::npos) << why;
    EXPECT_NE(why.find("Stage14PartnerW1 (word 1 bits 127:0) differs in bits 88"), std::string::npos) << why;
    EXPECT_NE(why.find("PC 0x"), std::string::npos) << why;
  }
  {
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(make(0x14, 0x3, &copied), kPinned), "");
    EXPECT_EQ(watch.observe(make(0x11, 0x1, &copied), ""), "");  // tile 0 paired
    const std::string why = watch.observe(make(0x01, 0x2), "");  // tile 1 gets a compute first
    EXPECT_NE(why.find(kPinned), std::string::npos) << why;
    EXPECT_NE(why.find("need a 0x11 next on tile 1, where opcode 0x01"), std::string::npos) << why;
  }
  {
    // The pairing gives the receive's bits no meaning: its own envelope's refusal stands.
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(make(0x14, 0x1, &copied), kPinned), "");
    EXPECT_EQ(watch.observe(make(0x11, 0x1, &copied), "the receive's own refusal"), "the receive's own refusal");
  }
  {
    // A write inside the envelope needs no partner: its copied bits are the templates' values.
    PartnerCopyWatch watch;
    const DecodedPacket plain = make(0x14, 0x1);
    ASSERT_EQ(checkEnvelope(plain), "");
    EXPECT_EQ(watch.observe(plain, checkEnvelope(plain)), "");
    EXPECT_FALSE(watch.waiting(0));
  }
}

// A receive whose row loop runs once (limit 0) never applies its step, so a copy holding step 1 where
// the receive holds 0 agrees (lle_partner_idle_steps.def; docs/decoding-log.md "conv3"). Values no
// corpus pair has: tag 1234, a one-row loop, step 1 in the write and 0 in the receive; step 2, or a
// loop that counts, still refuse.
TEST_F(PartnerCopyWatchTest, AReceiveRunningItsLoopOnceMayHoldTheOtherStepThanItsCopy) {
  std::vector<isa::Word128> copied(2);
  copied[0].setBits(62, 12, 1234);
  copied[0].setBits(78, 1, 1);
  copied[1].setBits(88, 11, 1);
  copied[1].setBits(82, 4, 1);
  std::vector<isa::Word128> stepZero = copied;
  stepZero[1].setBits(82, 4, 0);
  {
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(make(0x14, 0x10, &copied), kPinned), "");
    EXPECT_EQ(watch.observe(make(0x11, 0x10, &stepZero), ""), "");
  }
  {
    std::vector<isa::Word128> stepTwo = copied;
    stepTwo[1].setBits(82, 4, 2);
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(make(0x14, 0x10, &copied), kPinned), "");
    const std::string why = watch.observe(make(0x11, 0x10, &stepTwo), "");
    EXPECT_NE(why.find("Stage14PartnerW1 (word 1 bits 127:0) differs in bits 83:82"), std::string::npos) << why;
  }
  {
    // The same step difference in a loop of 2 rows: the step is applied, the copy must agree.
    std::vector<isa::Word128> counting = copied;
    counting[0].setBits(95, 16, 1);
    counting[0].setBits(111, 17, static_cast<uint64_t>(-1) & 0x1ffff);
    std::vector<isa::Word128> countingStepZero = counting;
    countingStepZero[1].setBits(82, 4, 0);
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(make(0x14, 0x10, &counting), kPinned), "");
    const std::string why = watch.observe(make(0x11, 0x10, &countingStepZero), "");
    EXPECT_NE(why.find("Stage14PartnerW1 (word 1 bits 127:0) differs in bits 82"), std::string::npos) << why;
  }
}

// The execution-only receive's flag A (Recv11ExecFlagA, w1 bit 86) goes with its run's loop as the step does
// (lle_partner_idle_steps.def; docs/decoding-log.md "misc"): where the run is 0 (the loop runs once) a copy may hold
// the other flag; where the run counts it must restate it. Values no corpus pair has: tag 1234, count 1, the copy's
// flag 1 against the receive's 0, run 0 and run 2.
TEST_F(PartnerCopyWatchTest, AnExecutionOnlyReceiveRunningOnceMayHoldTheOtherFlagAThanItsCopy) {
  const auto pair = [&](uint64_t run) {
    std::vector<isa::Word128> copied(2);
    copied[0].setBits(62, 12, 1234);
    copied[0].setBits(78, 1, 1);
    copied[0].setBits(95, 16, run);
    copied[0].setBits(111, 17, static_cast<uint64_t>(-static_cast<int64_t>(run)) & 0x1ffff);
    copied[1].setBits(88, 11, 1);
    std::vector<isa::Word128> flagClear = copied;
    copied[1].setBits(86, 1, 1);
    PartnerCopyWatch watch;
    EXPECT_EQ(watch.observe(make(0x14, 0x10, &copied), kPinned), "");
    return watch.observe(executionOnly(make(0x11, 0x10, &flagClear)), "");
  };
  EXPECT_EQ(pair(0), "");
  const std::string counting = pair(2);
  EXPECT_NE(counting.find("Stage14PartnerW1 (word 1 bits 127:0) differs in bits 86 (the 0x11's Recv11ExecFlagA)"), std::string::npos)
      << counting;
}

// A copy holds its receive's wait count or 0 (lle_partner_waits.def; docs/decoding-log.md "templates" §A):
// the count is a wait, not a transfer. Values no corpus pair has: a 37-iteration run (copiedBits) whose
// receive waits for 37, 5 or 1000 transfers, the copy holding 0; a copy holding 3 is refused, as is a count
// 0 in a parameter-form receive (no wait field there: its w1[98:82] is the row step).
TEST_F(PartnerCopyWatchTest, ACopyMayHoldNoWaitWhereItsReceiveWaits) {
  std::vector<isa::Word128> noWait = copiedBits();
  noWait[1].setBits(88, 11, 0);
  for (const uint64_t count : {37u, 5u, 1000u}) {
    std::vector<isa::Word128> waiting = copiedBits();
    waiting[1].setBits(88, 11, count);
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(make(0x14, 0x3, &noWait), kPinned), "");
    EXPECT_EQ(watch.observe(executionOnly(make(0x11, 0x3, &waiting)), ""), "") << "count " << count;
  }
  {
    std::vector<isa::Word128> three = copiedBits();
    three[1].setBits(88, 11, 3);
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(make(0x14, 0x3, &three), kPinned), "");
    const std::string why = watch.observe(executionOnly(make(0x11, 0x3, &noWait)), "");
    EXPECT_NE(why.find("differs in bits 89:88 (the 0x11's Recv11ExecCount)"), std::string::npos) << why;
  }
  {
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(make(0x14, 0x3, &noWait), kPinned), "");
    const std::vector<isa::Word128> parameterForm = copiedBits();
    const std::string why = watch.observe(make(0x11, 0x3, &parameterForm), "");
    EXPECT_NE(why.find("Stage14PartnerW1 (word 1 bits 127:0) differs in bits 93, 90, 88"), std::string::npos) << why;
  }
}

// The refusal says what the differing copied bits are in the receive ("add128" §A): an execution-only
// receive whose run is one unit shorter (35 for the copy's 36) and whose tag is one higher differs from
// the copy in w0 bits 97:95 (Recv11ExecRun) and 62 (the stream tag w0[73:62], Recv11ExecStream,
// "conv32run" §A).
TEST_F(PartnerCopyWatchTest, ADisagreementNamesTheReceiveFieldsTheDifferingBitsBelongTo) {
  const std::vector<isa::Word128> copied = copiedBits();
  std::vector<isa::Word128> other = copied;
  other[0].setBits(95, 16, 35);
  other[0].setBits(62, 12, 1235);
  PartnerCopyWatch watch;
  const DecodedPacket write = make(0x14, 0x1, &copied);
  ASSERT_EQ(watch.observe(write, checkEnvelope(write)), "");
  const DecodedPacket receive = make(0x11, 0x1, &other);
  storage_.back()[2].setBits(122, 2, 3);  // the execution-only form, whose loop nest is declared
  const std::string why = watch.observe(receive, "");
  EXPECT_NE(why.find("Stage14PartnerW0 (word 0 bits 127:62) differs in bits 97:95, 62 (the 0x11's Recv11ExecRun, "
                     "Recv11ExecStream)"),
            std::string::npos)
      << why;
}

// A receive without an inner level (w0 bit 78 clear) holds its one loop, the run, at level 0; a copy with an
// inner level (bit 78 set) holds the same run one level up, above a level 0 that runs once (count 1, step 1,
// flag 1) (docs/decoding-log.md "win14"). Values no corpus pair has: tag 1234 and a run of 9 (limit 8; the
// corpus has 3, 4 and 63). The run held at level 2, another run, or a receive outside the run-only state
// (count 2) refuse, naming the bits; and a copy without an inner level still compares bit for bit.
TEST_F(PartnerCopyWatchTest, AWriteWithAnInnerLevelHoldsTheRunOfAReceiveWithoutOneALevelUp) {
  std::vector<isa::Word128> receive(2);
  // (The receives are of the execution-only form and their writes' nests write 9 x 256 bytes: see below.)
  receive[0].setBits(62, 12, 1234);
  receive[0].setBits(95, 16, 8);  // the run: 9 iterations at level 0
  receive[1].setBits(88, 11, 1);
  std::vector<isa::Word128> copy(2);
  copy[0].setBits(62, 12, 1234);
  copy[0].setBits(78, 1, 1);
  copy[1].setBits(0, 16, 8);  // the run at level 1
  copy[1].setBits(82, 4, 1);
  copy[1].setBits(86, 1, 1);
  copy[1].setBits(88, 11, 1);
  const auto refusal = [&](const std::vector<isa::Word128>& write, const std::vector<isa::Word128>& partner) {
    PartnerCopyWatch watch;
    EXPECT_EQ(watch.observe(writeOf(write, 575), kPinned), "");
    return watch.observe(executionOnly(make(0x11, 0x20, &partner)), "");
  };
  EXPECT_EQ(refusal(copy, receive), "");
  EXPECT_EQ(readField(copy, LleField::Stage14CopyLimit, 1), 8u);
  {
    std::vector<isa::Word128> levelTwo = copy;  // the run one level too high
    levelTwo[1].setBits(0, 16, 0);
    levelTwo[1].setBits(33, 16, 8);
    const std::string why = refusal(levelTwo, receive);
    EXPECT_NE(why.find("Stage14PartnerW1 (word 1 bits 127:0) differs in bits 36, 3"), std::string::npos) << why;
  }
  {
    std::vector<isa::Word128> otherRun = receive;
    otherRun[0].setBits(95, 16, 9);
    const std::string why = refusal(copy, otherRun);
    EXPECT_NE(why.find("Stage14PartnerW1 (word 1 bits 127:0) differs in bits 0 ("), std::string::npos) << why;
  }
  {
    std::vector<isa::Word128> countTwo = receive;  // not the run-only state: compared as it stands
    countTwo[1].setBits(88, 11, 2);
    const std::string why = refusal(copy, countTwo);
    EXPECT_NE(why.find("Stage14PartnerW0 (word 0 bits 127:62) differs in bits 98, 78 ("), std::string::npos) << why;
  }
  {
    // A level-1 copy whose flag is 0 (never seen): its level 0 runs once, so the flag A it holds there is not applied
    // and agrees either way (lle_partner_idle_steps.def Recv11ExecFlagA; docs/decoding-log.md "misc").
    std::vector<isa::Word128> flagClear = copy;
    flagClear[1].setBits(86, 1, 0);
    EXPECT_EQ(refusal(flagClear, receive), "");
  }
  // Without an inner level the copy is the receive bit for bit.
  EXPECT_EQ(refusal(receive, receive), "");
  const std::string why = refusal(receive, copy);
  EXPECT_NE(why.find("Stage14PartnerW0 (word 0 bits 127:62) differs in bits 98, 78 ("), std::string::npos) << why;
}

// A receive without an inner level takes Recv11ExecRun + 1 rows of 256 bytes: what the write copying it puts on
// its tile (docs/decoding-log.md "win14" §B). A run of 9 rows (no corpus run) against writes of 576 units (2,304
// bytes: agrees) and of 512 units (refused, naming the run, the rows and the bytes); a receive of the parameter form
// is not held to it.
TEST_F(PartnerCopyWatchTest, AReceiveWithoutAnInnerLevelTakesTheBytesItsWriteWritesInRowsOf256) {
  std::vector<isa::Word128> receive(2);
  receive[0].setBits(62, 12, 1234);
  receive[0].setBits(95, 16, 8);
  receive[1].setBits(88, 11, 1);
  {
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(writeOf(receive, 575), kPinned), "");
    EXPECT_EQ(watch.observe(executionOnly(make(0x11, 0x20, &receive)), ""), "");
  }
  {
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(writeOf(receive, 511), kPinned), "");
    const std::string why = watch.observe(executionOnly(make(0x11, 0x20, &receive)), "");
    EXPECT_NE(why.find("Recv11ExecRun = 8 (9 rows of 256 bytes) where the write copying it puts 2048 bytes"),
              std::string::npos) << why;
    EXPECT_NE(why.find("opcode 0x11"), std::string::npos) << why;
  }
  {
    std::vector<isa::Word128> innerLevel = receive;  // the inner level's loops are not decoded: not held to it
    innerLevel[0].setBits(78, 1, 1);
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(writeOf(innerLevel, 511), kPinned), "");
    EXPECT_EQ(watch.observe(executionOnly(make(0x11, 0x20, &innerLevel)), ""), "");
  }
  {
    PartnerCopyWatch watch;
    ASSERT_EQ(watch.observe(writeOf(receive, 511), kPinned), "");
    EXPECT_EQ(watch.observe(make(0x11, 0x20, &receive), ""), "");
  }
}

}  // namespace
}  // namespace coralsim::lle::lle_partner_copy_test
