// DecodedProgram: one instruction chunk, segmented strictly and predecoded once, in the form the
// scalar core executes (models/scalar/scalar_engine.h).
//
// Why predecode: the core runs tens of millions of bundles per second and revisits the same
// words in loops, so every field it needs is extracted here once — the ALU kind resolved from the
// op table, load/store addresses split out of their operands, branch targets resolved to packet
// indices, loop bodies checked — and the execution loop only reads these plain structs.
//
// Decoding never judges what a packet *does*: an unknown ALU op, a branch into a payload word or
// a loop body containing a branch is a valid chunk that faults only if the core executes it
// (hardware would run the chunk up to that point). Only framing errors that make the chunk
// impossible to place (unknown opcodes, truncated packets, START's length, no END) throw here;
// the rest are noted (frameNotes, docs/refusal-rules.md).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/isa/opcodes.h"
#include "models/isa/scalar_bundle.h"
#include "models/isa/segmenter.h"
#include "models/isa/word128.h"

namespace coralsim::models {

// A chunk that cannot be segmented (bad framing, unknown opcode, truncated packet, bytes that are
// not whole words). The message names the word index and the word in hex.
class ProgramDecodeError : public std::runtime_error {
 public:
  ProgramDecodeError(uint64_t wordIndex, const std::string& what)
      : std::runtime_error(what), wordIndex_(wordIndex) {}
  [[nodiscard]] uint64_t wordIndex() const { return wordIndex_; }

 private:
  uint64_t wordIndex_;
};

// What the scalar core does with a packet.
enum class PacketAction : uint8_t {
  kBundle,      // 0x20: executed by the core
  kHalt,        // 0x21
  kBranch,      // 0x22
  kLoop,        // 0x23
  kIssue,       // tile packets and scalar-side units: handed to the host in program order
  kFrameStart,  // START: execution begins after it; reaching it again is a fault
  kFrameEnd,    // END: the frame trailer, never executed
};

enum class HaltKind : uint8_t {
  kFinal,     // 0x10: the executable's run is over
  kChunkEnd,  // 0x04 (and 0x00, see packet_fields.def): the next chunk continues, state kept
  kUnknown,   // any other value: a fault if executed
};

// A 5-bit predication / branch condition {bit 0 gate, bits 3:1 predicate, bit 4 polarity}
// (docs/isa.md §2.3, §3.6): with the gate clear it always holds, otherwise it holds when
// p[pred] == polarity.
struct Condition {
  bool gated = false;
  uint8_t pred = 0;
  bool polarity = false;

  [[nodiscard]] static constexpr Condition fromCode(uint32_t code) {
    return Condition{(code & 1u) != 0, static_cast<uint8_t>((code >> 1) & 7u), ((code >> 4) & 1u) != 0};
  }
};

// The slots of a scalar bundle resolved for execution (from isa::ScalarBundle and the op tables).
struct BundleExec {
  Condition condition;

  // ALU slot. kind None = empty slot; Unknown = an op without semantics (faults when executed).
  isa::AluKind alu = isa::AluKind::None;
  bool aluWritesPredicate = false;  // compares: the destination is p[aluDest]
  uint8_t aluDest = 0;              // scalar register, or predicate register (dest & 7) for compares
  uint8_t aluSrcA = 0;
  bool aluImmediate = false;
  uint32_t aluSrc = 0;              // the immediate, or the register index of source B

  // Load slot.
  isa::LoadForm load = isa::LoadForm::None;
  uint8_t loadDest = 0;
  uint8_t loadReg = 0;              // address register (indirect forms)
  uint16_t loadAddress = 0;         // absolute word address (op 1)
  uint8_t loadIncrement = 0;        // post-increment in words (op 3)

  // Store / descriptor slot. Unknown = ops 7..15 (fault when executed).
  isa::StoreForm store = isa::StoreForm::None;
  uint8_t storeSrc = 0;
  uint8_t storeReg = 0;             // address register (indirect forms)
  uint16_t storeAddress = 0;        // absolute word address (op 1)
  uint8_t storeIncrement = 0;       // post-increment in words (op 3)
  uint8_t descIndex = 0;            // descriptor word k (op 5)

  // Bits 127:102, the special-function slot seen in softmax loops. Its semantics are unknown
  // (bundle_fields.def: Guess); the core executes it as a no-op.
  bool specialFunction = false;
};

struct DecodedPacket {
  static constexpr uint32_t kNoPacket = std::numeric_limits<uint32_t>::max();

  // The fields the execution loop reads for a bundle come first, so they share a cache line.
  uint32_t pc = 0;  // word index of the packet's first word in the chunk
  isa::Opcode opcode{};
  uint8_t length = 0;  // in 128-bit words
  PacketAction action = PacketAction::kIssue;
  BundleExec exec{};  // kBundle: the slots resolved for execution

