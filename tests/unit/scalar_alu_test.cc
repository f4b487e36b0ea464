// The scalar core's data path: every ALU op of alu_ops.def in register and immediate form with
// edge values, predication, VLIW read-before-write, load/store forms and memory faults.
// Expected values are worked out by hand from docs/isa.md §3.3 (and IEEE-754 for the float ops).
#include <gtest/gtest.h>

#include <cstdio>
#include <ostream>
#include <set>
#include <string>

#include "tests/unit/scalar_test_support.h"

namespace coralsim::models::scalar_alu_test {
namespace {

using testing::faultMessage;
using testing::programWithBody;
using testing::RecordingHost;
using testing::runBody;

constexpr uint32_t kMemoryWords = 4096;

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

struct AluCase {
  const char* op;
  uint32_t a;
  uint32_t b;
  uint32_t expected;  // the predicate value (0/1) for compares
};

enum class Shape { Binary, Unary, Compare };

Shape shapeOf(const std::string& op) {
  if (op == "mov" || op == "i2f" || op == "f2i") return Shape::Unary;
  if (op == "eq" || op == "ne" || op == "gt" || op == "lt" || op == "ge" || op == "geu") return Shape::Compare;
  return Shape::Binary;
}

const AluCase kAluCases[] = {
    {"add", 5, 7, 12},
    {"add", 0xffffffff, 1, 0},                    // wraps mod 2^32
    {"add", 0x7fffffff, 1, 0x80000000},           // no signed saturation
    {"sub", 0, 1, 0xffffffff},
    {"sub", 0x80000000, 1, 0x7fffffff},
    {"and", 0xf0f0f0f0, 0xff00ff00, 0xf000f000},
    {"or", 0xf0f0f0f0, 0x0f000000, 0xfff0f0f0},
    {"xor", 0xffff0000, 0xff00ff00, 0x00ffff00},
    {"shl", 1, 31, 0x80000000},
    {"shl", 1, 32, 1},                            // shift counts are masked to 5 bits
    {"shl", 3, 33, 6},
    {"shl", 1, 0xffffffe1, 2},
    {"shr", 0x80000000, 31, 1},                   // logical
    {"shr", 0x80000000, 32, 0x80000000},
    {"shr", 0xf0000000, 36, 0x0f000000},
    {"sar", 0x80000000, 31, 0xffffffff},          // arithmetic
    {"sar", 0x80000000, 4, 0xf8000000},
    {"sar", 0x40000000, 33, 0x20000000},
    {"eq", 5, 5, 1},
    {"eq", 5, 6, 0},
    {"ne", 5, 5, 0},
    {"ne", 5, 6, 1},
    {"gt", 0xffffffff, 1, 0},                     // signed: -1 > 1 is false
    {"gt", 1, 0xffffffff, 1},
    {"gt", 5, 5, 0},
    {"gt", 0x7fffffff, 0x80000000, 1},
    {"lt", 0xffffffff, 0, 1},                     // signed: -1 < 0 (the carry idiom)
    {"lt", 0, 0xffffffff, 0},
    {"lt", 5, 5, 0},
    {"ge", 5, 5, 1},
    {"ge", 0x80000000, 0x7fffffff, 0},
    {"ge", 0, 0xffffffff, 1},
    {"geu", 0xffffffff, 1, 1},                    // unsigned
    {"geu", 1, 0xffffffff, 0},
    {"geu", 5, 5, 1},
    {"mov", 0x1234, 0xdeadbeef, 0xdeadbeef},
    {"i2f", 0, 0xfffffffd, 0xc0400000},           // -3 -> -3.0f
    {"i2f", 0, 0, 0},
    {"i2f", 0, 16777217, 0x4b800000},             // 2^24 + 1 rounds to 2^24
    {"i2f", 0, 0x7fffffff, 0x4f000000},           // -> 2^31
    {"f2i", 0, 0xc0600000, 0xfffffffd},           // -3.5 truncates to -3
    {"f2i", 0, 0x4039999a, 2},                    // 2.9 -> 2
    {"f2i", 0, 0xbf000000, 0},                    // -0.5 -> 0
    {"f2i", 0, 0x501502f9, 0x7fffffff},           // 1e10 saturates [choice]
    {"f2i", 0, 0xd01502f9, 0x80000000},           // -1e10 saturates [choice]
    {"f2i", 0, 0x7fc00000, 0},                    // NaN -> 0 [choice]
    {"fadd", 0x3fc00000, 0x40100000, 0x40700000}, // 1.5 + 2.25 = 3.75
    {"fsub", 0x3fc00000, 0x40100000, 0xbf400000}, // 1.5 - 2.25 = -0.75
    {"fmul", 0x40400000, 0x41e00000, 0x42a80000}, // 3.0 * 28.0 = 84.0
    {"fmul", 0xc0000000, 0x3f000000, 0xbf800000}, // -2.0 * 0.5 = -1.0
    {"fmax", 0xbf800000, 0x40000000, 0x40000000}, // max(-1, 2) = 2
    {"fmax", 0xff800000, 0x3f800000, 0x3f800000}, // max(-inf, 1) = 1 (the softmax running max)
    {"fmax", 0x7fc00000, 0x3f800000, 0x3f800000}, // NaN operand: the other one [choice]
    {"fmin", 0xbf800000, 0x40000000, 0xbf800000},
    {"fmin", 0x43960000, 0x437f0000, 0x437f0000}, // min(300, 255) = 255 (the softmax clamp)
};

void PrintTo(const AluCase& c, std::ostream* os) {
  *os << c.op << "(a=" << hex(c.a) << ", src=" << hex(c.b) << ") -> " << hex(c.expected);
}

class AluOpTest : public ::testing::TestWithParam<AluCase> {};

TEST_P(AluOpTest, RegisterAndImmediateFormsAgree) {
  const AluCase& c = GetParam();
  const Shape shape = shapeOf(c.op);
  const std::string dest = shape == Shape::Compare ? "p3" : "s3";
  const std::string setup = "s1 = mov " + hex(c.a) + "\ns2 = mov " + hex(c.b) + "\n";
  const std::string regForm = shape == Shape::Unary ? dest + " = " + c.op + " s2" : dest + " = " + c.op + " s1, s2";
  const std::string immForm =
      shape == Shape::Unary ? dest + " = " + c.op + " " + hex(c.b) : dest + " = " + c.op + " s1, " + hex(c.b);

  for (const std::string& form : {regForm, immForm}) {
    SCOPED_TRACE(form + "  (a=" + hex(c.a) + ", src=" + hex(c.b) + ")");
    ScalarEngine engine(kMemoryWords);
    RecordingHost host;
    ASSERT_EQ(runBody(engine, host, setup + form), StopReason::kFinalHalt);
    const ScalarState& s = engine.state();
    if (shape == Shape::Compare) {
      EXPECT_EQ(s.predicate[3], c.expected != 0);
      EXPECT_EQ(s.scalar[3], 0u) << "a compare writes only its predicate";
    } else {
      EXPECT_EQ(s.scalar[3], c.expected);
    }
    EXPECT_EQ(s.scalar[1], c.a) << "sources are not modified";
    EXPECT_EQ(s.scalar[2], c.b);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryOp, AluOpTest, ::testing::ValuesIn(kAluCases),
                         [](const ::testing::TestParamInfo<AluCase>& param) {
                           return std::string(param.param.op) + "_" + std::to_string(param.index);
                         });

// Every named op of the table has at least one case above.
TEST(ScalarAlu, EveryTableOpIsCovered) {
  std::set<std::string> covered;
  for (const AluCase& c : kAluCases) covered.insert(c.op);
  for (const isa::AluOpInfo& info : isa::kAluOpTable) {
    if (info.mnemonic.empty()) continue;
    EXPECT_TRUE(covered.count(std::string(info.mnemonic))) << "no test case for ALU op " << info.mnemonic;
  }
}

TEST(ScalarAlu, CompareWritesPredicateDestModulo8) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  ASSERT_EQ(runBody(engine, host, "s1 = mov 0x4\np11 = eq s1, 0x4\np31 = ne s1, 0x4\n"), StopReason::kFinalHalt);
  EXPECT_TRUE(engine.state().predicate[3]);   // 11 & 7
  EXPECT_FALSE(engine.state().predicate[7]);  // 31 & 7
}

TEST(ScalarAlu, NeOfARegisterWithItselfClearsThePredicate) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  engine.state().predicate[1] = true;
  ASSERT_EQ(runBody(engine, host, "s5 = mov 0x1234\np1 = ne s5, s5\n"), StopReason::kFinalHalt);
  EXPECT_FALSE(engine.state().predicate[1]);
}

TEST(ScalarAlu, UnknownOpsFaultNamingOpPcAndWord) {
  for (const char* body : {"s1 = alu.0x17 s2, s3", "s1 = alu.0x1f s2, 0x5", "s1 = alu.0x00 s2, 0x5"}) {
    SCOPED_TRACE(body);
    ScalarEngine engine(kMemoryWords);
    RecordingHost host;
    engine.load(programWithBody(std::string("s4 = mov 0x9\n") + body + "\n"));
    const std::string message = faultMessage([&] { (void)engine.run(1000, host); });
    EXPECT_NE(message.find("PC 0x0002"), std::string::npos) << message;
    EXPECT_NE(message.find("(word 0x"), std::string::npos) << message;
    EXPECT_NE(message.find("ALU op 0x"), std::string::npos) << message;
    EXPECT_EQ(engine.pc(), 2u);
    EXPECT_EQ(engine.state().scalar[4], 9u) << "the bundle before ran";
    EXPECT_EQ(engine.state().scalar[1], 0u);
  }
}

TEST(ScalarAlu, UnknownStoreOpFaults) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  engine.load(programWithBody("st.op9 0x12, s1\n"));
  const std::string message = faultMessage([&] { (void)engine.run(1000, host); });
  EXPECT_NE(message.find("store-slot op 9"), std::string::npos) << message;
  EXPECT_NE(message.find("PC 0x0001"), std::string::npos) << message;
}

