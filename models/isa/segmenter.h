// Packet segmentation and the program-frame checks (docs/isa.md §2.2, §3.6).
//
// An instruction bitstream is a sequence of variable-length packets; the opcode of the first word
// fixes each length. A compiled program is framed as
//     START (body_bits = (N - 2) x 128), body, HALT, NOP x 4, END (body_bits = 128)
// and the tile packets of one executable carry sequence numbers 0, 1, 2, ... across its chunks.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/isa/opcodes.h"
#include "models/isa/word128.h"

namespace coralsim::isa {

struct Packet {
  uint32_t wordIndex = 0;  // index of the packet's first word in the bitstream
  Opcode op{};
  uint8_t length = 0;      // in words
  bool raw = false;        // lenient mode only: a word that could not be segmented (length 1)

  friend bool operator==(const Packet&, const Packet&) = default;
};

struct Program {
  std::vector<Packet> packets;
  size_t wordCount = 0;
};

enum class SegmentErrorKind {
  Empty,            // no words at all
  UnknownOpcode,    // an op6 value without a known length
  Truncated,        // a packet runs past the last word
  MissingStart,     // the first packet is not START
  BadStartLength,   // START's body_bits is not (N - 2) x 128
  MisplacedStart,   // a START after word 0
  MissingEnd,       // the last packet is not END
  BadEndLength,     // END's body_bits is not 128
  MisplacedEnd,     // an END before the last packet
  MissingHalt,      // the drain NOPs before END do not follow a HALT
  DrainNops,        // wrong number of NOPs between HALT and END
  TileSequence,     // a tile packet's sequence number does not continue the count
};

[[nodiscard]] std::string_view segmentErrorKindName(SegmentErrorKind kind);

// A frame or segmentation error, naming the word index and the word itself.
class SegmentError : public std::runtime_error {
 public:
  SegmentError(SegmentErrorKind kind, uint64_t wordIndex, const Word128& word, const std::string& detail);

  [[nodiscard]] SegmentErrorKind kind() const { return kind_; }
  [[nodiscard]] uint64_t wordIndex() const { return wordIndex_; }
  [[nodiscard]] const Word128& word() const { return word_; }
  [[nodiscard]] const std::string& detail() const { return detail_; }

 private:
  SegmentErrorKind kind_;
  uint64_t wordIndex_;
  Word128 word_;
  std::string detail_;
};

// The frame rules a strict segmentation enforces.
struct FrameRules {
  // docs/isa.md: exactly 4 NOPs drain the pipeline after HALT. The public corpus has one chunk
  // with 3 (model_mat_Add, EXECUTION_ONLY chunk 1, whose body is exactly 16,384 words: the
  // compiler's chunk limit left no room for the fourth). Both are accepted by default.
  unsigned minDrainNops = 3;
  unsigned maxDrainNops = 4;

  // The rules exactly as docs/isa.md states them.
  [[nodiscard]] static FrameRules documented() { return FrameRules{4, 4}; }
};

// Strict: segments `words` and checks the frame; throws SegmentError at the first problem.
[[nodiscard]] Program segmentProgram(std::span<const Word128> words, const FrameRules& rules = {});

// Lenient: segments as far as possible for the disassembler. A word with an unknown opcode
// becomes a raw packet and segmentation resumes at the next word; the words of a truncated
// packet become raw packets. Every problem (including frame errors) is collected, none thrown.
struct LenientSegmentation {
  Program program;
  std::vector<SegmentError> errors;
};
[[nodiscard]] LenientSegmentation segmentLenient(std::span<const Word128> words,
                                                 const FrameRules& rules = {});

// Checks that tile sequence numbers count 0, 1, 2, ... (modulo the field width) over the chunks
// of one executable, fed in order.
class TileSequenceChecker {
 public:
  explicit TileSequenceChecker(uint32_t first = 0) : next_(first) {}

  // Throws SegmentError(TileSequence) at the first packet that breaks the count.
  void check(std::span<const Word128> words, const Program& program);

  [[nodiscard]] uint32_t next() const { return next_; }
  [[nodiscard]] uint64_t tilePacketsSeen() const { return seen_; }

 private:
  uint32_t next_;
  uint64_t seen_ = 0;
};

// One chunk for checkTileSequence: its words and their segmentation.
struct ChunkView {
  std::span<const Word128> words;
  const Program* program = nullptr;
};

// Checks the sequence numbers across all chunks of one executable, starting at 0.
void checkTileSequence(std::span<const ChunkView> chunks);

}  // namespace coralsim::isa
