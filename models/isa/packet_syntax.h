// Assembly syntax of every table-driven packet (all classes except the scalar bundle), both
// directions, generated from packet_fields.def:
//
//   [(p0)] mnemonic [positional values] [name=value ...] [name=[v0,v1,...] ...] [wK=0x... ...]
//
//   halt final               (p0) br -72              loop n=2027 body=2
//   start body_bits=22656    end body_bits=128        sc.sync mask=0xffff w1=0x0300...
//   tile.compute mask=0x000f seq=13 ... zp_in=127 mult=1.0 clamp_hi=126.0 clamp_lo=-129.0 zp_out=129
//   tile.nlu mask=0x0001 seq=4 coef=[128.0,64.0,...] bp=[...] tail=3
//
// Every field of the packet's groups is printed (positional ones bare, the rest as name=value;
// fields flagged kFieldOmitDefault only when they differ from their default). "wK=0x..." carries
// the bits of word K that no field covers (XORed into the encoded word: for those bits the same
// as OR), so any word sequence prints and reassembles bit-exactly.
// When assembling, a field left out takes its table default.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/isa/field.h"
#include "models/isa/opcodes.h"
#include "models/isa/text_cursor.h"
#include "models/isa/word128.h"

namespace coralsim::isa {

// The text of the packet in `words` (words.size() == packetLength(opcodeOf(words[0])); the opcode
// must be known and not a scalar bundle).
[[nodiscard]] std::string formatPacket(std::span<const Word128> words);

// A WordOffset field written as a label: the assembler resolves it once all labels are known.
struct LabelReference {
  const FieldDef* field = nullptr;
  std::string label;
  size_t column = 0;
};

struct ParsedPacket {
  std::vector<Word128> words;
  std::vector<const FieldDef*> given;  // the fields the text set explicitly
  std::optional<LabelReference> labelReference;

  [[nodiscard]] bool gave(std::string_view fieldName) const;
};

// Parses the rest of a statement whose mnemonic named `op`; `cond` is the parsed "(pN)" prefix
// (0 if none) and `condColumn` where it started.
[[nodiscard]] ParsedPacket parsePacket(TextCursor& cursor, Opcode op, uint8_t cond, size_t condColumn);

// Formats one field value as the assembler reads it.
[[nodiscard]] std::string formatFieldValue(const FieldDef& field, uint64_t value);

}  // namespace coralsim::isa