// The special-function slot (bits 127:102) has unknown semantics; the core runs it as a no-op.
TEST(ScalarAlu, SpecialFunctionSlotIsANoOp) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  ASSERT_EQ(runBody(engine, host, "s1 = mov 0x3\nhi=0xa53\ns2 = mov s1\n"), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[2], 3u);
}

// ---- predication ----------------------------------------------------------------------------------

TEST(ScalarPredication, PolarityBothWays) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "s1 = mov 0x1\n"
      "p0 = eq s1, 0x1\n"    // p0 = true
      "p7 = eq s1, 0x2\n"    // p7 = false
      "(p0) s2 = mov 0x11\n"   // runs
      "(!p0) s3 = mov 0x22\n"  // skipped
      "(p7) s4 = mov 0x33\n"   // skipped
      "(!p7) s5 = mov 0x44\n"; // runs
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  const ScalarState& s = engine.state();
  EXPECT_EQ(s.scalar[2], 0x11u);
  EXPECT_EQ(s.scalar[3], 0u);
  EXPECT_EQ(s.scalar[4], 0u);
  EXPECT_EQ(s.scalar[5], 0x44u);
}

TEST(ScalarPredication, PredicatedOffBundlesHaveNoEffectAtAll) {
  ScalarEngine small(64);  // (p0) loads/stores below use addresses outside this memory
  RecordingHost host;
  const char* body =
      "s1 = mov 0x7\n"
      "s4 = mov 0x10\n"
      "p0 = ne s1, s1\n"  // p0 = false
      "(p0) s2 = mov 0x5 ; s3 = ld [s4], s4 += 1 ; mem[0x20] = s1\n"
      "(p0) stream s1\n"
      "(p0) desc[0] = s1\n"
      "(p0) push\n"
      "(p0) mem[s4] = s1, s4 += 2\n"
      "(p0) s5 = ld [0xfff]\n"           // would fault if it ran
      "(p0) s6 = alu.0x17 s1, s1\n"      // would fault if it ran
      "(p0) p1 = eq s1, s1\n";
  ASSERT_EQ(runBody(small, host, body), StopReason::kFinalHalt);
  const ScalarState& s = small.state();
  EXPECT_EQ(s.scalar[2], 0u);
  EXPECT_EQ(s.scalar[3], 0u);
  EXPECT_EQ(s.scalar[4], 0x10u);
  EXPECT_EQ(s.memory[0x20], 0u);
  EXPECT_EQ(s.memory[0x10], 0u);
  EXPECT_EQ(s.descriptorWords[0], 0u);
  EXPECT_FALSE(s.predicate[1]);
  EXPECT_TRUE(host.stream.empty());
  EXPECT_TRUE(host.descriptors.empty());
  // They still take their issue cycle: 3 + 8 bundles + HALT.
  EXPECT_EQ(small.cycles(), 12u);
  EXPECT_EQ(small.bundlesExecuted(), 11u);
}

