// The segmenter: packet lengths, frame errors (each with its kind and word index), lenient
// segmentation, tile sequence numbers. Programs are built word by word with plain shifts
// (opcode in bits 11:6, START/END length at bit 19, tile mask at 12, sequence at 28/46).
#include <gtest/gtest.h>

#include "models/isa/segmenter.h"

namespace coralsim::isa::isa_segmenter_test {
namespace {

Word128 op(unsigned opcode) { return Word128{uint64_t{opcode} << 6, 0}; }
Word128 start(uint64_t bodyBits) { return Word128{(uint64_t{0x3e} << 6) | (bodyBits << 19), 0}; }
Word128 end() { return Word128{(uint64_t{0x3f} << 6) | (uint64_t{128} << 19), 0}; }
Word128 halt() { return Word128{(uint64_t{0x21} << 6) | (uint64_t{0x10} << 12), 0}; }
Word128 nop() { return op(0x20); }
Word128 tileSync(uint64_t seq) { return Word128{(uint64_t{0x1a} << 6) | (uint64_t{0xffff} << 12) | (seq << 28), 0}; }
Word128 tileHeader(unsigned opcode, uint64_t seq) {
  return Word128{(uint64_t{opcode} << 6) | (uint64_t{0x1} << 12) | (seq << 46), 0};
}

// START, body, HALT, 4 NOPs, END with the right START length.
std::vector<Word128> frame(const std::vector<Word128>& body, unsigned nops = 4) {
  std::vector<Word128> w;
  w.push_back(Word128{});
  w.insert(w.end(), body.begin(), body.end());
  w.push_back(halt());
  for (unsigned i = 0; i < nops; ++i) w.push_back(nop());
  w.push_back(end());
  w[0] = start((w.size() - 2) * 128);
  return w;
}

// Body with one packet of every known length: bundle, 2-word sync, 4-word DMA, 17-word compute.
std::vector<Word128> sampleBody() {
  std::vector<Word128> body = {nop(), tileSync(0), op(0x24), Word128{}, tileHeader(0x11, 1)};
  body.resize(body.size() + 3);
  body.push_back(tileHeader(0x01, 2));
  body.resize(body.size() + 16);
  body.push_back(nop());
  return body;
}

SegmentError expectError(const std::vector<Word128>& words, FrameRules rules = {}) {
  try {
    (void)segmentProgram(words, rules);
  } catch (const SegmentError& e) {
    return e;
  }
  ADD_FAILURE() << "no SegmentError";
  return SegmentError(SegmentErrorKind::Empty, 0, Word128{}, "");
}

TEST(IsaSegmenter, SegmentsAWellFramedProgram) {
  const auto words = frame(sampleBody());
  const Program p = segmentProgram(words);
  ASSERT_EQ(p.wordCount, words.size());
  const std::vector<std::pair<uint32_t, uint8_t>> expected = {
      {0, 1}, {1, 1}, {2, 1}, {3, 2}, {5, 4}, {9, 17}, {26, 1}, {27, 1}, {28, 1}, {29, 1}, {30, 1}, {31, 1}, {32, 1}};
  ASSERT_EQ(p.packets.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(p.packets[i].wordIndex, expected[i].first) << i;
    EXPECT_EQ(p.packets[i].length, expected[i].second) << i;
    EXPECT_FALSE(p.packets[i].raw);
  }
  EXPECT_EQ(p.packets[5].op, Opcode::TileCompute);
}

TEST(IsaSegmenter, MissingStart) {
  auto words = frame(sampleBody());
  words[0] = nop();
  const SegmentError e = expectError(words);
  EXPECT_EQ(e.kind(), SegmentErrorKind::MissingStart);
  EXPECT_EQ(e.wordIndex(), 0u);
}

TEST(IsaSegmenter, BadStartLengthNamesWordZeroAndBothLengths) {
  auto words = frame(sampleBody());
  words[0] = start((words.size() - 1) * 128);
  const SegmentError e = expectError(words);
  EXPECT_EQ(e.kind(), SegmentErrorKind::BadStartLength);
  EXPECT_EQ(e.wordIndex(), 0u);
  EXPECT_NE(std::string(e.what()).find(std::to_string((words.size() - 2) * 128)), std::string::npos) << e.what();
  // Bits above the 32-bit length field make the length wrong too.
  words = frame(sampleBody());
  words[0].hi |= uint64_t{1} << 60;
  EXPECT_EQ(expectError(words).kind(), SegmentErrorKind::BadStartLength);
}

TEST(IsaSegmenter, NoEnd) {
  auto words = frame(sampleBody());
  words.pop_back();
  words[0] = start((words.size() - 2) * 128);
  const SegmentError e = expectError(words);
  EXPECT_EQ(e.kind(), SegmentErrorKind::MissingEnd);
  EXPECT_EQ(e.wordIndex(), words.size() - 1);
}

TEST(IsaSegmenter, UnknownOpcodeNamesItsWord) {
  auto words = frame(sampleBody());
  words[2] = op(0x04);
  words[2].hi = 0x1234;
  const SegmentError e = expectError(words);
  EXPECT_EQ(e.kind(), SegmentErrorKind::UnknownOpcode);
  EXPECT_EQ(e.wordIndex(), 2u);
  EXPECT_EQ(e.word(), words[2]);
  EXPECT_NE(std::string(e.what()).find("0x0000000000001234"), std::string::npos) << "the word is shown in hex: " << e.what();
}

TEST(IsaSegmenter, TruncatedPacket) {
  std::vector<Word128> words = {start(0), nop(), tileHeader(0x01, 0), Word128{}, Word128{}};
  words[0] = start((words.size() - 2) * 128);
  const SegmentError e = expectError(words);
  EXPECT_EQ(e.kind(), SegmentErrorKind::Truncated);
  EXPECT_EQ(e.wordIndex(), 2u);
  EXPECT_NE(std::string(e.what()).find("17"), std::string::npos) << e.what();
}

TEST(IsaSegmenter, MisplacedStartAndEnd) {
  auto body = sampleBody();
  body.insert(body.begin() + 1, start(0));
  auto e = expectError(frame(body));
  EXPECT_EQ(e.kind(), SegmentErrorKind::MisplacedStart);
  EXPECT_EQ(e.wordIndex(), 2u);
  body = sampleBody();
  body.insert(body.begin() + 1, end());
  e = expectError(frame(body));
  EXPECT_EQ(e.kind(), SegmentErrorKind::MisplacedEnd);
  EXPECT_EQ(e.wordIndex(), 2u);
}

TEST(IsaSegmenter, BadEndLength) {
  auto words = frame(sampleBody());
  words.back() = Word128{(uint64_t{0x3f} << 6) | (uint64_t{256} << 19), 0};
  const SegmentError e = expectError(words);
  EXPECT_EQ(e.kind(), SegmentErrorKind::BadEndLength);
  EXPECT_EQ(e.wordIndex(), words.size() - 1);
}

TEST(IsaSegmenter, DrainNopsAfterHalt) {
  EXPECT_NO_THROW((void)segmentProgram(frame(sampleBody(), 4)));
  EXPECT_NO_THROW((void)segmentProgram(frame(sampleBody(), 3))) << "3 NOPs occur in a real chunk (see FrameRules)";
  EXPECT_EQ(expectError(frame(sampleBody(), 3), FrameRules::documented()).kind(), SegmentErrorKind::DrainNops);
  for (unsigned n : {0u, 1u, 2u, 5u}) {
    const auto words = frame(sampleBody(), n);
    const SegmentError e = expectError(words);
    EXPECT_EQ(e.kind(), SegmentErrorKind::DrainNops) << n;
    EXPECT_EQ(e.wordIndex(), words.size() - 2 - n) << "names the HALT";
  }
}

TEST(IsaSegmenter, MissingHaltBeforeTheDrain) {
  auto words = frame(sampleBody());
  const size_t haltIndex = words.size() - 6;
  words[haltIndex] = op(0x24);  // a 2-word packet eats the first NOP
  const SegmentError e = expectError(words);
  EXPECT_EQ(e.kind(), SegmentErrorKind::MissingHalt);
  EXPECT_EQ(e.wordIndex(), haltIndex);
}

TEST(IsaSegmenter, EmptyBitstream) {
  const SegmentError e = expectError({});
  EXPECT_EQ(e.kind(), SegmentErrorKind::Empty);
}

TEST(IsaSegmenter, LenientCollectsEveryProblemAndKeepsGoing) {
  auto words = frame(sampleBody());
  words[0] = start(7);       // bad length
  words[1] = op(0x3c);       // unknown
  words.push_back(tileHeader(0x13, 9));  // truncated 7-word packet after END
  const LenientSegmentation s = segmentLenient(words);
  std::vector<SegmentErrorKind> kinds;
  for (const SegmentError& e : s.errors) kinds.push_back(e.kind());
  EXPECT_EQ(kinds, (std::vector<SegmentErrorKind>{SegmentErrorKind::BadStartLength, SegmentErrorKind::UnknownOpcode,
                                                  SegmentErrorKind::Truncated, SegmentErrorKind::MissingEnd,
                                                  SegmentErrorKind::MisplacedEnd}));
  EXPECT_TRUE(s.program.packets[1].raw);
  EXPECT_EQ(s.program.packets[1].length, 1u);
  EXPECT_FALSE(s.program.packets[2].raw) << "segmentation resumes after an unknown word";
  EXPECT_TRUE(s.program.packets.back().raw);
  size_t covered = 0;
  for (const Packet& p : s.program.packets) covered += p.length;
  EXPECT_EQ(covered, words.size()) << "every word is in exactly one packet";
}

TEST(IsaSegmenter, TileSequenceContinuesAcrossChunks) {
  const auto chunk0 = frame({tileSync(0), tileHeader(0x11, 1), Word128{}, Word128{}, Word128{}, tileSync(2)});
  const auto chunk1 = frame({tileHeader(0x10, 3), Word128{}, Word128{}, Word128{}, tileSync(4)});
  const Program p0 = segmentProgram(chunk0);
  const Program p1 = segmentProgram(chunk1);
  const std::vector<ChunkView> chunks = {{chunk0, &p0}, {chunk1, &p1}};
  EXPECT_NO_THROW(checkTileSequence(chunks));

  TileSequenceChecker checker;
  checker.check(chunk0, p0);
  EXPECT_EQ(checker.next(), 3u);
  // Restarting the second chunk at 0 is a break, reported at its first tile packet.
  TileSequenceChecker fresh;
  try {
    fresh.check(chunk1, p1);
    ADD_FAILURE() << "expected a TileSequence error";
  } catch (const SegmentError& e) {
    EXPECT_EQ(e.kind(), SegmentErrorKind::TileSequence);
    EXPECT_EQ(e.wordIndex(), 1u);
  }
}

}  // namespace
}  // namespace coralsim::isa::isa_segmenter_test
