#include "models/isa/segmenter.h"

#include <algorithm>
#include <optional>

#include "models/isa/number_text.h"
#include "models/isa/packet_fields.h"
#include "models/isa/scalar_bundle.h"

namespace coralsim::isa {

std::string_view segmentErrorKindName(SegmentErrorKind kind) {
  switch (kind) {
    case SegmentErrorKind::Empty: return "empty bitstream";
    case SegmentErrorKind::UnknownOpcode: return "unknown opcode";
    case SegmentErrorKind::Truncated: return "truncated packet";
    case SegmentErrorKind::MissingStart: return "missing START";
    case SegmentErrorKind::BadStartLength: return "bad START length";
    case SegmentErrorKind::MisplacedStart: return "misplaced START";
    case SegmentErrorKind::MissingEnd: return "missing END";
    case SegmentErrorKind::BadEndLength: return "bad END length";
    case SegmentErrorKind::MisplacedEnd: return "misplaced END";
    case SegmentErrorKind::MissingHalt: return "missing HALT";
    case SegmentErrorKind::DrainNops: return "wrong number of drain NOPs";
    case SegmentErrorKind::TileSequence: return "tile sequence break";
  }
  return "segmentation error";
}

namespace {

std::string describe(SegmentErrorKind kind, uint64_t wordIndex, const Word128& word, const std::string& detail) {
  std::string text = "word " + formatAddress(wordIndex) + " (" + formatWordHex(word) + "): ";
  text += segmentErrorKindName(kind);
  if (!detail.empty()) text += ": " + detail;
  return text;
}

Word128 wordAt(std::span<const Word128> words, uint64_t index) {
  return index < words.size() ? words[index] : Word128{};
}

// START/END length field value, or nullopt when bits above the 32-bit field are set (then the
// value cannot equal any sane length).
std::optional<uint64_t> frameLengthField(const Word128& w) {
  const FieldDef& f = fieldsOfGroup(FieldGroup::FrameLength).front();
  for (unsigned b = f.lsb + f.width; b < 128; b += 64) {
    if (w.bits(b, std::min(64u, 128 - b)) != 0) return std::nullopt;
  }
  return w.bits(f.lsb, f.width);
}

// Walks the packets. In strict mode the first problem throws; otherwise problems are collected
// and the walk goes on.
class Walker {
 public:
  Walker(std::span<const Word128> words, const FrameRules& rules, bool strict)
      : words_(words), rules_(rules), strict_(strict) {}

  LenientSegmentation run() {
    result_.program.wordCount = words_.size();
    if (words_.empty()) {
      fail(SegmentErrorKind::Empty, 0, "the bitstream has no words");
      return std::move(result_);
    }
    checkStart();
    segment();
    checkFrame();
    return std::move(result_);
  }

 private:
  void fail(SegmentErrorKind kind, uint64_t index, const std::string& detail) {
    SegmentError error(kind, index, wordAt(words_, index), detail);
    if (strict_) throw error;
    result_.errors.push_back(std::move(error));
  }

  void addRaw(uint32_t index) {
    result_.program.packets.push_back(Packet{index, opcodeOf(words_[index]), 1, true});
  }

  void segment() {
    size_t i = 0;
    while (i < words_.size()) {
      const Opcode op = opcodeOf(words_[i]);
      const unsigned length = packetLength(op);
      if (length == 0) {
        fail(SegmentErrorKind::UnknownOpcode, i,
             "opcode " + formatHex(static_cast<uint8_t>(op), 2) + " has no known packet length");
        addRaw(static_cast<uint32_t>(i));
        ++i;
        continue;
      }
      if (i + length > words_.size()) {
        fail(SegmentErrorKind::Truncated, i,
             std::string(opcodeInfo(op).mnemonic) + " needs " + std::to_string(length) + " words, only " +
                 std::to_string(words_.size() - i) + " remain");
        for (; i < words_.size(); ++i) addRaw(static_cast<uint32_t>(i));
        break;
      }
      result_.program.packets.push_back(Packet{static_cast<uint32_t>(i), op, static_cast<uint8_t>(length), false});
      i += length;
    }
  }

  // START first, with the length rule (checked before segmenting: it needs only word 0).
  void checkStart() {
    const size_t n = words_.size();
    const Opcode op = opcodeOf(words_[0]);
    if (op != Opcode::FrameStart) {
      fail(SegmentErrorKind::MissingStart, 0, "the first packet is " + opcodeDisplayName(op) + ", not start");
      return;
    }
    const uint64_t expected = n >= 2 ? (n - 2) * 128 : 0;
    const auto actual = frameLengthField(words_[0]);
    if (n < 2 || !actual || *actual != expected) {
      fail(SegmentErrorKind::BadStartLength, 0,
           "body_bits is " + (actual ? std::to_string(*actual) : std::string("out of range")) +
               ", expected (" + std::to_string(n) + " words - 2) x 128 = " + std::to_string(expected));
    }
  }