// ---- VLIW: every slot reads the state from before the bundle --------------------------------------

TEST(ScalarVliw, SlotsReadTheStateFromBeforeTheBundle) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "s1 = mov 0x5\n"
      "s2 = mov 0x9\n"
      "mem[0x9] = s2\n"
      "s1 = mov s2 ; mem[0x40] = s1\n"      // the store sees s1 = 5; s1 becomes 9
      "s2 = add s2, 0x1 ; desc[0] = s2\n"   // DESC[0] = 9 (old s2); s2 = 10
      "s8 = mov 0x100 ; desc[1] = s8\n"     // docs/isa.md §3.2: DESC[1] gets the old s8 (0) ...
      "desc[2] = s8\n"                      // ... and the next bundle reads 0x100
      "s3 = mov 0x2a\n"
      "s4 = mov 0x30\n"
      "s5 = ld [s4], s4 += 1 ; mem[s4] = s3\n"  // the store address is the old s4 (0x30)
      "s6 = mov s1 ; stream s6\n"           // streams the old s6 (0)
      "s7 = ld [s1] ; s1 = mov 0x0\n";      // the load address is the old s1 (9) -> 9
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  const ScalarState& s = engine.state();
  EXPECT_EQ(s.memory[0x40], 5u);
  EXPECT_EQ(s.descriptorWords[0], 9u);
  EXPECT_EQ(s.scalar[2], 10u);
  EXPECT_EQ(s.descriptorWords[1], 0u);
  EXPECT_EQ(s.descriptorWords[2], 0x100u);
  EXPECT_EQ(s.memory[0x30], 0x2au);
  EXPECT_EQ(s.scalar[5], 0u) << "the load read memory before the store of the same bundle";
  EXPECT_EQ(s.scalar[4], 0x31u);
  ASSERT_EQ(host.stream.size(), 1u);
  EXPECT_EQ(host.stream[0], 0u);
  EXPECT_EQ(s.scalar[6], 9u);
  EXPECT_EQ(s.scalar[7], 9u);
  EXPECT_EQ(s.scalar[1], 0u);
}

