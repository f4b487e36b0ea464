// Field extraction and the scalar-bundle decoder/encoder. Expected values are built with plain
// shifts at the bit positions docs/isa.md gives, not through the tables under test.
#include <gtest/gtest.h>

#include <random>

#include "models/isa/assembler.h"
#include "models/isa/bundle_syntax.h"
#include "models/isa/disassembler.h"
#include "models/isa/field.h"
#include "models/isa/number_text.h"
#include "models/isa/packet_fields.h"
#include "models/isa/packet_syntax.h"
#include "models/isa/scalar_bundle.h"

namespace coralsim::isa::isa_decode_test {
namespace {

// A 128-bit word from (hi, lo) halves, and a helper that ORs `value` in at bit `lsb` by hand.
Word128 word(uint64_t hi, uint64_t lo) { return Word128{lo, hi}; }
void put(Word128& w, unsigned lsb, uint64_t value) {
  for (unsigned b = 0; b < 64 && lsb + b < 128; ++b) {
    if (((value >> b) & 1) == 0) continue;
    if (lsb + b < 64) {
      w.lo |= uint64_t{1} << (lsb + b);
    } else {
      w.hi |= uint64_t{1} << (lsb + b - 64);
    }
  }
}

Word128 reassembleOne(const Word128& w) {
  const std::string text = formatBundle(w);
  const AssembledProgram p = assemble(text, "bundle");
  EXPECT_EQ(p.words.size(), 1u) << text;
  return p.words.empty() ? Word128{} : p.words[0];
}

TEST(IsaFields, ReadsAcrossTheSixtyFourBitBoundaryAndWordBoundaries) {
  const Word128 w = word(0x00000000000000abULL, 0xcd00000000000000ULL);
  EXPECT_EQ(w.bits(56, 16), 0xabcdu);
  std::vector<Word128> packet = {word(0xf000000000000000ULL, 0), word(0, 0x5)};
  // Bits 124..131 span word 0 (top nibble 0xf) and word 1 (low nibble 0x5).
  EXPECT_EQ(readPacketBits(packet, 124, 8), 0x5fu);
  writePacketBits(packet, 124, 8, 0x3c);
  EXPECT_EQ(packet[0].hi >> 60, 0xcu);
  EXPECT_EQ(packet[1].lo & 0xf, 0x3u);
  // Reading past the end is zero, never out of bounds.
  EXPECT_EQ(readPacketBits(packet, 250, 20), readPacketBits(packet, 250, 6));
  EXPECT_EQ(readPacketBits(packet, 1000, 32), 0u);
  writePacketBits(packet, 1000, 32, ~uint64_t{0});  // dropped
  EXPECT_EQ(signExtend(0x7fff, 15), -1);
  EXPECT_EQ(signExtend(0x3fff, 15), 0x3fff);
  EXPECT_EQ(signExtend(0x4000, 15), -0x4000);
}

TEST(IsaFields, GenericDecodeOfTheComputeEpilogue) {
  // Build a compute packet by hand: zp_in in w14[86:78], multiplier 1.0 in w15[60:29], upper clamp
  // 126 in w15[92:61], lower clamp -129 in w15[124:93], zp_out in w16[37:29] (docs/isa.md §4.2).
  std::vector<Word128> p(17);
  put(p[0], 6, 0x01);
  put(p[0], 12, 0x000f);
  put(p[0], 46, 13);
  put(p[14], 78, 127);
  put(p[15], 29, 0x3f800000);   // 1.0f
  put(p[15], 61, 0x42fc0000);   // 126.0f
  put(p[15], 93, 0xc3010000);   // -129.0f
  put(p[16], 29, 129);
  EXPECT_EQ(decodeField(*findPacketField(Opcode::TileCompute, "zp_in"), p), 127u);
  EXPECT_EQ(decodeField(*findPacketField(Opcode::TileCompute, "zp_out"), p), 129u);
  EXPECT_EQ(decodeField(*findPacketField(Opcode::TileCompute, "mult"), p), 0x3f800000u);
  EXPECT_EQ(decodeField(*findPacketField(Opcode::TileCompute, "clamp_hi"), p), 0x42fc0000u);
  EXPECT_EQ(decodeField(*findPacketField(Opcode::TileCompute, "clamp_lo"), p), 0xc3010000u);
  EXPECT_EQ(tileSequenceNumber(p[0]), 13u);
  const std::string text = formatPacketText(p);
  EXPECT_NE(text.find("mask=0x000f"), std::string::npos) << text;
  EXPECT_NE(text.find("seq=13"), std::string::npos) << text;
  EXPECT_NE(text.find("zp_in=127"), std::string::npos) << text;
  EXPECT_NE(text.find("zp_out=129"), std::string::npos) << text;
  EXPECT_NE(text.find("mult=1.0"), std::string::npos) << text;
  EXPECT_NE(text.find("clamp_hi=126.0"), std::string::npos) << text;
  EXPECT_NE(text.find("clamp_lo=-129.0"), std::string::npos) << text;
  EXPECT_EQ(text.find(" w"), std::string::npos) << "no residual bits expected: " << text;
  EXPECT_EQ(assemble(text).words, p);
}

TEST(IsaFields, NluTableFloatsStartAtBit62AndStraddleWords) {
  std::vector<Word128> p(13);
  put(p[0], 6, 0x19);
  // coef[0] = 128.0 at bit 62 (straddles the 64-bit half), coef[2] at bit 126 (straddles words).
  put(p[0], 62, 0x43000000);
  put(p[0], 126, 0x3f800000 & 0x3);  // low 2 bits of coef[2] in word 0
  put(p[1], 0, 0x3f800000 >> 2);
  const FieldDef* coef = findPacketField(Opcode::TileNlu, "coef");
  ASSERT_NE(coef, nullptr);
  EXPECT_EQ(decodeField(*coef, p, 0), 0x43000000u);
  EXPECT_EQ(decodeField(*coef, p, 2), 0x3f800000u);
  const std::string text = formatPacketText(p);
  EXPECT_NE(text.find("coef=[128.0,0.0,1.0,"), std::string::npos) << text;
  EXPECT_EQ(assemble(text).words, p);
}

TEST(IsaBundle, DecodesEverySlotAtTheDocumentedPositions) {
  Word128 w;
  put(w, 0, 1);            // gate
  put(w, 1, 3);            // p3
  put(w, 4, 1);            // polarity
  put(w, 6, 0x20);         // opcode
  put(w, 12, 3);           // load op 3
  put(w, 14, 7);           // load dest s7
  put(w, 19, 6 | (1 << 5));  // areg s6, inc 1
  put(w, 32, 5);           // store op 5 (descriptor word)
  put(w, 36, 2);           // k = 2
  put(w, 49, 8);           // src s8
  put(w, 54, 0x21);        // add, immediate
  put(w, 60, 1);           // dest s1
  put(w, 65, 2);           // srcA s2
  put(w, 70, 0x10);        // imm
  const ScalarBundle b = decodeBundle(w);
  EXPECT_EQ(b.gate, 1);
  EXPECT_EQ(b.pred, 3);
  EXPECT_EQ(b.polarity, 1);
  EXPECT_EQ(b.loadOp, 3);
  EXPECT_EQ(b.loadDest, 7);
  EXPECT_EQ(b.loadAddrReg(), 6);
  EXPECT_EQ(b.loadInc(), 1);
  EXPECT_EQ(b.storeOp, 5);
  EXPECT_EQ(b.descIndex(), 2);
  EXPECT_EQ(b.storeSrc, 8);
  EXPECT_EQ(b.aluOp, 0x21);
  EXPECT_EQ(b.aluDest, 1);
  EXPECT_EQ(b.aluSrcA, 2);
  EXPECT_EQ(b.aluImm, 0x10u);
  EXPECT_EQ(encodeBundle(b), w);
  EXPECT_EQ(formatBundle(w), "(p3) s1 = add s2, 0x10 ; s7 = ld [s6], s6 += 1 ; desc[2] = s8");
  EXPECT_EQ(reassembleOne(w), w);
}

TEST(IsaBundle, NopIsOpcode0x20WithEverySlotEmpty) {
  EXPECT_EQ(nopBundle(), word(0, 0x800));
  EXPECT_EQ(formatBundle(nopBundle()), "nop");
  EXPECT_EQ(assemble("nop").words, std::vector<Word128>{word(0, 0x800)});
}

TEST(IsaBundle, EveryAluOpInBothFormsDecodesPrintsAndReassembles) {
  for (unsigned op = 1; op < 64; ++op) {
    Word128 w;
    put(w, 6, 0x20);
    put(w, 54, op);
    put(w, 60, 5);
    put(w, 65, 9);
    put(w, 70, (op & 0x20) ? 0x3f800000 : 12);
    const ScalarBundle b = decodeBundle(w);
    EXPECT_EQ(b.aluOp, op);
    EXPECT_EQ(encodeBundle(b), w);
    const std::string text = formatBundle(w);
    SCOPED_TRACE(text);
    EXPECT_EQ(reassembleOne(w), w);
    const AluOpInfo& info = aluOpInfo(static_cast<uint8_t>(op));
    EXPECT_EQ(text.starts_with("p5 = "), info.dest == AluDest::Predicate);
    if (!(op & 0x20)) {
      EXPECT_NE(text.find("s12"), std::string::npos) << "register form names s[imm & 31]";
    }
    if (!info.mnemonic.empty()) {
      EXPECT_NE(text.find(std::string(" = ") + std::string(info.mnemonic) + " "), std::string::npos);
    }
  }
}

TEST(IsaBundle, EveryLoadAndStoreOpDecodesPrintsAndReassembles) {
  for (unsigned ld = 0; ld < 4; ++ld) {
    for (unsigned st = 0; st < 16; ++st) {
      Word128 w;
      put(w, 6, 0x20);
      put(w, 12, ld);
      put(w, 14, 3);
      put(w, 19, 0xabc);
      put(w, 32, st);
      put(w, 36, 0x1a5b);
      put(w, 49, 17);
      const ScalarBundle b = decodeBundle(w);
      EXPECT_EQ(b.loadOp, ld);
      EXPECT_EQ(b.storeOp, st);
      EXPECT_EQ(encodeBundle(b), w);
      SCOPED_TRACE(formatBundle(w));
      EXPECT_EQ(reassembleOne(w), w);
    }
  }
}

TEST(IsaBundle, TextOfTheDocumentedIdioms) {
  // docs/isa.md §3.7, written by hand and checked field by field.
  const auto words = assemble(
                         "p0 = lt s12, 0x0\n"
                         "(p0) s6 = add s6, 0x0\n"
                         "s8 = mov 0x100 ; desc[1] = s7\n"
                         "push\n"
                         "stream s7 ; s7 = ld [s6], s6 += 1\n"
                         "mem[s3] = s4, s3 += 1\n"
                         "s4 = fmul s3, 28.0\n")
                         .words;
  ASSERT_EQ(words.size(), 7u);
  const ScalarBundle lt = decodeBundle(words[0]);
  EXPECT_EQ(lt.aluOp, 0x2c);
  EXPECT_EQ(lt.aluDest, 0);
  EXPECT_EQ(lt.aluSrcA, 12);
  const ScalarBundle add = decodeBundle(words[1]);
  EXPECT_EQ(words[1].lo & 0x1f, 0x11u) << "predication low bits 0x11 = if p0";
  EXPECT_EQ(add.aluOp, 0x21);
  const ScalarBundle d = decodeBundle(words[2]);
  EXPECT_EQ(d.aluOp, 0x2f);
  EXPECT_EQ(d.aluImm, 0x100u);
  EXPECT_EQ(d.storeOp, 5);
  EXPECT_EQ(d.descIndex(), 1);
  EXPECT_EQ(d.storeSrc, 7);
  EXPECT_EQ(decodeBundle(words[3]).storeOp, 6);
  EXPECT_EQ(decodeBundle(words[4]).storeOp, 4);
  EXPECT_EQ(decodeBundle(words[4]).loadOp, 3);
  EXPECT_EQ(decodeBundle(words[5]).storeOp, 3);
  EXPECT_EQ(decodeBundle(words[5]).storeInc(), 1);
  EXPECT_EQ(decodeBundle(words[6]).aluOp, 0x34);
  EXPECT_EQ(decodeBundle(words[6]).aluImm, 0x41e00000u) << "28.0f";
}

TEST(IsaBundle, UnexpressedBitsSurviveAsExtra) {
  // Reserved bit 31, an ALU destination without an ALU op and a load address without a load.
  Word128 w = nopBundle();
  put(w, 31, 1);
  put(w, 60, 4);
  put(w, 19, 0x7ff);
  const std::string text = formatBundle(w);
  EXPECT_NE(text.find("extra=0x"), std::string::npos) << text;
  EXPECT_EQ(reassembleOne(w), w);
  // Bits 127:102 print as hi= (the special-function slot seen in softmax loops).
  Word128 h = nopBundle();
  put(h, 102, 0xa53);
  EXPECT_EQ(formatBundle(h), "hi=0xa53");
  EXPECT_EQ(reassembleOne(h), h);
}

TEST(IsaBundle, RandomWordsRoundTripThroughText) {
  std::mt19937_64 rng(20240601);
  for (int i = 0; i < 20000; ++i) {
    Word128 w{rng(), rng()};
    w.setBits(6, 6, 0x20);
    ASSERT_EQ(encodeBundle(decodeBundle(w)), w);
    ASSERT_EQ(reassembleOne(w), w) << formatBundle(w);
    const ScalarBundle c = canonicalBundle(decodeBundle(w));
    ASSERT_EQ(canonicalBundle(c), c) << "canonical form must be a fixed point";
  }
}

TEST(IsaNumberText, FloatsRoundTripBitExactly) {
  std::mt19937 rng(7);
  const uint32_t special[] = {0, 0x80000000u, 1, 0x807fffffu, 0x7f7fffffu, 0x7f800000u, 0xff800000u,
                              0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x3f800000u, 0x41e00000u};
  for (uint32_t bits : special) EXPECT_EQ(parseF32(formatF32(bits)), bits) << formatF32(bits);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t bits = rng();
    ASSERT_EQ(parseF32(formatF32(bits)), bits) << formatF32(bits);
  }
  EXPECT_EQ(formatF32(0x3f800000u), "1.0");
  EXPECT_EQ(formatF32(0xc3010000u), "-129.0");
  EXPECT_EQ(parseF32("0x10"), std::nullopt) << "hex is not a float";
  EXPECT_EQ(parseF32("nan:0x3f800000"), std::nullopt) << "not a NaN pattern";
}

TEST(IsaNumberText, AddressesNeverLookLikeLabels) {
  for (uint64_t a : {0x0ULL, 0x12ULL, 0xabcdULL, 0xfffffULL, 0xa0000ULL, 0x1234ULL}) {
    const std::string text = formatAddress(a);
    EXPECT_TRUE(text[0] >= '0' && text[0] <= '9') << text;
    EXPECT_GE(text.size(), 4u);
    EXPECT_EQ(parseUnsigned("0x" + text), a);
  }
}

}  // namespace
}  // namespace coralsim::isa::isa_decode_test
