// The assembler: hand-writing conveniences (labels, program { }, automatic START length and tile
// sequence numbers), errors with line:column, the embedded demo program, and the round trip
// assemble(disassemble(words)) == words on seeded random words of every opcode class.
#include <gtest/gtest.h>

#include <random>

#include "models/isa/assembler.h"
#include "models/isa/demo/demo_program.h"
#include "models/isa/disassembler.h"
#include "models/isa/packet_fields.h"
#include "models/isa/scalar_bundle.h"
#include "models/isa/segmenter.h"

namespace coralsim::isa::isa_assembler_test {
namespace {

AsmError expectAsmError(std::string_view text) {
  try {
    (void)assemble(text, "test.s");
  } catch (const AsmError& e) {
    return e;
  }
  ADD_FAILURE() << "no AsmError for:\n" << text;
  return AsmError("", 0, 0, "");
}

struct ErrorCase {
  const char* text;
  size_t line;
  size_t column;
  const char* mentions;
};

TEST(IsaAssembler, ErrorsNameLineAndColumn) {
  const ErrorCase cases[] = {
      {"nop\n  s1 = frob s2, s3\n", 2, 8, "unknown ALU op 'frob'"},
      {"s1 = add s2, 0x100000000\n", 1, 14, "does not fit in 32 bits"},
      {"s32 = mov 0x1\n", 1, 1, "expected a bundle slot"},
      {"p0 = add s1, s2\n", 1, 1, "writes a scalar register"},
      {"s0 = lt s1, s2\n", 1, 1, "writes a predicate register"},
      {"s1 = add s2, 1.5\n", 1, 14, "float literal"},
      {"s1 = mov 0x1 ; s2 = mov 0x2\n", 1, 16, "already has an ALU slot"},
      {"nop ; push\n", 1, 1, "'nop' cannot be combined"},
      {"s3 = ld [0x1000]\n", 1, 10, "does not fit in 12 bits"},
      {"s3 = ld [s4], s5 += 1\n", 1, 15, "must name the address register s4"},
      {"desc[4] = s1\n", 1, 6, "does not fit in 2 bits"},
      {"(p8) nop\n", 1, 2, "predicate register p0..p7"},
      {"br nowhere\n", 1, 4, "unknown label 'nowhere'"},
      {"x: nop\nx: nop\n", 2, 1, "defined twice"},
      {"0000: nop\n0002: nop\n", 2, 1, "does not match the next word"},
      {"program {\nnop\n", 2, 1, "never closed"},
      {"}\n", 1, 1, "without 'program {'"},
      {"nop\nprogram {\n}\n", 2, 1, "must come before any instruction"},
      {"program {\n}\nnop\n", 3, 1, "after the closing '}'"},
      {"tile.sync mask=0x10000\n", 1, 16, "does not fit in 16 bits"},
      {"tile.sync bogus=1\n", 1, 11, "has no field 'bogus'"},
      {"tile.sync seq=1 seq=2\n", 1, 17, "given twice"},
      {"tile.compute w17=0x1\n", 1, 14, "there is no w17"},
      {"sc.sync w0=0x40\n", 1, 12, "may not change the opcode"},
      {"(p0) halt final\n", 1, 1, "takes no predicate prefix"},
      {"halt final extra\n", 1, 12, "takes name=value fields"},
      {".word 0x123456789012345678901234567890123\n", 1, 7, "1..32 hex digits"},
      {".frob\n", 1, 1, "unknown directive"},
      {"tile.nlu coef=[1.0,2.0]\n", 1, 23, "between the 40 values"},
      {"br +16384\n", 1, 4, "out of range"},
  };
  for (const ErrorCase& c : cases) {
    const AsmError e = expectAsmError(c.text);
    EXPECT_EQ(e.line(), c.line) << c.text << " -> " << e.what();
    EXPECT_EQ(e.column(), c.column) << c.text << " -> " << e.what();
    EXPECT_NE(e.message().find(c.mentions), std::string::npos) << c.text << " -> " << e.what();
    EXPECT_TRUE(std::string(e.what()).starts_with("test.s:" + std::to_string(c.line) + ":")) << e.what();
  }
}

TEST(IsaAssembler, LabelsResolveToRelativeWordOffsets) {
  const AssembledProgram p = assemble(
      "top:  nop\n"
      "      tile.sync\n"
      "      (p1) br top\n"
      "      br done   // forward\n"
      "      sc.sync mask=0x0000\n"
      "done: nop\n");
  ASSERT_EQ(p.words.size(), 7u);
  EXPECT_EQ(p.labels.at("top"), 0u);
  EXPECT_EQ(p.labels.at("done"), 6u);
  const FieldDef* offset = findPacketField(Opcode::Branch, "offset");
  EXPECT_EQ(signExtend(p.words[2].bits(offset->lsb, offset->width), offset->width), -2);
  EXPECT_EQ(signExtend(p.words[3].bits(offset->lsb, offset->width), offset->width), 3);
  EXPECT_EQ(p.words[2].bits(12, 5), 0x13u) << "(p1): gate, p1, polarity 1";
  EXPECT_EQ(p.words[3].bits(33, 1), 1u) << "b33 defaults to 1 as in compiled code";
}

TEST(IsaAssembler, ProgramBlockFramesTheCode) {
  const AssembledProgram p = assemble("program {\n  s1 = mov 0x5\n  tile.sync\n  tile.sync\n}\n");
  // START, 3 body words, HALT, 4 NOPs, END.
  ASSERT_EQ(p.words.size(), 10u);
  EXPECT_EQ(opcodeOf(p.words[0]), Opcode::FrameStart);
  EXPECT_EQ(p.words[0].bits(19, 32), (10u - 2) * 128);
  EXPECT_EQ(opcodeOf(p.words[4]), Opcode::Halt);
  EXPECT_EQ(p.words[4].bits(12, 16), 0x10u);
  for (size_t i = 5; i < 9; ++i) EXPECT_TRUE(isNopBundle(p.words[i]));
  EXPECT_EQ(opcodeOf(p.words[9]), Opcode::FrameEnd);
  EXPECT_EQ(p.words[9].bits(19, 32), 128u);
  // Tile packets without seq= count from 0.
  EXPECT_EQ(tileSequenceNumber(p.words[2]), 0u);
  EXPECT_EQ(tileSequenceNumber(p.words[3]), 1u);
  EXPECT_NO_THROW((void)segmentProgram(p.words));
}

TEST(IsaAssembler, StartWithoutLengthAndTileSeqDirective) {
  const AssembledProgram p = assemble(
      "start\n.tileseq 40\ntile.sync\ntile.sync seq=7\ntile.sync\nhalt final\nnop\nnop\nnop\nnop\nend\n");
  EXPECT_EQ(p.words[0].bits(19, 32), (p.words.size() - 2) * 128);
  EXPECT_EQ(tileSequenceNumber(p.words[1]), 40u);
  EXPECT_EQ(tileSequenceNumber(p.words[2]), 7u);
  EXPECT_EQ(tileSequenceNumber(p.words[3]), 8u);
  EXPECT_NO_THROW((void)segmentProgram(p.words));
}

TEST(IsaAssembler, CommentsBlankLinesAndRawWords) {
  const AssembledProgram p = assemble("// header\n\n   \n.word 0x1  // one\n.word 0xffffffffffffffffffffffffffffffff\n");
  ASSERT_EQ(p.words.size(), 2u);
  EXPECT_EQ(p.words[0], (Word128{1, 0}));
  EXPECT_EQ(p.words[1], (Word128{~uint64_t{0}, ~uint64_t{0}}));
}

TEST(IsaDemo, AssemblesSegmentsAndDoesWhatItsHeaderSays) {
  const AssembledProgram p = assemble(demoProgramText(), demoProgramName());
  const Program program = segmentProgram(p.words, FrameRules::documented());
  // The structure its comments promise: a backward conditional branch, a hardware loop over two
  // bundles, four descriptor words and exactly one push, then the frame.
  unsigned branches = 0, loops = 0, descWords = 0, pushes = 0, stores = 0;
  for (const Packet& packet : program.packets) {
    const Word128& w = p.words[packet.wordIndex];
    if (packet.op == Opcode::Branch) {
      ++branches;
      EXPECT_LT(signExtend(w.bits(17, 15), 15), 0) << "the branch loops backwards";
      EXPECT_EQ(w.bits(12, 5), 0x11u) << "if p0";
    }
    if (packet.op == Opcode::Loop) {
      ++loops;
      EXPECT_EQ(w.bits(12, 16), 10u);
      EXPECT_EQ(w.bits(28, 5), 2u);
    }
    if (packet.op != Opcode::ScalarBundle) continue;
    const ScalarBundle b = decodeBundle(w);
    descWords += b.storeOp == 5;
    pushes += b.storeOp == 6;
    stores += b.storeOp == 1;
  }
  EXPECT_EQ(branches, 1u);
  EXPECT_EQ(loops, 1u);
  EXPECT_EQ(descWords, 4u);
  EXPECT_EQ(pushes, 1u);
  EXPECT_EQ(stores, 1u);
  EXPECT_EQ(assemble(disassemble(p.words)).words, p.words);
}

// ---- round trip on random words of every opcode class --------------------------------------------

std::vector<Word128> randomPacket(Opcode op, std::mt19937_64& rng) {
  std::vector<Word128> words(packetLength(op));
  for (Word128& w : words) w = Word128{rng(), rng()};
  // Sparse variants too: many real payload words are mostly zero.
  if (rng() % 2) {
    for (Word128& w : words) {
      w.lo &= rng() & rng();
      w.hi &= rng() & rng();
    }
  }
  words[0].setBits(6, 6, static_cast<uint8_t>(op));
  return words;
}

TEST(IsaRoundTrip, RandomWordsOfEveryOpcodeClassReassembleBitExactly) {
  std::mt19937_64 rng(0xC0A1);
  for (const OpcodeInfo& info : kOpcodeTable) {
    if (!info.known()) continue;
    const Opcode op = static_cast<Opcode>(info.value);
    for (int i = 0; i < 400; ++i) {
      const std::vector<Word128> words = randomPacket(op, rng);
      const std::string text = formatPacketText(words);
      AssembledProgram p;
      try {
        p = assemble(text, "roundtrip");
      } catch (const AsmError& e) {
        FAIL() << e.what() << "\n" << text;
      }
      ASSERT_EQ(p.words, words) << text;
    }
  }
}

TEST(IsaRoundTrip, RandomStreamsWithUnknownAndTruncatedPacketsReassembleBitExactly) {
  std::mt19937_64 rng(99);
  for (int i = 0; i < 300; ++i) {
    std::vector<Word128> words;
    const size_t n = 1 + rng() % 60;
    while (words.size() < n) {
      const Opcode op = static_cast<Opcode>(rng() % kOpcodeCount);
      if (!opcodeInfo(op).known()) {
        Word128 w{rng(), rng()};
        w.setBits(6, 6, static_cast<uint8_t>(op));
        words.push_back(w);
        continue;
      }
      const auto packet = randomPacket(op, rng);
      words.insert(words.end(), packet.begin(), packet.end());
    }
    words.resize(n);  // may cut a packet short
    const std::string listing = disassemble(words);
    ASSERT_EQ(assemble(listing, "stream").words, words) << listing;
  }
}

}  // namespace
}  // namespace coralsim::isa::isa_assembler_test
