// DecodedProgram: strict segmentation and predecoding of one chunk, built here from raw words
// (isa::encodeBundle and the packet field table) rather than through the assembler.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "models/isa/packet_fields.h"
#include "tests/unit/scalar_test_support.h"

namespace coralsim::models::scalar_decoded_program_test {
namespace {

using isa::Opcode;
using isa::Word128;

// A first word with opcode `op` and the named fields of packet_fields.def set.
Word128 packetWord(Opcode op, std::initializer_list<std::pair<const char*, uint64_t>> fields = {}) {
  Word128 w;
  const isa::FieldDef& opcode = isa::bundleField(isa::BundleField::Opcode);
  w.setBits(opcode.lsb, opcode.width, static_cast<uint8_t>(op));
  for (const auto& [name, value] : fields) {
    const isa::FieldDef* f = isa::findPacketField(op, name);
    EXPECT_NE(f, nullptr) << name;
    if (f != nullptr) w.setBits(f->lsb, f->width, value);
  }
  return w;
}

Word128 bundle(isa::ScalarBundle b) { return isa::encodeBundle(b); }

// START + body + HALT final + 4 NOPs + END, with the START length rule applied.
std::vector<Word128> framed(std::vector<Word128> body, uint64_t haltKind = 0x10) {
  std::vector<Word128> words;
  words.push_back(Word128{});  // START, filled below
  words.insert(words.end(), body.begin(), body.end());
  words.push_back(packetWord(Opcode::Halt, {{"kind", haltKind}}));
  for (int i = 0; i < 4; ++i) words.push_back(isa::nopBundle());
  words.push_back(packetWord(Opcode::FrameEnd, {{"body_bits", 128}}));
  words[0] = packetWord(Opcode::FrameStart, {{"body_bits", (words.size() - 2) * 128}});
  return words;
}

isa::ScalarBundle movi(uint8_t dest, uint32_t imm) {
  isa::ScalarBundle b;
  b.aluOp = 0x2f;  // mov, immediate form (docs/isa.md §3.3)
  b.aluDest = dest;
  b.aluImm = imm;
  return b;
}

TEST(DecodedProgram, PacketsMapAndFields) {
  isa::ScalarBundle predicated = movi(3, 0x1234);
  predicated.gate = 1;
  predicated.pred = 5;
  predicated.polarity = 0;
  std::vector<Word128> tileCompute(17);
  tileCompute[0] = packetWord(Opcode::TileCompute, {{"mask", 0x0f0f}, {"seq", 7}});
  std::vector<Word128> body = {
      bundle(predicated),                                                  // 1
      packetWord(Opcode::Branch, {{"cond", 0x13}, {"offset", 0x7fff}}),    // 2: (p1) br -1
      packetWord(Opcode::Loop, {{"n", 9}, {"body", 1}}),                   // 3
      bundle(movi(4, 5)),                                                  // 4
  };
  body.insert(body.end(), tileCompute.begin(), tileCompute.end());          // 5..21
  const auto program = DecodedProgram::fromWords(framed(body));

  ASSERT_EQ(program->wordCount(), 1u + 21 + 1 + 4 + 1);
  const auto packets = program->packets();
  ASSERT_EQ(packets.size(), 1u + 5 + 1 + 4 + 1);
  EXPECT_EQ(program->bundleCount(), 2u + 4);
  EXPECT_EQ(program->tilePacketCount(), 1u);

  EXPECT_EQ(packets[0].action, PacketAction::kFrameStart);
  const DecodedPacket& b = packets[1];
  EXPECT_EQ(b.action, PacketAction::kBundle);
  EXPECT_EQ(b.pc, 1u);
  EXPECT_EQ(b.bundle, predicated);
  EXPECT_TRUE(b.exec.condition.gated);
  EXPECT_EQ(b.exec.condition.pred, 5u);
  EXPECT_FALSE(b.exec.condition.polarity);
  EXPECT_EQ(b.exec.alu, isa::AluKind::Mov);
  EXPECT_TRUE(b.exec.aluImmediate);
  EXPECT_EQ(b.exec.aluSrc, 0x1234u);

  const DecodedPacket& br = packets[2];
  EXPECT_EQ(br.action, PacketAction::kBranch);
  EXPECT_TRUE(br.branchCondition.gated);
  EXPECT_EQ(br.branchCondition.pred, 1u);
  EXPECT_TRUE(br.branchCondition.polarity);
  EXPECT_EQ(br.branchOffset, -1);
  EXPECT_EQ(br.branchTarget, 1u);

  const DecodedPacket& loop = packets[3];
  EXPECT_EQ(loop.loopCount, 9u);
  EXPECT_EQ(loop.loopBody, 1u);
  EXPECT_EQ(loop.loopBadPacket, DecodedProgram::kNoPacket);

  const DecodedPacket& tile = packets[5];
  EXPECT_EQ(tile.action, PacketAction::kIssue);
  EXPECT_EQ(tile.pc, 5u);
  EXPECT_EQ(tile.length, 17u);
  EXPECT_EQ(tile.words.size(), 17u);
  EXPECT_EQ(tile.words.data(), program->words().data() + 5);
  EXPECT_TRUE(tile.tilePacket);
  EXPECT_EQ(tile.tileMask, 0x0f0fu);
  EXPECT_EQ(tile.tileSequence, 7u);

  EXPECT_EQ(packets[6].action, PacketAction::kHalt);
  EXPECT_EQ(packets[6].haltKind, HaltKind::kFinal);
  EXPECT_EQ(packets.back().action, PacketAction::kFrameEnd);

  // Word -> packet map: packet starts map to their index, payload words to nothing.
  EXPECT_EQ(program->packetIndexAt(5), 5u);
  for (uint32_t w = 6; w < 22; ++w) EXPECT_EQ(program->packetIndexAt(w), DecodedProgram::kNoPacket) << w;
  EXPECT_EQ(program->packetIndexAt(22), 6u);
  EXPECT_EQ(program->packetIndexAt(1000), DecodedProgram::kNoPacket);
  EXPECT_EQ(program->packetAt(2), &packets[2]);
  EXPECT_EQ(program->packetAt(7), nullptr);
}

TEST(DecodedProgram, BadTargetsAndLoopBodiesAreKeptForTheCoreToFault) {
  std::vector<Word128> tile(4);
  tile[0] = packetWord(Opcode::TileDma10, {{"mask", 1}});
  std::vector<Word128> body = {
      packetWord(Opcode::Branch, {{"offset", 2}}),           // 1 -> 3: payload of the DMA at 2
  };
  body.insert(body.end(), tile.begin(), tile.end());          // 2..5
  body.push_back(packetWord(Opcode::Loop, {{"n", 2}, {"body", 2}}));  // 6
  body.push_back(bundle(movi(1, 1)));                         // 7
  body.push_back(packetWord(Opcode::Branch));                 // 8: not a bundle
  const auto program = DecodedProgram::fromWords(framed(body, 0x04));
  const auto packets = program->packets();
  EXPECT_EQ(packets[1].branchTarget, DecodedProgram::kNoPacket);
  EXPECT_EQ(packets[1].branchTargetWord, 3u);
  EXPECT_EQ(packets[3].action, PacketAction::kLoop);
  EXPECT_EQ(packets[3].loopBadPacket, 5u);
  EXPECT_EQ(packets[6].haltKind, HaltKind::kChunkEnd);
}

TEST(DecodedProgram, FramingErrorsNameTheWordIndexAndTheWord) {
  {
    std::vector<Word128> words = framed({bundle(movi(1, 1))});
    words[0] = packetWord(Opcode::FrameStart, {{"body_bits", 128}});  // wrong length
    try {
      (void)DecodedProgram::fromWords(words);
      ADD_FAILURE() << "no error";
    } catch (const ProgramDecodeError& e) {
      EXPECT_EQ(e.wordIndex(), 0u);
      const std::string message = e.what();
      EXPECT_NE(message.find("word 0000"), std::string::npos) << message;
      EXPECT_NE(message.find("0x0000000000000000000000000"), std::string::npos) << message;
      EXPECT_NE(message.find("START"), std::string::npos) << message;
    }
  }
  {
    std::vector<Word128> words = framed({bundle(movi(1, 1)), bundle(movi(2, 2))});
    words[2] = Word128{};  // op6 = 0x29 at word 2: not an opcode of the table
    words[2].setBits(6, 6, 0x29);
    words[2].setBits(64, 32, 0xfeedbeef);
    try {
      (void)DecodedProgram::fromWords(words);
      ADD_FAILURE() << "no error";
    } catch (const ProgramDecodeError& e) {
      EXPECT_EQ(e.wordIndex(), 2u);
      const std::string message = e.what();
      EXPECT_NE(message.find("word 0002"), std::string::npos) << message;
      EXPECT_NE(message.find("feedbeef"), std::string::npos) << message;
      EXPECT_NE(message.find("unknown opcode"), std::string::npos) << message;
    }
  }
  {
    std::vector<Word128> words = framed({bundle(movi(1, 1))});
    words.pop_back();  // no END
    EXPECT_THROW((void)DecodedProgram::fromWords(words), ProgramDecodeError);
  }
  {
    const std::vector<uint8_t> bytes(17, 0);
    EXPECT_THROW((void)DecodedProgram::fromBytes(bytes), ProgramDecodeError);
  }
}

// Refused before, run by real Corals (docs/refusal-rules.md): the shape of issue #14's transformer
// chunk — 262,176 bytes (16,386 words), the final HALT at word 4000, NOPs up to END — decodes, and
// the oddity is noted rather than fatal.
TEST(DecodedProgram, HaltFarFromEndWithThousandsOfNopsDecodesWithANote) {
  std::vector<Word128> words;
  words.push_back(Word128{});  // START, filled below
  while (words.size() < 4000) words.push_back(bundle(movi(1, static_cast<uint32_t>(words.size()))));
  words.push_back(packetWord(Opcode::Halt, {{"kind", 0x10}}));  // word 4000
  while (words.size() < 16385) words.push_back(isa::nopBundle());
  words.push_back(packetWord(Opcode::FrameEnd, {{"body_bits", 128}}));
  words[0] = packetWord(Opcode::FrameStart, {{"body_bits", (words.size() - 2) * 128}});
  ASSERT_EQ(words.size() * Word128::kBytes, 262176u);
  const auto program = DecodedProgram::fromWords(words);
  ASSERT_NE(program->packetAt(4000), nullptr);
  EXPECT_EQ(program->packetAt(4000)->action, PacketAction::kHalt);
  ASSERT_EQ(program->frameNotes().size(), 1u);
  EXPECT_NE(program->frameNotes()[0].find("drain NOPs"), std::string::npos) << program->frameNotes()[0];
  EXPECT_NE(program->frameNotes()[0].find("12384 NOPs"), std::string::npos) << program->frameNotes()[0];
}

// Frame words execution never reaches are noted, not refused; framing that leaves the chunk
// impossible to place still is.
TEST(DecodedProgram, FrameOddityOutsideTheExecutedPathIsNotedOthersStillRefused) {
  {
    std::vector<Word128> words = framed({bundle(movi(1, 1))});
    words.insert(words.end() - 1, packetWord(Opcode::FrameStart, {{"body_bits", 0}}));   // misplaced START
    words.insert(words.end() - 1, packetWord(Opcode::FrameEnd, {{"body_bits", 128}}));   // misplaced END
    words.back() = packetWord(Opcode::FrameEnd, {{"body_bits", 256}});                    // END length
    words[0] = packetWord(Opcode::FrameStart, {{"body_bits", (words.size() - 2) * 128}});
    std::shared_ptr<const DecodedProgram> program;
    ASSERT_NO_THROW(program = DecodedProgram::fromWords(words));
    std::string notes;
    for (const std::string& n : program->frameNotes()) notes += n + "\n";
    for (const char* kind : {"misplaced START", "misplaced END", "bad END length"}) {
      EXPECT_NE(notes.find(kind), std::string::npos) << kind << " in\n" << notes;
    }
  }
  for (const isa::SegmentErrorKind kind : {isa::SegmentErrorKind::UnknownOpcode, isa::SegmentErrorKind::Truncated,
                                           isa::SegmentErrorKind::MissingStart, isa::SegmentErrorKind::BadStartLength,
                                           isa::SegmentErrorKind::MissingEnd, isa::SegmentErrorKind::Empty}) {
    EXPECT_FALSE(frameErrorIsTolerated(kind)) << isa::segmentErrorKindName(kind);
  }
}

TEST(DecodedProgram, RawProgramRunsOnTheEngine) {
  isa::ScalarBundle desc;
  desc.storeOp = 5;  // DESC[k] = sR (store_ops.def)
  desc.storeSrc = 7;
  desc.storeOperand = 2;  // k = 2
  isa::ScalarBundle push;
  push.storeOp = 6;
  const auto program = DecodedProgram::fromWords(framed({bundle(movi(7, 0xabcd)), bundle(desc), bundle(push)}));
  ScalarEngine engine(1024);
  testing::RecordingHost host;
  engine.load(program);
  ASSERT_EQ(engine.run(100, host), StopReason::kFinalHalt);
  ASSERT_EQ(host.descriptors.size(), 1u);
  EXPECT_EQ(host.descriptors[0].length, 0xabcdu);
}

}  // namespace
}  // namespace coralsim::models::scalar_decoded_program_test