TEST(ScalarVliw, SwapThroughTwoSlots) {
  // s1 <- s2 through the ALU while s2 <- old s1 through memory written in the same bundle's
  // predecessor: the classic swap needs the pre-bundle read of s2 by the ALU.
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "s1 = mov 0x111\n"
      "s2 = mov 0x222\n"
      "mem[0x50] = s1\n"
      "s1 = mov s2 ; s2 = ld [0x50]\n";
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[1], 0x222u);
  EXPECT_EQ(engine.state().scalar[2], 0x111u);
}

TEST(ScalarVliw, SameRegisterWrittenByTwoSlotsLaterSlotWins) {
  // [choice] commit order: ALU, load, load post-increment, store post-increment.
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "s9 = mov 0x77\n"
      "mem[0x10] = s9\n"
      "s3 = mov 0x1 ; s3 = ld [0x10]\n"               // load beats ALU
      "s4 = mov 0x10\n"
      "s4 = mov 0x1 ; s5 = ld [s4], s4 += 1\n"        // post-increment beats ALU: 0x11
      "s6 = ld [s4], s4 += 1 ; mem[s4] = s9, s4 += 4\n";  // store post-increment wins: 0x15
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().scalar[3], 0x77u);
  EXPECT_EQ(engine.state().scalar[5], 0x77u);
  EXPECT_EQ(engine.state().scalar[4], 0x15u);
}

// ---- load / store slots ---------------------------------------------------------------------------

TEST(ScalarMemory, LoadAndStoreForms) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "s4 = mov 0x100\n"
      "s5 = mov 0xabc\n"
      "mem[0x100] = s5\n"          // store absolute
      "s6 = ld [0x100]\n"          // load absolute
      "mem[s4] = s6, s4 += 3\n"    // store indirect + post-increment
      "s7 = mov 0x77\n"
      "mem[s4] = s7\n"             // store indirect (0x103)
      "s8 = ld [s4]\n"             // load indirect
      "s9 = mov 0x100\n"
      "s10 = ld [s9], s9 += 3\n"   // load indirect + post-increment
      "s11 = ld [s9], s9 += 1\n"
      "mem[0xfff] = s7 ; s12 = ld [0xfff]\n"  // the top word; the load sees the old value
      "s13 = ld [0xfff]\n";
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  const ScalarState& s = engine.state();
  EXPECT_EQ(s.scalar[6], 0xabcu);
  EXPECT_EQ(s.scalar[4], 0x103u);
  EXPECT_EQ(s.memory[0x100], 0xabcu);
  EXPECT_EQ(s.memory[0x103], 0x77u);
  EXPECT_EQ(s.scalar[8], 0x77u);
  EXPECT_EQ(s.scalar[10], 0xabcu);
  EXPECT_EQ(s.scalar[11], 0x77u);
  EXPECT_EQ(s.scalar[9], 0x104u);
  EXPECT_EQ(s.scalar[12], 0u);
  EXPECT_EQ(s.scalar[13], 0x77u);
}

