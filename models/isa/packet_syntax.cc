#include "models/isa/packet_syntax.h"

#include <algorithm>

#include "models/isa/bundle_syntax.h"
#include "models/isa/number_text.h"
#include "models/isa/packet_fields.h"

namespace coralsim::isa {

namespace {

bool isPositional(const FieldDef& f) { return (f.flags & kFieldPositional) != 0; }
bool omitsDefault(const FieldDef& f) { return (f.flags & kFieldOmitDefault) != 0; }

// Encodes the opcode plus every field at its given or default value (no residual).
std::vector<Word128> encodeFields(Opcode op, std::span<const std::vector<uint64_t>> values) {
  std::vector<Word128> words(packetLength(op));
  words[0].setBits(6, 6, static_cast<uint8_t>(op));
  const PacketFieldList fields = packetFields(op);
  for (size_t i = 0; i < fields.size; ++i) {
    const FieldDef& f = *fields.items[i];
    for (unsigned e = 0; e < f.count; ++e) encodeField(f, words, values[i][e], e);
  }
  return words;
}

std::optional<uint64_t> parseFieldValue(const FieldDef& f, std::string_view text, std::string& why) {
  switch (f.format) {
    case FieldFormat::F32: {
      const auto bits = parseF32(text);
      if (!bits) why = "expected a float (1.5, -129.0, inf, nan:0x7fc00000)";
      return bits;
    }
    case FieldFormat::Signed:
    case FieldFormat::WordOffset: {
      const auto v = parseSigned(text);
      if (!v) {
        why = "expected a signed number";
        return std::nullopt;
      }
      const int64_t lo = -(int64_t{1} << (f.width - 1));
      const int64_t hi = (int64_t{1} << (f.width - 1)) - 1;
      if (*v < lo || *v > hi) {
        why = "out of range " + std::to_string(lo) + ".." + std::to_string(hi);
        return std::nullopt;
      }
      return static_cast<uint64_t>(*v) & f.mask();
    }
    case FieldFormat::Enum:
      for (const ValueName& vn : f.valueNames) {
        if (vn.name == text) return vn.value;
      }
      [[fallthrough]];
    case FieldFormat::Hex:
    case FieldFormat::HexPadded:
    case FieldFormat::Dec:
    case FieldFormat::Cond: {
      const auto v = parseUnsigned(text);
      if (!v) {
        why = "expected a number";
        return std::nullopt;
      }
      if (f.width < 64 && (*v >> f.width) != 0) {
        why = "does not fit in " + std::to_string(f.width) + " bits";
        return std::nullopt;
      }
      return v;
    }
  }
  why = "unsupported field format";
  return std::nullopt;
}

}  // namespace

std::string formatFieldValue(const FieldDef& f, uint64_t value) {
  switch (f.format) {
    case FieldFormat::Hex:
    case FieldFormat::Cond: return formatHex(value);
    case FieldFormat::HexPadded: return formatHex(value, (f.width + 3u) / 4u);
    case FieldFormat::Dec: return std::to_string(value);
    case FieldFormat::Signed:
    case FieldFormat::WordOffset: {
      const int64_t v = signExtend(value, f.width);
      return (v >= 0 ? "+" : "") + std::to_string(v);
    }
    case FieldFormat::F32: return formatF32(static_cast<uint32_t>(value));
    case FieldFormat::Enum:
      for (const ValueName& vn : f.valueNames) {
        if (vn.value == value) return std::string(vn.name);
      }
      return formatHex(value);
  }
  return formatHex(value);
}

bool ParsedPacket::gave(std::string_view fieldName) const {
  return std::any_of(given.begin(), given.end(), [&](const FieldDef* f) { return f->name == fieldName; });
}

std::string formatPacket(std::span<const Word128> words) {
  const Opcode op = opcodeOf(words[0]);
  const PacketFieldList fields = packetFields(op);
  std::vector<std::vector<uint64_t>> values(fields.size);
  for (size_t i = 0; i < fields.size; ++i) {
    const FieldDef& f = *fields.items[i];
    for (unsigned e = 0; e < f.count; ++e) values[i].push_back(decodeField(f, words, e));
  }

  std::string prefix;
  std::string positional;
  std::string named;
  for (size_t i = 0; i < fields.size; ++i) {
    const FieldDef& f = *fields.items[i];
    if (f.format == FieldFormat::Cond && f.count == 1) {
      if (const auto p = formatCondPrefix(static_cast<uint8_t>(values[i][0]))) {
        prefix = *p;
        continue;
      }
    }
    if (isPositional(f) && f.count == 1) {
      positional += " " + formatFieldValue(f, values[i][0]);
      continue;
    }
    if (omitsDefault(f) && f.count == 1 && values[i][0] == f.defaultValue) continue;
    named += " " + std::string(f.name) + "=";
    if (f.count == 1) {
      named += formatFieldValue(f, values[i][0]);
    } else {
      named += "[";
      for (unsigned e = 0; e < f.count; ++e) named += (e ? "," : "") + formatFieldValue(f, values[i][e]);
      named += "]";
    }
  }

  const std::vector<Word128> encoded = encodeFields(op, values);
  std::string residual;
  for (size_t k = 0; k < words.size() && k < encoded.size(); ++k) {
    const Word128 rest = xorWords(words[k], encoded[k]);
    if (!isZeroWord(rest)) residual += " w" + std::to_string(k) + "=" + formatWordHex(rest);
  }
  return prefix + std::string(opcodeInfo(op).mnemonic) + positional + named + residual;
}

ParsedPacket parsePacket(TextCursor& c, Opcode op, uint8_t cond, size_t condColumn) {
  const OpcodeInfo& info = opcodeInfo(op);
  const PacketFieldList fields = packetFields(op);
  std::vector<std::vector<uint64_t>> values(fields.size);
  std::vector<bool> given(fields.size, false);
  for (size_t i = 0; i < fields.size; ++i) values[i].assign(fields.items[i]->count, fields.items[i]->defaultValue);

  ParsedPacket out;
  auto setGiven = [&](size_t i, size_t column) {
    if (given[i]) c.errorAt(column, "field '" + std::string(fields.items[i]->name) + "' is given twice");
    given[i] = true;
    out.given.push_back(fields.items[i]);
  };

  if (cond != 0) {
    size_t condField = fields.size;
    for (size_t i = 0; i < fields.size; ++i) {
      if (fields.items[i]->format == FieldFormat::Cond) condField = i;
    }
    if (condField == fields.size) {
      c.errorAt(condColumn, std::string(info.mnemonic) + " takes no predicate prefix");
    }
    setGiven(condField, condColumn);
    values[condField][0] = cond;
  }

  std::vector<Word128> residual(info.words);
  std::vector<bool> residualGiven(info.words, false);
  size_t nextPositional = 0;
  while (!c.atEnd()) {
    const size_t column = c.column();
    const size_t start = c.position();
    const std::string_view name = c.identifier();
    if (!name.empty() && c.accept('=')) {
      // wK=0x...: residual bits of word K.
      if (name.size() >= 2 && name[0] == 'w' && parseUnsigned(name.substr(1))) {
        const auto k = *parseUnsigned(name.substr(1));
        if (k >= info.words) {
          c.errorAt(column, std::string(info.mnemonic) + " has " + std::to_string(info.words) + " words, there is no " +
                                std::string(name));
        }
        if (residualGiven[k]) c.errorAt(column, std::string(name) + " is given twice");
        residualGiven[k] = true;
        const size_t valueColumn = c.column();
        const std::string_view text = c.valueToken();
        const auto w = parseWordHex(text);
        if (!w) c.errorAt(valueColumn, std::string(name) + "= needs 0x and 1..32 hex digits, found '" + std::string(text) + "'");
        if (k == 0 && w->bits(6, 6) != 0) c.errorAt(valueColumn, "w0= may not change the opcode bits 11:6");
        residual[k] = *w;
        continue;
      }
      size_t i = 0;
      while (i < fields.size && fields.items[i]->name != name) ++i;
      if (i == fields.size) {
        std::string known;
        for (const FieldDef* f : fields) known += (known.empty() ? "" : ", ") + std::string(f->name);
        c.errorAt(column, std::string(info.mnemonic) + " has no field '" + std::string(name) + "'" +
                              (known.empty() ? std::string() : " (fields: " + known + ")"));
      }
      const FieldDef& f = *fields.items[i];
      setGiven(i, column);
      const bool array = f.count > 1;
      if (array) c.expect('[', "before the values of array field '" + std::string(f.name) + "'");
      for (unsigned e = 0; e < f.count; ++e) {
        if (e > 0) c.expect(',', "between the " + std::to_string(f.count) + " values of '" + std::string(f.name) + "'");
        const size_t valueColumn = c.column();
        const std::string_view text = c.valueToken();
        std::string why;
        const auto v = parseFieldValue(f, text, why);
        if (!v) c.errorAt(valueColumn, "bad value '" + std::string(text) + "' for " + std::string(f.name) + ": " + why);
        values[i][e] = *v;
      }
      if (array) c.expect(']', "after the " + std::to_string(f.count) + " values of '" + std::string(f.name) + "'");
      continue;
    }
    // A positional value.
    c.rewind(start);
    while (nextPositional < fields.size && !(isPositional(*fields.items[nextPositional]) && fields.items[nextPositional]->count == 1)) {
      ++nextPositional;
    }
    if (nextPositional == fields.size) {
      c.errorAt(column, "unexpected '" + std::string(c.valueToken()) + "': " + std::string(info.mnemonic) +
                            " takes name=value fields here");
    }
    const size_t i = nextPositional++;
    const FieldDef& f = *fields.items[i];
    setGiven(i, column);
    const std::string_view text = c.valueToken();
    if (text.empty()) c.errorAt(column, "expected a value for " + std::string(f.name) + c.describeNext());
    if (f.format == FieldFormat::WordOffset && TextCursor::isNameStart(text[0])) {
      out.labelReference = LabelReference{&f, std::string(text), column};
      continue;
    }
    std::string why;
    const auto v = parseFieldValue(f, text, why);
    if (!v) c.errorAt(column, "bad value '" + std::string(text) + "' for " + std::string(f.name) + ": " + why);
    values[i][0] = *v;
  }

  out.words = encodeFields(op, values);
  for (size_t k = 0; k < out.words.size(); ++k) out.words[k] = xorWords(out.words[k], residual[k]);
  return out;
}

}  // namespace coralsim::isa
