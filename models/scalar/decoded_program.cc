#include "models/scalar/decoded_program.h"

#include <string_view>

#include "models/isa/number_text.h"
#include "models/isa/packet_fields.h"

namespace coralsim::models {

namespace {

using isa::Word128;

const isa::FieldDef& field(isa::Opcode op, std::string_view name) {
  const isa::FieldDef* f = isa::findPacketField(op, name);
  // The names below are fixed facts of packet_fields.def; a missing one is a table bug.
  if (f == nullptr) throw std::logic_error("packet_fields.def has no field '" + std::string(name) + "'");
  return *f;
}

uint64_t read(const Word128& w, const isa::FieldDef& f) { return w.bits(f.lsb, f.width); }

int32_t signExtend(uint64_t value, unsigned width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int32_t>(static_cast<int64_t>((value ^ sign) - sign));
}

uint64_t haltKindValue(std::string_view name) {
  for (const isa::ValueName& v : isa::kHaltKindNames) {
    if (v.name == name) return v.value;
  }
  throw std::logic_error("packet_fields.h has no HALT kind '" + std::string(name) + "'");
}

HaltKind haltKindOf(uint64_t code) {
  static const uint64_t kFinal = haltKindValue("final");
  static const uint64_t kChunk = haltKindValue("chunk");
  // 0x00 also ends a non-final chunk (packet_fields.def: "another compiler generation"; the public
  // corpus has three such chunks, e.g. iwatake2222 model_mat_Add chunks 0 and 1).
  constexpr uint64_t kChunkOlderCompiler = 0x00;
  if (code == kFinal) return HaltKind::kFinal;
  if (code == kChunk || code == kChunkOlderCompiler) return HaltKind::kChunkEnd;
  return HaltKind::kUnknown;
}

BundleExec resolveBundle(const isa::ScalarBundle& b) {
  BundleExec e;
  e.condition = b.gate != 0 ? Condition{true, b.pred, b.polarity != 0} : Condition{};

  if (b.aluOp != 0) {
    const isa::AluOpInfo& info = isa::aluOpInfo(b.aluOp);
    // Base op 0 with the immediate bit (0x20) has no documented meaning: treat it as unknown.
    e.alu = info.kind == isa::AluKind::None ? isa::AluKind::Unknown : info.kind;
    e.aluWritesPredicate = info.dest == isa::AluDest::Predicate;
    // docs/isa.md §3.3: compares write predicate s_x & 7.
    e.aluDest = e.aluWritesPredicate ? static_cast<uint8_t>(b.aluDest & 7u) : b.aluDest;
    e.aluSrcA = b.aluSrcA;
    e.aluImmediate = isa::aluIsImmediate(b.aluOp);
    e.aluSrc = e.aluImmediate ? b.aluImm : b.aluSrcB();
  }

  e.load = isa::loadForm(b.loadOp);
  e.loadDest = b.loadDest;
  e.loadReg = b.loadAddrReg();
  e.loadAddress = b.loadAddr;
  e.loadIncrement = b.loadInc();

  e.store = isa::storeForm(b.storeOp);
  e.storeSrc = b.storeSrc;
  e.storeReg = b.storeAddrReg();
  e.storeAddress = b.storeOperand;
  e.storeIncrement = b.storeInc();
  e.descIndex = b.descIndex();

  e.specialFunction = b.high != 0;
  return e;
}

PacketAction actionOf(isa::Opcode op) {
  switch (isa::packetClass(op)) {
    case isa::PacketClass::ScalarBundle: return PacketAction::kBundle;
    case isa::PacketClass::Halt: return PacketAction::kHalt;
    case isa::PacketClass::Branch: return PacketAction::kBranch;
    case isa::PacketClass::Loop: return PacketAction::kLoop;
    case isa::PacketClass::FrameStart: return PacketAction::kFrameStart;
    case isa::PacketClass::FrameEnd: return PacketAction::kFrameEnd;
    default: return PacketAction::kIssue;
  }
}

}  // namespace

bool frameErrorIsTolerated(isa::SegmentErrorKind kind) {
  switch (kind) {
    case isa::SegmentErrorKind::DrainNops:
    case isa::SegmentErrorKind::MissingHalt:
    case isa::SegmentErrorKind::MisplacedStart:
    case isa::SegmentErrorKind::MisplacedEnd:
    case isa::SegmentErrorKind::BadEndLength:
      return true;
    default:
      return false;
  }
}

std::string describePacketLocation(uint32_t pc, const Word128& word) {
  return "PC 0x" + isa::formatAddress(pc) + " (word " + isa::formatWordHex(word) + ")";
}

DecodedProgram::DecodedProgram(std::vector<Word128> words, const isa::FrameRules& rules) : words_(std::move(words)) {
  // What the frame says about packets the core never executes is tolerated, as on hardware
  // (docs/refusal-rules.md): a final HALT stops the core, so whatever follows it — 3 or 4 drain
  // NOPs, thousands of NOPs up to the chunk limit (a transformer's 262,176-byte chunk halts at word
  // 4000, issue #14), none, or other packets — is never executed; a START or END inside the body
  // and END's length field matter only if execution reaches them, and then the engine faults. Every
  // other framing error makes the chunk impossible to place (unknown packet length, START length,
  // no END to stop a run off the chunk) and is refused.
  isa::LenientSegmentation segmented = isa::segmentLenient(words_, rules);
  for (const isa::SegmentError& e : segmented.errors) {
    if (frameErrorIsTolerated(e.kind())) {
      frameNotes_.push_back(std::string(e.what()) + " (tolerated: never executed)");
      continue;
    }
    throw ProgramDecodeError(e.wordIndex(), std::string("instruction chunk: ") + e.what());
  }
  const isa::Program& program = segmented.program;
  if (words_.size() >= kNoPacket) {
    throw ProgramDecodeError(0, "instruction chunk: " + std::to_string(words_.size()) + " words is too long");
  }

  static const isa::FieldDef& haltKind = field(isa::Opcode::Halt, "kind");
  static const isa::FieldDef& branchCond = field(isa::Opcode::Branch, "cond");
  static const isa::FieldDef& branchOffset = field(isa::Opcode::Branch, "offset");
  static const isa::FieldDef& loopCount = field(isa::Opcode::Loop, "n");
  static const isa::FieldDef& loopBody = field(isa::Opcode::Loop, "body");
  static const isa::FieldDef& tileMask = isa::fieldsOfGroup(isa::FieldGroup::TileMask).front();

  packets_.reserve(program.packets.size());
  packetAtWord_.assign(words_.size(), kNoPacket);
  for (const isa::Packet& segment : program.packets) {
    DecodedPacket p;
    p.pc = segment.wordIndex;
    p.opcode = segment.op;
    p.length = segment.length;
    p.action = actionOf(segment.op);
    p.words = std::span<const Word128>(words_).subspan(segment.wordIndex, segment.length);
    const Word128& w = words_[segment.wordIndex];
    switch (p.action) {
      case PacketAction::kBundle:
        p.bundle = isa::decodeBundle(w);
        p.exec = resolveBundle(p.bundle);
        ++bundleCount_;
        break;
      case PacketAction::kHalt:
        p.haltCode = static_cast<uint16_t>(read(w, haltKind));
        p.haltKind = haltKindOf(p.haltCode);
        break;
      case PacketAction::kBranch:
        p.branchCondition = Condition::fromCode(static_cast<uint32_t>(read(w, branchCond)));
        p.branchOffset = signExtend(read(w, branchOffset), branchOffset.width);
        p.branchTargetWord = p.pc + static_cast<uint32_t>(p.branchOffset);
        break;
      case PacketAction::kLoop:
        p.loopCount = static_cast<uint32_t>(read(w, loopCount));
        p.loopBody = static_cast<uint8_t>(read(w, loopBody));
        break;
      case PacketAction::kIssue:
        if (isa::isTilePacket(segment.op)) {
          p.tilePacket = true;
          p.tileMask = static_cast<uint16_t>(read(w, tileMask));
          p.tileSequence = isa::tileSequenceNumber(w).value_or(0);
          ++tilePacketCount_;
        }
        break;
      case PacketAction::kFrameStart:
      case PacketAction::kFrameEnd:
        break;
    }
    packetAtWord_[segment.wordIndex] = static_cast<uint32_t>(packets_.size());
    packets_.push_back(p);
  }

  // Second pass: everything that refers to other packets.
  for (uint32_t i = 0; i < packets_.size(); ++i) {
    DecodedPacket& p = packets_[i];
    if (p.action == PacketAction::kBranch) {
      p.branchTarget = packetIndexAt(p.branchTargetWord);
    } else if (p.action == PacketAction::kLoop) {
      for (uint32_t k = 1; k <= p.loopBody; ++k) {
        if (i + k >= packets_.size() || packets_[i + k].action != PacketAction::kBundle) {
          p.loopBadPacket = i + k;
          break;
        }
      }
    }
  }
}

std::shared_ptr<const DecodedProgram> DecodedProgram::fromWords(std::vector<Word128> words,
                                                                 const isa::FrameRules& rules) {
  return std::make_shared<const DecodedProgram>(std::move(words), rules);
}

std::shared_ptr<const DecodedProgram> DecodedProgram::fromBytes(std::span<const uint8_t> bytes,
                                                                const isa::FrameRules& rules) {
  if (bytes.size() % Word128::kBytes != 0) {
    throw ProgramDecodeError(bytes.size() / Word128::kBytes,
                             "instruction chunk: " + std::to_string(bytes.size()) +
                                 " bytes is not a whole number of 16-byte words");
  }
  return fromWords(isa::wordsFromBytes(bytes), rules);
}

}  // namespace coralsim::models