TEST(ScalarMemory, StreamWordAndDescriptorPush) {
  ScalarEngine engine(kMemoryWords);
  RecordingHost host;
  const char* body =
      "s1 = mov 0x1000\n"
      "s2 = mov 0x7f\n"
      "s3 = mov 0x40\n"
      "s4 = mov 0x13\n"  // only the low nibble is the tag
      "desc[0] = s1\n"
      "desc[1] = s2\n"
      "desc[2] = s3\n"
      "desc[3] = s4\n"
      "push\n"
      "s5 = mov 0xcafef00d\n"
      "stream s5\n"
      "stream s1\n";
  ASSERT_EQ(runBody(engine, host, body), StopReason::kFinalHalt);
  ASSERT_EQ(host.descriptors.size(), 1u);
  EXPECT_EQ(host.descriptors[0].address, 0x7f00001000u);
  EXPECT_EQ(host.descriptors[0].length, 0x40u);
  EXPECT_EQ(host.descriptors[0].tag, 3u);
  EXPECT_EQ(host.descriptorCycles[0], 8u) << "the push is the 9th bundle: it issues at cycle 8";
  EXPECT_EQ(host.stream, (std::vector<uint32_t>{0xcafef00d, 0x1000}));
  EXPECT_EQ(host.streamCycles, (std::vector<uint64_t>{10, 11}));
}

struct OutOfRange {
  const char* name;
  const char* setup;
  const char* faulting;
};

TEST(ScalarMemory, AddressesOutsideScalarMemoryFaultWithoutEffects) {
  const OutOfRange cases[] = {
      {"load absolute", "", "s2 = mov 0x5 ; s3 = ld [0x400]"},
      {"load indirect", "s1 = mov 0xffffffff\n", "s2 = mov 0x5 ; s3 = ld [s1]"},
      {"load post-increment", "s1 = mov 0x400\n", "s2 = mov 0x5 ; s3 = ld [s1], s1 += 1"},
      {"store absolute", "", "s2 = mov 0x5 ; mem[0x1000] = s2"},
      {"store indirect", "s1 = mov 0x400\n", "s2 = mov 0x5 ; mem[s1] = s2"},
      {"store post-increment", "s1 = mov 0x80000000\n", "s2 = mov 0x5 ; mem[s1] = s2, s1 += 1"},
  };
  for (const OutOfRange& c : cases) {
    SCOPED_TRACE(c.name);
    ScalarEngine engine(1024);  // words 0..0x3ff
    RecordingHost host;
    const std::string body = std::string(c.setup) + "s9 = mov 0x1\n" + c.faulting + "\n";
    engine.load(programWithBody(body));
    const uint32_t faultPc = c.setup[0] ? 3 : 2;
    try {
      (void)engine.run(1000, host);
      ADD_FAILURE() << "no fault";
    } catch (const ScalarFault& e) {
      const std::string message = e.what();
      EXPECT_EQ(e.pc(), faultPc);
      EXPECT_NE(message.find("outside scalar memory (1024 words)"), std::string::npos) << message;
      EXPECT_NE(message.find("(word 0x"), std::string::npos) << message;
    }
    EXPECT_EQ(engine.pc(), faultPc);
    EXPECT_EQ(engine.state().scalar[9], 1u);
    EXPECT_EQ(engine.state().scalar[2], 0u) << "the faulting bundle has no effect";
    EXPECT_EQ(engine.state().scalar[3], 0u);
    EXPECT_EQ(engine.cycles(), faultPc - 1) << "the faulting bundle is not counted";
  }
}

TEST(ScalarMemory, SizeComesFromTheConstructor) {
  ScalarEngine engine(8192);
  RecordingHost host;
  EXPECT_EQ(engine.state().memory.size(), 8192u);
  ASSERT_EQ(runBody(engine, host, "s1 = mov 0x1\nmem[0x1fff] = s1\n"), StopReason::kFinalHalt);
  EXPECT_EQ(engine.state().memory[0x1fff], 1u);
}

}  // namespace
}  // namespace coralsim::models::scalar_alu_test
