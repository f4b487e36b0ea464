#include "models/isa/disassembler.h"

#include <map>

#include "models/isa/bundle_syntax.h"
#include "models/isa/number_text.h"
#include "models/isa/packet_fields.h"
#include "models/isa/packet_syntax.h"

namespace coralsim::isa {

namespace {

std::string rawWord(const Word128& w) { return ".word " + formatWordHex(w); }

// Where a branch goes, for the comment after it.
std::string branchComment(const Word128& w, uint32_t address) {
  const FieldDef* offset = findPacketField(Opcode::Branch, "offset");
  if (offset == nullptr) return "";
  const int64_t target = int64_t{address} + signExtend(w.bits(offset->lsb, offset->width), offset->width);
  if (target < 0) return "  // -> before word 0";
  return "  // -> " + formatAddress(static_cast<uint64_t>(target));
}

}  // namespace

std::string formatPacketText(std::span<const Word128> words) {
  if (words.empty()) return "";
  const Opcode op = opcodeOf(words[0]);
  const unsigned length = packetLength(op);
  if (length == 0 || words.size() != length) return rawWord(words[0]);
  if (op == Opcode::ScalarBundle) return formatBundle(words[0]);
  return formatPacket(words);
}

std::vector<std::string> disassembleLines(std::span<const Word128> words, const DisassemblyOptions& options) {
  const LenientSegmentation seg = segmentLenient(words, options.frameRules);
  std::vector<std::string> lines;
  lines.reserve(seg.program.packets.size() + seg.errors.size());

  // Segmentation errors explain raw words; index them by word (a garbage input can have one per word).
  std::map<uint64_t, const SegmentError*> rawReasons;
  for (const SegmentError& e : seg.errors) {
    if (e.kind() == SegmentErrorKind::UnknownOpcode || e.kind() == SegmentErrorKind::Truncated) {
      rawReasons.emplace(e.wordIndex(), &e);
    }
  }
  auto reasonFor = [&](uint32_t index) -> std::string {
    const auto it = rawReasons.find(index);
    if (it == rawReasons.end()) return "part of a truncated packet";
    return std::string(segmentErrorKindName(it->second->kind())) + ": " + it->second->detail();
  };

  for (const Packet& p : seg.program.packets) {
    std::string line = formatAddress(p.wordIndex) + ": ";
    if (p.raw) {
      line += rawWord(words[p.wordIndex]);
      if (options.comments) line += "  // " + reasonFor(p.wordIndex);
    } else {
      line += formatPacketText(words.subspan(p.wordIndex, p.length));
      if (options.comments && p.op == Opcode::Branch) line += branchComment(words[p.wordIndex], p.wordIndex);
    }
    lines.push_back(std::move(line));
    if (options.packetNotes && !p.raw) {
      for (const std::string& note : options.packetNotes(words.subspan(p.wordIndex, p.length))) {
        lines.push_back("//   " + note);
      }
    }
  }
  if (options.comments) {
    for (const SegmentError& e : seg.errors) {
      if (e.kind() == SegmentErrorKind::UnknownOpcode || e.kind() == SegmentErrorKind::Truncated) continue;
      lines.push_back("// frame error: " + std::string(e.what()));
    }
  }
  return lines;
}

std::string disassemble(std::span<const Word128> words, const DisassemblyOptions& options) {
  std::string text;
  for (const std::string& line : disassembleLines(words, options)) {
    text += line;
    text += '\n';
  }
  return text;
}

}  // namespace coralsim::isa
