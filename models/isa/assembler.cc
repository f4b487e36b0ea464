#include "models/isa/assembler.h"

#include <optional>

#include "models/isa/bundle_syntax.h"
#include "models/isa/number_text.h"
#include "models/isa/opcodes.h"
#include "models/isa/packet_fields.h"
#include "models/isa/packet_syntax.h"
#include "models/isa/scalar_bundle.h"
#include "models/isa/text_cursor.h"

namespace coralsim::isa {

namespace {

// The frame "program { ... }" closes with: HALT final, this many NOPs, END (docs/isa.md §2.2).
constexpr unsigned kDrainNops = 4;

bool isHexDigit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

struct Location {
  size_t line = 0;
  size_t column = 0;
};

struct PendingLabel {
  size_t wordIndex = 0;  // first word of the packet that refers to the label
  const FieldDef* field = nullptr;
  std::string label;
  Location at;
};

class Assembler {
 public:
  Assembler(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  AssembledProgram run() {
    size_t lineNo = 0;
    size_t pos = 0;
    while (pos <= text_.size()) {
      if (pos == text_.size() && pos > 0) break;  // the text ends with a newline: no further line
      const size_t eol = std::min(text_.find('\n', pos), text_.size());
      ++lineNo;
      std::string_view line = text_.substr(pos, eol - pos);
      if (const size_t comment = line.find("//"); comment != std::string_view::npos) line = line.substr(0, comment);
      try {
        TextCursor cursor(line);
        statement(cursor, lineNo);
      } catch (const SyntaxError& e) {
        throw AsmError(std::string(source_), lineNo, e.column(), e.what());
      }
      if (eol >= text_.size()) break;
      pos = eol + 1;
    }
    lastLine_ = lineNo;
    finish();
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(Location at, const std::string& message) const {
    throw AsmError(std::string(source_), at.line, at.column, message);
  }

  void statement(TextCursor& c, size_t lineNo) {
    if (c.atEnd()) return;
    addressPrefix(c);
    labels(c);
    if (c.atEnd()) return;

    const size_t column = c.column();
    if (programClosed_) c.error("statements after the closing '}' of program");
    if (c.accept('}')) {
      if (!programOpen_) c.errorAt(column, "'}' without 'program {'");
      closeProgram();
      expectEnd(c);
      return;
    }
    const std::string_view word = c.peekIdentifier();
    if (word == "program") {
      (void)c.identifier();
      if (programOpen_) c.errorAt(column, "program blocks do not nest");
      if (!out_.words.empty()) c.errorAt(column, "'program {' must come before any instruction");
      c.expect('{', "after 'program'");
      programOpen_ = true;
      programLine_ = lineNo;
      emitStart();
      expectEnd(c);
      return;
    }
    if (word == ".word") {
      (void)c.identifier();
      const size_t valueColumn = c.column();
      const std::string_view text = c.valueToken();
      const auto w = parseWordHex(text);
      if (!w) c.errorAt(valueColumn, ".word needs 0x and 1..32 hex digits" + (text.empty() ? c.describeNext() : ", found '" + std::string(text) + "'"));
      out_.words.push_back(*w);
      expectEnd(c);
      return;
    }
    if (word == ".tileseq") {
      (void)c.identifier();
      const size_t valueColumn = c.column();
      const auto seq = parseUnsigned(c.valueToken());
      if (!seq || *seq >= (uint64_t{1} << tileSequenceWidth())) {
        c.errorAt(valueColumn, ".tileseq needs a number below " + std::to_string(uint64_t{1} << tileSequenceWidth()));
      }
      nextTileSeq_ = *seq;
      expectEnd(c);
      return;
    }
    if (!word.empty() && word[0] == '.') c.errorAt(column, "unknown directive '" + std::string(word) + "'");

    const size_t condColumn = c.column();
    const uint8_t cond = parseCondPrefix(c);
    const std::string_view mnemonic = c.peekIdentifier();
    const auto op = opcodeByMnemonic(mnemonic);
    if (op && *op != Opcode::ScalarBundle) {
      (void)c.identifier();
      emitPacket(parsePacket(c, *op, cond, condColumn), *op, lineNo);
      return;
    }
    out_.words.push_back(parseBundle(c, cond));
  }

  void expectEnd(TextCursor& c) {
    if (!c.atEnd()) c.error("unexpected text at the end of the statement" + c.describeNext());
  }

  // "0012:" — must be the index of the next word.
  void addressPrefix(TextCursor& c) {
    if (c.peek() < '0' || c.peek() > '9') return;
    const size_t column = c.column();
    const std::string_view digits = c.takeWhile(isHexDigit);
    if (!c.accept(':')) c.errorAt(column, "expected an address like '0012:' at the start of the line");
    const auto address = parseUnsigned("0x" + std::string(digits));
    if (!address || *address != out_.words.size()) {
      c.errorAt(column, "address " + std::string(digits) + " does not match the next word, " +
                            formatAddress(out_.words.size()) + " (a line is missing or extra)");
    }
  }

  void labels(TextCursor& c) {
    while (true) {
      const size_t start = c.position();
      const size_t column = c.column();
      const std::string_view name = c.identifier();
      if (name.empty() || !c.accept(':')) {
        c.rewind(start);
        return;
      }
      if (name[0] == '.') c.errorAt(column, "labels may not start with '.' (reserved for directives)");
      const auto [it, inserted] = out_.labels.emplace(std::string(name), static_cast<uint32_t>(out_.words.size()));
      if (!inserted) c.errorAt(column, "label '" + std::string(name) + "' is defined twice");
    }
  }

  void emitPacket(ParsedPacket packet, Opcode op, size_t lineNo) {
    const size_t index = out_.words.size();
    if (isTilePacket(op)) {
      const FieldDef* seq = findPacketField(op, "seq");
      if (seq != nullptr) {
        if (packet.gave("seq")) {
          nextTileSeq_ = decodeField(*seq, packet.words) + 1;
        } else {
          encodeField(*seq, packet.words, nextTileSeq_ & seq->mask());
          ++nextTileSeq_;
        }
      }
    }
    if (op == Opcode::FrameStart && !packet.gave("body_bits")) pendingStarts_.push_back(index);
    if (packet.labelReference) {
      pendingLabels_.push_back(PendingLabel{index, packet.labelReference->field, packet.labelReference->label,
                                            Location{lineNo, packet.labelReference->column}});
    }
    out_.words.insert(out_.words.end(), packet.words.begin(), packet.words.end());
  }

  void emitStart() {
    pendingStarts_.push_back(out_.words.size());
    Word128 start;
    start.setBits(6, 6, static_cast<uint8_t>(Opcode::FrameStart));
    out_.words.push_back(start);
  }

  void closeProgram() {
    programOpen_ = false;
    programClosed_ = true;
    Word128 halt;
    halt.setBits(6, 6, static_cast<uint8_t>(Opcode::Halt));
    const FieldDef* kind = findPacketField(Opcode::Halt, "kind");
    halt.setBits(kind->lsb, kind->width, kind->defaultValue);  // final
    out_.words.push_back(halt);
    for (unsigned i = 0; i < kDrainNops; ++i) out_.words.push_back(nopBundle());
    Word128 end;
    end.setBits(6, 6, static_cast<uint8_t>(Opcode::FrameEnd));
    const FieldDef& length = fieldsOfGroup(FieldGroup::FrameLength).front();
    end.setBits(length.lsb, length.width, length.defaultValue);  // 128
    out_.words.push_back(end);
  }

  void finish() {
    if (programOpen_) {
      fail(Location{lastLine_, 1}, "'program {' on line " + std::to_string(programLine_) + " is never closed with '}'");
    }
    for (const PendingLabel& p : pendingLabels_) {
      const auto it = out_.labels.find(p.label);
      if (it == out_.labels.end()) fail(p.at, "unknown label '" + p.label + "'");
      const int64_t offset = int64_t{it->second} - static_cast<int64_t>(p.wordIndex);
      const int64_t limit = int64_t{1} << (p.field->width - 1);
      if (offset < -limit || offset >= limit) {
        fail(p.at, "label '" + p.label + "' is " + std::to_string(offset) + " words away; " +
                       std::string(p.field->name) + " reaches " + std::to_string(-limit) + ".." +
                       std::to_string(limit - 1));
      }
      encodeField(*p.field, std::span<Word128>(out_.words).subspan(p.wordIndex),
                  static_cast<uint64_t>(offset) & p.field->mask());
    }
    const FieldDef& length = fieldsOfGroup(FieldGroup::FrameLength).front();
    const uint64_t n = out_.words.size();
    const uint64_t bodyBits = n >= 2 ? (n - 2) * 128 : 0;
    for (size_t index : pendingStarts_) {
      if (bodyBits > length.mask()) fail(Location{lastLine_, 1}, "the program is too long for START's length field");
      out_.words[index].setBits(length.lsb, length.width, bodyBits);
    }
  }

  std::string_view text_;
  std::string_view source_;
  AssembledProgram out_;
  std::vector<PendingLabel> pendingLabels_;
  std::vector<size_t> pendingStarts_;
  uint64_t nextTileSeq_ = 0;
  bool programOpen_ = false;
  bool programClosed_ = false;
  size_t programLine_ = 0;
  size_t lastLine_ = 0;
};

std::string describeAsmError(const std::string& source, size_t line, size_t column, const std::string& message) {
  return source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": error: " + message;
}

}  // namespace

AsmError::AsmError(std::string source, size_t line, size_t column, const std::string& message)
    : std::runtime_error(describeAsmError(source, line, column, message)),
      source_(std::move(source)),
      line_(line),
      column_(column),
      message_(message) {}

AssembledProgram assemble(std::string_view text, std::string_view sourceName) {
  return Assembler(text, sourceName).run();
}

}  // namespace coralsim::isa