  std::span<const isa::Word128> words;  // the packet's words, owned by the DecodedProgram
  isa::ScalarBundle bundle{};           // kBundle: every raw field

  // kBranch: condition, signed offset in words from the branch word, and the index of the target
  // packet (kNoPacket when the target is not the first word of a packet of this chunk).
  Condition branchCondition;
  int32_t branchOffset = 0;
  uint32_t branchTargetWord = 0;  // pc + offset, wrapped to 32 bits (for messages)
  uint32_t branchTarget = kNoPacket;

  // kLoop: repeat the next `loopBody` packets `loopCount` times. loopBadPacket is the index of
  // the first packet of the body that is not a scalar bundle (or lies past the chunk);
  // kNoPacket when the body is well formed.
  uint32_t loopCount = 0;
  uint8_t loopBody = 0;
  uint32_t loopBadPacket = kNoPacket;

  // kHalt
  uint16_t haltCode = 0;
  HaltKind haltKind = HaltKind::kUnknown;

  // Tile packets (0x01-0x1a).
  bool tilePacket = false;
  uint16_t tileMask = 0;
  uint32_t tileSequence = 0;
};

class DecodedProgram {
 public:
  static constexpr uint32_t kNoPacket = DecodedPacket::kNoPacket;

  // Segments `words` (START length rule, body, HALT, drain NOPs, END; `rules` sets the expected NOP
  // count, by default the ISA layer's 3..4, see isa::FrameRules) and predecodes every packet.
  // Throws ProgramDecodeError, except for framing errors about packets the core never executes
  // (frameErrorIsTolerated: a HALT followed by another number of NOPs, NOPs before END that follow
  // no HALT, a misplaced START/END, END's length): hardware runs such chunks, so they decode and
  // frameNotes() describes the oddity (docs/refusal-rules.md).
  explicit DecodedProgram(std::vector<isa::Word128> words, const isa::FrameRules& rules = {});

  // The same from the chunk's bytes (a whole number of 16-byte words).
  [[nodiscard]] static std::shared_ptr<const DecodedProgram> fromBytes(std::span<const uint8_t> bytes,
                                                                       const isa::FrameRules& rules = {});
  [[nodiscard]] static std::shared_ptr<const DecodedProgram> fromWords(std::vector<isa::Word128> words,
                                                                       const isa::FrameRules& rules = {});

  // Packets hold spans into words_: neither copyable nor movable.
  DecodedProgram(const DecodedProgram&) = delete;
  DecodedProgram& operator=(const DecodedProgram&) = delete;

  [[nodiscard]] std::span<const isa::Word128> words() const { return words_; }
  [[nodiscard]] std::span<const DecodedPacket> packets() const { return packets_; }
  [[nodiscard]] size_t wordCount() const { return words_.size(); }

  // The index of the packet starting at `wordIndex`; kNoPacket for payload words and indices
  // outside the chunk.
  [[nodiscard]] uint32_t packetIndexAt(uint32_t wordIndex) const {
    return wordIndex < packetAtWord_.size() ? packetAtWord_[wordIndex] : kNoPacket;
  }
  [[nodiscard]] const DecodedPacket* packetAt(uint32_t wordIndex) const {
    const uint32_t index = packetIndexAt(wordIndex);
    return index == kNoPacket ? nullptr : &packets_[index];
  }

  // Counts over the chunk (for reports and the instruction queue).
  [[nodiscard]] size_t bundleCount() const { return bundleCount_; }
  [[nodiscard]] size_t tilePacketCount() const { return tilePacketCount_; }
  // Framing oddities the chunk was accepted with (empty for a well-framed chunk).
  [[nodiscard]] const std::vector<std::string>& frameNotes() const { return frameNotes_; }

 private:
  std::vector<isa::Word128> words_;
  std::vector<DecodedPacket> packets_;
  std::vector<uint32_t> packetAtWord_;  // word index -> packet index (kNoPacket for payload)
  size_t bundleCount_ = 0;
  size_t tilePacketCount_ = 0;
  std::vector<std::string> frameNotes_;
};

// The framing errors the device accepts a chunk with (noted in DecodedProgram::frameNotes): they
// concern packets that are never executed unless execution reaches them, and then it faults.
[[nodiscard]] bool frameErrorIsTolerated(isa::SegmentErrorKind kind);

// "PC 0x0012 (word 0x...)": how faults and errors name a packet.
[[nodiscard]] std::string describePacketLocation(uint32_t pc, const isa::Word128& word);

}  // namespace coralsim::models
