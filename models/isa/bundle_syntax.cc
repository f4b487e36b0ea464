#include "models/isa/bundle_syntax.h"

#include <vector>

#include "models/isa/field.h"
#include "models/isa/number_text.h"

namespace coralsim::isa {

namespace {

constexpr unsigned kScalarRegisters = 32;
constexpr unsigned kPredicateRegisters = 8;

// "s12" -> 12 when the name is `prefix` followed by a number below `limit`.
std::optional<unsigned> registerNumber(std::string_view name, char prefix, unsigned limit) {
  if (name.size() < 2 || name.size() > 3 || name[0] != prefix) return std::nullopt;
  unsigned value = 0;
  for (char c : name.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (name.size() == 3 && name[1] == '0') return std::nullopt;  // "s05": one spelling per register
  if (value >= limit) return std::nullopt;
  return value;
}

std::string reg(char prefix, unsigned number) { return prefix + std::to_string(number); }

unsigned expectRegister(TextCursor& c, char prefix, unsigned limit, std::string_view role) {
  const size_t column = c.column();
  const std::string_view name = c.identifier();
  const auto number = registerNumber(name, prefix, limit);
  if (!number) {
    c.errorAt(column, "expected " + std::string(role) + " register " + prefix + "0.." + prefix +
                          std::to_string(limit - 1) +
                          (name.empty() ? c.describeNext() : ", found '" + std::string(name) + "'"));
  }
  return *number;
}

// An unsigned value that must fit `bits` bits.
uint64_t expectUnsigned(TextCursor& c, unsigned bits, std::string_view role) {
  const size_t column = c.column();
  const std::string_view text = c.valueToken();
  const auto value = parseUnsigned(text);
  if (!value) c.errorAt(column, "expected " + std::string(role) + " (a number)" + (text.empty() ? c.describeNext() : ", found '" + std::string(text) + "'"));
  if (bits < 64 && *value >> bits) {
    c.errorAt(column, std::string(role) + " " + std::string(text) + " does not fit in " + std::to_string(bits) + " bits");
  }
  return *value;
}

// A 32-bit immediate: unsigned, negative decimal (two's complement), or a float literal when the
// op takes a float.
uint32_t expectImmediate32(TextCursor& c, bool floatAllowed) {
  const size_t column = c.column();
  const std::string_view text = c.valueToken();
  if (text.empty()) c.errorAt(column, "expected a register or an immediate" + c.describeNext());
  if (looksLikeFloat(text)) {
    if (!floatAllowed) c.errorAt(column, "float literal '" + std::string(text) + "' needs a float op (fmul, fadd, ...)");
    const auto bits = parseF32(text);
    if (!bits) c.errorAt(column, "malformed float literal '" + std::string(text) + "'");
    return *bits;
  }
  const auto value = parseSigned(text);
  if (!value) c.errorAt(column, "malformed immediate '" + std::string(text) + "'");
  if (*value < -(int64_t{1} << 31) || *value > int64_t{0xffffffff}) {
    c.errorAt(column, "immediate " + std::string(text) + " does not fit in 32 bits");
  }
  return static_cast<uint32_t>(*value);
}

std::optional<uint8_t> aluBaseByMnemonic(std::string_view mnemonic) {
  for (const AluOpInfo& info : kAluOpTable) {
    if (!info.mnemonic.empty() && info.mnemonic == mnemonic) return info.base;
  }
  if (mnemonic.starts_with("alu.")) {
    const auto base = parseUnsigned(mnemonic.substr(4));
    if (base && *base < kAluBaseCount) return static_cast<uint8_t>(*base);
  }
  return std::nullopt;
}

AluDest effectiveDest(const AluOpInfo& info) {
  return info.dest == AluDest::Predicate ? AluDest::Predicate : AluDest::Scalar;
}
bool printsAsUnary(const AluOpInfo& info) { return !info.mnemonic.empty() && info.syntax == AluSyntax::Unary; }

// ---- printing ------------------------------------------------------------------------------------

std::string formatAlu(const ScalarBundle& b) {
  const AluOpInfo& info = aluOpInfo(b.aluOp);
  const char destPrefix = effectiveDest(info) == AluDest::Predicate ? 'p' : 's';
  std::string src;
  if (aluIsImmediate(b.aluOp)) {
    src = aluSourceIsFloat(info.kind) ? formatF32(b.aluImm) : formatHex(b.aluImm);
  } else {
    src = reg('s', b.aluSrcB());
  }
  std::string text = reg(destPrefix, b.aluDest) + " = " + aluMnemonic(b.aluOp) + " ";
  if (printsAsUnary(info)) return text + src;
  return text + reg('s', b.aluSrcA) + ", " + src;
}

std::string formatLoad(const ScalarBundle& b) {
  const std::string dest = reg('s', b.loadDest) + " = ld ";
  switch (loadForm(b.loadOp)) {
    case LoadForm::None: return "";
    case LoadForm::Absolute: return dest + "[" + formatHex(b.loadAddr, 3) + "]";
    case LoadForm::Indirect: return dest + "[" + reg('s', b.loadAddrReg()) + "]";
    case LoadForm::IndirectPostInc:
      return dest + "[" + reg('s', b.loadAddrReg()) + "], " + reg('s', b.loadAddrReg()) + " += " +
             std::to_string(b.loadInc());
  }
  return "";
}

std::string formatStore(const ScalarBundle& b) {
  const std::string src = reg('s', b.storeSrc);
  switch (storeForm(b.storeOp)) {
    case StoreForm::None: return "";
    case StoreForm::Absolute: return "mem[" + formatHex(b.storeOperand, 4) + "] = " + src;
    case StoreForm::Indirect: return "mem[" + reg('s', b.storeAddrReg()) + "] = " + src;
    case StoreForm::IndirectPostInc:
      return "mem[" + reg('s', b.storeAddrReg()) + "] = " + src + ", " + reg('s', b.storeAddrReg()) + " += " +
             std::to_string(b.storeInc());
    case StoreForm::Stream: return "stream " + src;
    case StoreForm::DescWord: return "desc[" + std::to_string(b.descIndex()) + "] = " + src;
    case StoreForm::DescPush: return "push";
    case StoreForm::Unknown: return "st.op" + std::to_string(b.storeOp) + " " + formatHex(b.storeOperand) + ", " + src;
  }
  return "";
}

// ---- parsing -------------------------------------------------------------------------------------

struct SlotsSeen {
  bool alu = false;
  bool load = false;
  bool store = false;
  bool high = false;
  bool extra = false;
  bool nop = false;
  size_t nopColumn = 0;
  unsigned items = 0;
};

void claim(TextCursor& c, size_t column, bool& seen, std::string_view slot) {
  if (seen) c.errorAt(column, "the bundle already has " + std::string(slot));
  seen = true;
}

void parseLoad(TextCursor& c, ScalarBundle& b, unsigned dest) {
  b.loadDest = static_cast<uint8_t>(dest);
  c.expect('[', "after 'ld'");
  const std::string_view name = c.peekIdentifier();
  if (!name.empty()) {
    const unsigned areg = expectRegister(c, 's', kScalarRegisters, "an address");
    c.expect(']', "after the address register");
    b.loadOp = static_cast<uint8_t>(LoadForm::Indirect);
    b.loadAddr = static_cast<uint16_t>(withSubField(0, BundleField::LoadAddr, BundleField::LoadAddrReg, areg));
    if (c.accept(',')) {
      const size_t column = c.column();
      if (expectRegister(c, 's', kScalarRegisters, "the post-increment") != areg) {
        c.errorAt(column, "the post-increment must name the address register " + reg('s', areg));
      }
      if (!c.accept("+=")) c.error("expected '+=' after the post-increment register" + c.describeNext());
      const auto inc = expectUnsigned(c, bundleField(BundleField::LoadInc).width, "a load increment");
      b.loadOp = static_cast<uint8_t>(LoadForm::IndirectPostInc);
      b.loadAddr = static_cast<uint16_t>(
          withSubField(b.loadAddr, BundleField::LoadAddr, BundleField::LoadInc, static_cast<uint32_t>(inc)));
    }
    return;
  }
  b.loadOp = static_cast<uint8_t>(LoadForm::Absolute);
  b.loadAddr = static_cast<uint16_t>(expectUnsigned(c, bundleField(BundleField::LoadAddr).width, "a load address"));
  c.expect(']', "after the load address");
}

void parseMemStore(TextCursor& c, ScalarBundle& b) {
  c.expect('[', "after 'mem'");
  std::optional<unsigned> areg;
  if (!c.peekIdentifier().empty()) {
    areg = expectRegister(c, 's', kScalarRegisters, "an address");
  } else {
    b.storeOperand = static_cast<uint16_t>(
        expectUnsigned(c, bundleField(BundleField::StoreOperand).width, "a store address"));
  }
  c.expect(']', "after the store address");
  c.expect('=', "in a store");
  b.storeSrc = static_cast<uint8_t>(expectRegister(c, 's', kScalarRegisters, "a source"));
  if (!areg) {
    b.storeOp = static_cast<uint8_t>(StoreForm::Absolute);
    return;
  }
  b.storeOp = static_cast<uint8_t>(StoreForm::Indirect);
  b.storeOperand = static_cast<uint16_t>(withSubField(0, BundleField::StoreOperand, BundleField::StoreAddrReg, *areg));
  if (c.accept(',')) {
    const size_t column = c.column();
    if (expectRegister(c, 's', kScalarRegisters, "the post-increment") != *areg) {
      c.errorAt(column, "the post-increment must name the address register " + reg('s', *areg));
    }
    if (!c.accept("+=")) c.error("expected '+=' after the post-increment register" + c.describeNext());
    const auto inc = expectUnsigned(c, bundleField(BundleField::StoreInc).width, "a store increment");
    b.storeOp = static_cast<uint8_t>(StoreForm::IndirectPostInc);
    b.storeOperand = static_cast<uint16_t>(
        withSubField(b.storeOperand, BundleField::StoreOperand, BundleField::StoreInc, static_cast<uint32_t>(inc)));
  }
}

void parseAlu(TextCursor& c, ScalarBundle& b, char destPrefix, unsigned dest, size_t destColumn) {
  const size_t column = c.column();
  const std::string_view mnemonic = c.identifier();
  const auto base = aluBaseByMnemonic(mnemonic);
  if (!base) {
    c.errorAt(column, "unknown ALU op '" + std::string(mnemonic) + "'" + (mnemonic.empty() ? c.describeNext() : ""));
  }
  const AluOpInfo& info = kAluOpTable[*base];
  const char wanted = effectiveDest(info) == AluDest::Predicate ? 'p' : 's';
  if (destPrefix != wanted) {
    c.errorAt(destColumn, std::string(mnemonic) + " writes a " +
                              (wanted == 'p' ? "predicate register (p0..p31)" : "scalar register (s0..s31)"));
  }
  b.aluDest = static_cast<uint8_t>(dest);
  const bool generic = info.mnemonic.empty() || mnemonic.starts_with("alu.");
  if (generic || info.syntax == AluSyntax::Binary) {
    b.aluSrcA = static_cast<uint8_t>(expectRegister(c, 's', kScalarRegisters, "source A"));
    c.expect(',', "between the ALU operands");
  }
  const size_t srcPosition = c.position();
  const auto srcReg = registerNumber(c.identifier(), 's', kScalarRegisters);
  if (srcReg) {
    b.aluOp = *base;
    b.aluImm = *srcReg;
  } else {
    c.rewind(srcPosition);
    b.aluOp = static_cast<uint8_t>(*base | kAluImmediateBit);
    b.aluImm = expectImmediate32(c, aluSourceIsFloat(info.kind) || generic);
  }
  if (b.aluOp == 0) c.errorAt(column, "'alu.0x00' with a register source is no ALU op; leave the slot out");
}

void parseItem(TextCursor& c, ScalarBundle& b, Word128& extra, SlotsSeen& seen) {
  const size_t column = c.column();
  const std::string_view word = c.identifier();
  if (word.empty()) c.error("expected a bundle slot" + c.describeNext());
  if (word == "nop") {
    seen.nop = true;
    seen.nopColumn = column;
    return;
  }
  if (word == "hi") {
    claim(c, column, seen.high, "a hi= field");
    c.expect('=', "after 'hi'");
    b.high = static_cast<uint32_t>(expectUnsigned(c, bundleField(BundleField::High).width, "the hi field"));
    return;
  }
  if (word == "extra") {
    claim(c, column, seen.extra, "an extra= field");
    c.expect('=', "after 'extra'");
    const size_t valueColumn = c.column();
    const std::string_view text = c.valueToken();
    const auto w = parseWordHex(text);
    if (!w) c.errorAt(valueColumn, "extra= needs 0x and 1..32 hex digits, found '" + std::string(text) + "'");
    if (getBundleField(*w, BundleField::Opcode) != 0) c.errorAt(valueColumn, "extra= may not change the opcode bits 11:6");
    extra = *w;
    return;
  }
  if (word == "push") {
    claim(c, column, seen.store, "a store slot");
    b.storeOp = static_cast<uint8_t>(StoreForm::DescPush);
    return;
  }
  if (word == "stream") {
    claim(c, column, seen.store, "a store slot");
    b.storeOp = static_cast<uint8_t>(StoreForm::Stream);
    b.storeSrc = static_cast<uint8_t>(expectRegister(c, 's', kScalarRegisters, "a source"));
    return;
  }
  if (word == "desc") {
    claim(c, column, seen.store, "a store slot");
    c.expect('[', "after 'desc'");
    const auto k = expectUnsigned(c, bundleField(BundleField::DescIndex).width, "a descriptor word index (0..3)");
    c.expect(']', "after the descriptor word index");
    c.expect('=', "in a descriptor write");
    b.storeOp = static_cast<uint8_t>(StoreForm::DescWord);
    b.storeOperand = static_cast<uint16_t>(
        withSubField(0, BundleField::StoreOperand, BundleField::DescIndex, static_cast<uint32_t>(k)));
    b.storeSrc = static_cast<uint8_t>(expectRegister(c, 's', kScalarRegisters, "a source"));
    return;
  }
  if (word == "mem") {
    claim(c, column, seen.store, "a store slot");
    parseMemStore(c, b);
    return;
  }
  if (word.starts_with("st.op")) {
    claim(c, column, seen.store, "a store slot");
    const auto op = parseUnsigned(word.substr(5));
    if (!op || *op >= kStoreOpTable.size()) c.errorAt(column, "unknown store op '" + std::string(word) + "'");
    b.storeOp = static_cast<uint8_t>(*op);
    b.storeOperand = static_cast<uint16_t>(
        expectUnsigned(c, bundleField(BundleField::StoreOperand).width, "a store operand"));
    c.expect(',', "between the store operand and the source");
    b.storeSrc = static_cast<uint8_t>(expectRegister(c, 's', kScalarRegisters, "a source"));
    return;
  }
  // "sD = ..." or "pD = ...": a load or an ALU op.
  const char prefix = word[0];
  const auto dest = (prefix == 's' || prefix == 'p') ? registerNumber(word, prefix, kScalarRegisters) : std::nullopt;
  if (!dest) {
    c.errorAt(column, "expected a bundle slot (sN = ..., pN = ..., mem[...], desc[k], stream, push, nop), found '" +
                          std::string(word) + "'");
  }
  c.expect('=', "after the destination register");
  if (c.peekIdentifier() == "ld") {
    if (prefix != 's') c.errorAt(column, "a load writes a scalar register (s0..s31)");
    claim(c, column, seen.load, "a load slot");
    (void)c.identifier();
    parseLoad(c, b, *dest);
    return;
  }
  claim(c, column, seen.alu, "an ALU slot");
  parseAlu(c, b, prefix, *dest, column);
}

}  // namespace

std::string aluMnemonic(uint8_t aluOp) {
  const AluOpInfo& info = aluOpInfo(aluOp);
  if (!info.mnemonic.empty()) return std::string(info.mnemonic);
  return "alu." + formatHex(info.base, 2);
}

ScalarBundle canonicalBundle(const ScalarBundle& b) {
  ScalarBundle c;
  if (b.gate != 0) {
    c.gate = b.gate;
    c.pred = b.pred;
    c.polarity = b.polarity;
  }
  if (b.aluOp != 0) {
    const AluOpInfo& info = aluOpInfo(b.aluOp);
    c.aluOp = b.aluOp;
    c.aluDest = b.aluDest;
    if (!printsAsUnary(info)) c.aluSrcA = b.aluSrcA;
    c.aluImm = aluIsImmediate(b.aluOp) ? b.aluImm : b.aluSrcB();
  }
  switch (loadForm(b.loadOp)) {
    case LoadForm::None: break;
    case LoadForm::Absolute:
      c.loadOp = b.loadOp;
      c.loadDest = b.loadDest;
      c.loadAddr = b.loadAddr;
      break;
    case LoadForm::Indirect:
      c.loadOp = b.loadOp;
      c.loadDest = b.loadDest;
      c.loadAddr = static_cast<uint16_t>(withSubField(0, BundleField::LoadAddr, BundleField::LoadAddrReg, b.loadAddrReg()));
      break;
    case LoadForm::IndirectPostInc:
      c.loadOp = b.loadOp;
      c.loadDest = b.loadDest;
      c.loadAddr = b.loadAddr;
      break;
  }
  switch (storeForm(b.storeOp)) {
    case StoreForm::None: break;
    case StoreForm::Absolute:
    case StoreForm::Unknown:
      c.storeOp = b.storeOp;
      c.storeOperand = b.storeOperand;
      c.storeSrc = b.storeSrc;
      break;
    case StoreForm::Indirect:
      c.storeOp = b.storeOp;
      c.storeOperand = static_cast<uint16_t>(
          withSubField(0, BundleField::StoreOperand, BundleField::StoreAddrReg, b.storeAddrReg()));
      c.storeSrc = b.storeSrc;
      break;
    case StoreForm::IndirectPostInc:
      c.storeOp = b.storeOp;
      c.storeOperand = static_cast<uint16_t>(
          withSubField(withSubField(0, BundleField::StoreOperand, BundleField::StoreAddrReg, b.storeAddrReg()),
                       BundleField::StoreOperand, BundleField::StoreInc, b.storeInc()));
      c.storeSrc = b.storeSrc;
      break;
    case StoreForm::Stream:
      c.storeOp = b.storeOp;
      c.storeSrc = b.storeSrc;
      break;
    case StoreForm::DescWord:
      c.storeOp = b.storeOp;
      c.storeOperand = static_cast<uint16_t>(withSubField(0, BundleField::StoreOperand, BundleField::DescIndex, b.descIndex()));
      c.storeSrc = b.storeSrc;
      break;
    case StoreForm::DescPush:
      c.storeOp = b.storeOp;
      break;
  }
  c.high = b.high;
  return c;
}

std::optional<std::string> formatCondPrefix(uint8_t code) {
  if (code == 0) return std::string();
  if ((code & 1) == 0) return std::nullopt;
  const unsigned pred = (code >> 1) & 7;
  const bool polarity = ((code >> 4) & 1) != 0;
  return std::string("(") + (polarity ? "" : "!") + reg('p', pred) + ") ";
}

uint8_t parseCondPrefix(TextCursor& c) {
  if (!c.accept('(')) return 0;
  const bool negated = c.accept('!');
  const unsigned pred = expectRegister(c, 'p', kPredicateRegisters, "a predicate");
  c.expect(')', "after the predicate");
  return static_cast<uint8_t>(1u | (pred << 1) | ((negated ? 0u : 1u) << 4));
}

std::string formatBundle(const Word128& w) {
  const ScalarBundle c = canonicalBundle(decodeBundle(w));
  const Word128 extra = xorWords(w, encodeBundle(c));
  std::vector<std::string> items;
  if (c.aluOp != 0) items.push_back(formatAlu(c));
  if (c.loadOp != 0) items.push_back(formatLoad(c));
  if (c.storeOp != 0) items.push_back(formatStore(c));
  if (c.high != 0) items.push_back("hi=" + formatHex(c.high));
  if (!isZeroWord(extra)) items.push_back("extra=" + formatWordHex(extra));
  std::string text = formatCondPrefix(static_cast<uint8_t>(c.gate | (c.pred << 1) | (c.polarity << 4))).value_or("");
  if (items.empty()) return text + "nop";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += " ; ";
    text += items[i];
  }
  return text;
}

Word128 parseBundle(TextCursor& c, uint8_t cond) {
  ScalarBundle b;
  b.gate = cond & 1;
  b.pred = (cond >> 1) & 7;
  b.polarity = (cond >> 4) & 1;
  Word128 extra;
  SlotsSeen seen;
  if (c.atEnd()) c.error("expected a bundle slot or 'nop'");
  while (true) {
    parseItem(c, b, extra, seen);
    ++seen.items;
    if (c.atEnd()) break;
    c.expect(';', "between bundle slots");
  }
  if (seen.nop && seen.items > 1) c.errorAt(seen.nopColumn, "'nop' cannot be combined with other slots");
  return xorWords(encodeBundle(b), extra);
}

}  // namespace coralsim::isa