  void checkFrame() {
    const auto& packets = result_.program.packets;
    if (packets.empty()) return;

    for (size_t k = 1; k < packets.size(); ++k) {
      if (!packets[k].raw && packets[k].op == Opcode::FrameStart) {
        fail(SegmentErrorKind::MisplacedStart, packets[k].wordIndex, "start is only allowed at word 0");
      }
    }

    // END last (length 128); no other END.
    const Packet& last = packets.back();
    const bool endLast = !last.raw && last.op == Opcode::FrameEnd;
    if (!endLast) {
      fail(SegmentErrorKind::MissingEnd, last.wordIndex,
           "the last packet is " + (last.raw ? std::string("an unsegmented word") : opcodeDisplayName(last.op)) +
               ", not end");
    } else {
      const auto actual = frameLengthField(words_[last.wordIndex]);
      if (!actual || *actual != 128) {
        fail(SegmentErrorKind::BadEndLength, last.wordIndex,
             "body_bits is " + (actual ? std::to_string(*actual) : std::string("out of range")) +
                 ", expected 128");
      }
    }
    for (size_t k = 0; k + 1 < packets.size(); ++k) {
      if (!packets[k].raw && packets[k].op == Opcode::FrameEnd) {
        fail(SegmentErrorKind::MisplacedEnd, packets[k].wordIndex, "end is only allowed as the last packet");
      }
    }
    if (!endLast) return;

    // HALT, then the drain NOPs, then END.
    size_t k = packets.size() - 1;
    unsigned nops = 0;
    while (k > 0 && !packets[k - 1].raw && packets[k - 1].op == Opcode::ScalarBundle &&
           isNopBundle(words_[packets[k - 1].wordIndex])) {
      --k;
      ++nops;
    }
    if (k == 0 || packets[k - 1].raw || packets[k - 1].op != Opcode::Halt) {
      const Packet& before = packets[k == 0 ? 0 : k - 1];
      fail(SegmentErrorKind::MissingHalt, before.wordIndex,
           "the " + std::to_string(nops) + " NOPs before end follow " + opcodeDisplayName(before.op) +
               ", not halt");
      return;
    }
    if (nops < rules_.minDrainNops || nops > rules_.maxDrainNops) {
      fail(SegmentErrorKind::DrainNops, packets[k - 1].wordIndex,
           "halt is followed by " + std::to_string(nops) + " NOPs before end, expected " +
               (rules_.minDrainNops == rules_.maxDrainNops
                    ? std::to_string(rules_.minDrainNops)
                    : std::to_string(rules_.minDrainNops) + " to " + std::to_string(rules_.maxDrainNops)));
    }
  }

  std::span<const Word128> words_;
  const FrameRules& rules_;
  bool strict_;
  LenientSegmentation result_;
};

}  // namespace

SegmentError::SegmentError(SegmentErrorKind kind, uint64_t wordIndex, const Word128& word, const std::string& detail)
    : std::runtime_error(describe(kind, wordIndex, word, detail)),
      kind_(kind),
      wordIndex_(wordIndex),
      word_(word),
      detail_(detail) {}

Program segmentProgram(std::span<const Word128> words, const FrameRules& rules) {
  return Walker(words, rules, /*strict=*/true).run().program;
}

LenientSegmentation segmentLenient(std::span<const Word128> words, const FrameRules& rules) {
  return Walker(words, rules, /*strict=*/false).run();
}

void TileSequenceChecker::check(std::span<const Word128> words, const Program& program) {
  const uint32_t modulus = uint32_t{1} << tileSequenceWidth();
  for (const Packet& p : program.packets) {
    if (p.raw || p.wordIndex >= words.size()) continue;
    const auto seq = tileSequenceNumber(words[p.wordIndex]);
    if (!seq) continue;
    if (*seq != next_ % modulus) {
      throw SegmentError(SegmentErrorKind::TileSequence, p.wordIndex, words[p.wordIndex],
                         opcodeDisplayName(p.op) + " has seq " + std::to_string(*seq) + ", expected " +
                             std::to_string(next_ % modulus) + " (tile packet " + std::to_string(seen_) +
                             " of the executable)");
    }
    ++next_;
    ++seen_;
  }
}

void checkTileSequence(std::span<const ChunkView> chunks) {
  TileSequenceChecker checker;
  for (const ChunkView& c : chunks) {
    if (c.program != nullptr) checker.check(c.words, *c.program);
  }
}

}  // namespace coralsim::isa
