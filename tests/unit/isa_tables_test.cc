// Consistency of the ISA tables themselves (Spike's encoding-overlap test, for coralsim): no two
// fields of one packet overlap unless one subdivides the other, lengths and widths are sane,
// mnemonics are unique and cannot be confused with bundle syntax. Positions quoted from
// docs/isa.md are checked against literal numbers here, so a table edit that drifts from the doc
// fails loudly.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "models/isa/opcodes.h"
#include "models/isa/packet_fields.h"
#include "models/isa/scalar_bundle.h"

namespace coralsim::isa::isa_tables_test {
namespace {

// One element of a (possibly array) field, as a bit interval [lo, hi).
struct Interval {
  uint32_t lo;
  uint32_t hi;
  const FieldDef* field;
  unsigned element;
};

std::vector<Interval> intervalsOf(const FieldDef& f) {
  std::vector<Interval> out;
  for (unsigned e = 0; e < f.count; ++e) out.push_back({f.elementLsb(e), f.elementLsb(e) + f.width, &f, e});
  return out;
}

bool overlaps(const Interval& a, const Interval& b) { return a.lo < b.hi && b.lo < a.hi; }

std::string describe(const Interval& i) {
  return std::string(i.field->name) + (i.field->count > 1 ? "[" + std::to_string(i.element) + "]" : "") + " bits " +
         std::to_string(i.hi - 1) + ":" + std::to_string(i.lo);
}

// ---- opcode table --------------------------------------------------------------------------------

TEST(IsaOpcodeTable, KnownOpcodesAreTheDocumentedTwentyFive) {
  // docs/isa.md §2.2: 25 opcodes occur, 39 op6 values are unused.
  const std::set<unsigned> documented = {0x01, 0x02, 0x03, 0x05, 0x10, 0x11, 0x12, 0x13, 0x14,
                                         0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x20, 0x21, 0x22,
                                         0x23, 0x24, 0x25, 0x26, 0x27, 0x3e, 0x3f};
  std::set<unsigned> known;
  for (const OpcodeInfo& info : kOpcodeTable) {
    if (info.known()) known.insert(info.value);
  }
  EXPECT_EQ(known, documented);
}

TEST(IsaOpcodeTable, LengthsMatchTheDocumentedLengthTable) {
  const std::map<unsigned, unsigned> documented = {
      {0x20, 1}, {0x21, 1}, {0x22, 1}, {0x23, 1}, {0x24, 2}, {0x25, 2}, {0x26, 4},  {0x27, 2},  {0x3e, 1},
      {0x3f, 1}, {0x1a, 1}, {0x10, 4}, {0x11, 4}, {0x12, 4}, {0x13, 7}, {0x14, 7},  {0x15, 6},  {0x16, 6},
      {0x17, 6}, {0x18, 6}, {0x19, 13}, {0x01, 17}, {0x02, 17}, {0x03, 17}, {0x05, 17}};
  for (const auto& [op, words] : documented) {
    EXPECT_EQ(packetLength(static_cast<Opcode>(op)), words) << "opcode " << op;
  }
}

TEST(IsaOpcodeTable, EveryRowIsConsistent) {
  std::set<std::string_view> mnemonics;
  for (unsigned v = 0; v < kOpcodeCount; ++v) {
    const OpcodeInfo& info = kOpcodeTable[v];
    SCOPED_TRACE("opcode " + std::to_string(v));
    EXPECT_EQ(info.value, v) << "row stored at the wrong index";
    if (!info.known()) {
      EXPECT_EQ(info.cls, PacketClass::Unknown);
      EXPECT_TRUE(info.mnemonic.empty());
      EXPECT_EQ(info.confidence, Confidence::Unknown);
      EXPECT_EQ(opcodeByMnemonic(info.mnemonic), std::nullopt);
      continue;
    }
    EXPECT_GT(info.words, 0u);
    EXPECT_NE(info.cls, PacketClass::Unknown);
    EXPECT_FALSE(info.mnemonic.empty());
    EXPECT_FALSE(info.description.empty());
    EXPECT_TRUE(mnemonics.insert(info.mnemonic).second) << "duplicate mnemonic " << info.mnemonic;
    EXPECT_EQ(opcodeByMnemonic(info.mnemonic), static_cast<Opcode>(v));
    // Tile packets carry the mask and a sequence number (docs/isa.md §2.2).
    const bool tile = isTilePacket(static_cast<Opcode>(v));
    EXPECT_EQ(tile, v >= 0x01 && v <= 0x1a) << "tile packets are exactly the opcodes 0x01..0x1a";
    if (tile) {
      EXPECT_NE(findPacketField(static_cast<Opcode>(v), "mask"), nullptr);
      EXPECT_NE(findPacketField(static_cast<Opcode>(v), "seq"), nullptr);
    }
  }
}

TEST(IsaOpcodeTable, MnemonicsCannotBeMistakenForBundleSyntax) {
  const std::set<std::string_view> bundleWords = {"nop", "hi", "extra", "push", "stream", "desc", "mem", "ld",
                                                  "program"};
  for (const OpcodeInfo& info : kOpcodeTable) {
    if (!info.known()) continue;
    EXPECT_FALSE(bundleWords.count(info.mnemonic)) << info.mnemonic;
    EXPECT_FALSE(info.mnemonic.starts_with("st.op") || info.mnemonic.starts_with("alu.")) << info.mnemonic;
    EXPECT_FALSE(info.mnemonic[0] == '.') << info.mnemonic << " looks like a directive";
    const bool looksLikeRegister = info.mnemonic.size() <= 3 && (info.mnemonic[0] == 's' || info.mnemonic[0] == 'p') &&
                                   std::all_of(info.mnemonic.begin() + 1, info.mnemonic.end(), ::isdigit);
    EXPECT_FALSE(looksLikeRegister) << info.mnemonic;
  }
}

TEST(IsaOpcodeTable, OpcodeComesFromBits11To6) {
  Word128 w;
  w.lo = uint64_t{0x01} << 6;  // tile.compute
  EXPECT_EQ(opcodeOf(w), Opcode::TileCompute);
  w.lo = (uint64_t{0x3f} << 6) | 0x3f | (uint64_t{1} << 12);
  EXPECT_EQ(opcodeOf(w), Opcode::FrameEnd);
  w.lo = uint64_t{0x04} << 6;
  EXPECT_FALSE(opcodeInfo(opcodeOf(w)).known());
  EXPECT_EQ(packetLength(opcodeOf(w)), 0u);
}

// ---- packet field tables -------------------------------------------------------------------------

TEST(IsaPacketFields, FieldsOfEveryPacketAreWellFormedAndDisjoint) {
  for (const OpcodeInfo& info : kOpcodeTable) {
    if (!info.known() || info.cls == PacketClass::ScalarBundle) continue;
    const Opcode op = static_cast<Opcode>(info.value);
    SCOPED_TRACE(std::string(info.mnemonic));
    std::vector<Interval> all;
    std::set<std::string_view> names;
    for (const FieldDef* f : packetFields(op)) {
      EXPECT_TRUE(names.insert(f->name).second) << "duplicate field name " << f->name;
      EXPECT_GE(f->width, 1u);
      EXPECT_LE(f->width, 64u);
      EXPECT_GE(f->count, 1u);
      if (f->count > 1) {
        EXPECT_GE(f->stride, f->width) << f->name << ": array elements overlap";
      }
      EXPECT_LE(f->endBit(), info.words * 128u) << f->name << " runs past the packet";
      EXPECT_TRUE(f->parent.empty()) << "packet layouts have no sub-fields (the printer lists leaves only)";
      EXPECT_EQ(f->defaultValue & ~f->mask(), 0u) << f->name << ": default does not fit the width";
      if (f->format == FieldFormat::F32) {
        EXPECT_EQ(f->width, 32u) << f->name;
      }
      if (f->format == FieldFormat::Enum) {
        EXPECT_FALSE(f->valueNames.empty()) << f->name;
      }
      if (f->format == FieldFormat::Cond) {
        EXPECT_EQ(f->width, 5u) << f->name;
      }
      // "wK=" is the residual-word syntax; a field must not be spelled like it.
      const bool residualLike = f->name.size() >= 2 && f->name[0] == 'w' &&
                                std::all_of(f->name.begin() + 1, f->name.end(), ::isdigit);
      EXPECT_FALSE(residualLike) << f->name;
      EXPECT_FALSE(f->meaning.empty()) << f->name;
      const auto mine = intervalsOf(*f);
      all.insert(all.end(), mine.begin(), mine.end());
    }
    const Interval opcode{6, 12, nullptr, 0};
    for (size_t i = 0; i < all.size(); ++i) {
      EXPECT_FALSE(overlaps(all[i], opcode)) << describe(all[i]) << " overlaps the opcode bits 11:6";
      EXPECT_FALSE(all[i].lo < 6) << describe(all[i]) << ": bits 5:0 of non-bundle packets are never set";
      for (size_t j = i + 1; j < all.size(); ++j) {
        EXPECT_FALSE(overlaps(all[i], all[j])) << describe(all[i]) << " overlaps " << describe(all[j]);
      }
    }
  }
}

TEST(IsaPacketFields, PositionsQuotedInTheDoc) {
  // docs/isa.md §2.2, §4.2, §4.4 — literal positions, independent of the table's spelling.
  auto at = [](Opcode op, std::string_view name) {
    const FieldDef* f = findPacketField(op, name);
    EXPECT_NE(f, nullptr) << name;
    return f == nullptr ? std::pair<uint32_t, unsigned>{0, 0} : std::pair<uint32_t, unsigned>{f->lsb, f->width};
  };
  EXPECT_EQ(at(Opcode::TileDma11, "mask"), (std::pair<uint32_t, unsigned>{12, 16}));
  EXPECT_EQ(at(Opcode::TileSync, "seq").first, 28u);
  EXPECT_EQ(at(Opcode::TileCompute, "seq").first, 46u);
  EXPECT_EQ(at(Opcode::TileCompute, "zp_in"), (std::pair<uint32_t, unsigned>{14 * 128 + 78, 9}));
  EXPECT_EQ(at(Opcode::TileCompute, "mult"), (std::pair<uint32_t, unsigned>{15 * 128 + 29, 32}));
  EXPECT_EQ(at(Opcode::TileCompute, "clamp_hi"), (std::pair<uint32_t, unsigned>{15 * 128 + 61, 32}));
  EXPECT_EQ(at(Opcode::TileCompute, "clamp_lo"), (std::pair<uint32_t, unsigned>{15 * 128 + 93, 32}));
  EXPECT_EQ(at(Opcode::TileCompute, "mode"), (std::pair<uint32_t, unsigned>{15 * 128 + 0, 29}));
  EXPECT_EQ(at(Opcode::TileCompute, "zp_out"), (std::pair<uint32_t, unsigned>{16 * 128 + 29, 9}));
  EXPECT_EQ(at(Opcode::TileNlu, "coef").first, 62u);
  EXPECT_EQ(findPacketField(Opcode::TileNlu, "coef")->count, 40u);
  EXPECT_EQ(at(Opcode::TileNlu, "bp").first, 62u + 40 * 32);
  EXPECT_EQ(findPacketField(Opcode::TileNlu, "bp")->count, 7u);
  EXPECT_EQ(at(Opcode::TileNlu, "tail").first, 62u + 47 * 32);
  EXPECT_EQ(at(Opcode::Halt, "kind"), (std::pair<uint32_t, unsigned>{12, 16}));
  EXPECT_EQ(at(Opcode::Branch, "cond"), (std::pair<uint32_t, unsigned>{12, 5}));
  EXPECT_EQ(at(Opcode::Branch, "offset"), (std::pair<uint32_t, unsigned>{17, 15}));
  EXPECT_EQ(at(Opcode::Branch, "b33").first, 33u);
  EXPECT_EQ(at(Opcode::Loop, "n"), (std::pair<uint32_t, unsigned>{12, 16}));
  EXPECT_EQ(at(Opcode::Loop, "body").first, 28u);
  EXPECT_EQ(at(Opcode::FrameStart, "body_bits").first, 19u);
  EXPECT_EQ(at(Opcode::ScalarPop, "offset16"), (std::pair<uint32_t, unsigned>{12, 20}));
}

TEST(IsaPacketFields, EveryGroupIsUsedByAnOpcode) {
  for (unsigned g = 1; g < static_cast<unsigned>(FieldGroup::Count); ++g) {
    const FieldGroup group = static_cast<FieldGroup>(g);
    bool used = false;
    for (const OpcodeInfo& info : kOpcodeTable) {
      used = used || std::find(info.groups.begin(), info.groups.end(), group) != info.groups.end();
    }
    EXPECT_TRUE(used) << "field group " << g << " is declared but no opcode carries it";
    EXPECT_FALSE(fieldsOfGroup(group).empty()) << "field group " << g << " has no rows";
  }
}

// ---- scalar bundle field table -------------------------------------------------------------------

TEST(IsaBundleFields, TopLevelFieldsTileAllOf128BitsExactlyOnce) {
  std::vector<int> owner(128, -1);
  for (size_t i = 0; i < std::size(kBundleFields); ++i) {
    const FieldDef& f = kBundleFields[i];
    if (f.isSubField()) continue;
    for (uint32_t b = f.lsb; b < f.lsb + f.width; ++b) {
      ASSERT_LT(b, 128u) << f.name;
      EXPECT_EQ(owner[b], -1) << f.name << " overlaps " << kBundleFields[owner[b]].name << " at bit " << b;
      owner[b] = static_cast<int>(i);
    }
  }
  for (unsigned b = 0; b < 128; ++b) EXPECT_NE(owner[b], -1) << "bit " << b << " belongs to no field";
}

TEST(IsaBundleFields, SubFieldsLieInsideTheirParentAndSameViewSiblingsAreDisjoint) {
  std::map<std::string_view, const FieldDef*> byName;
  for (const FieldDef& f : kBundleFields) EXPECT_TRUE(byName.emplace(f.name, &f).second) << "duplicate " << f.name;
  for (const FieldDef& f : kBundleFields) {
    if (!f.isSubField()) continue;
    const auto parent = byName.find(f.parent);
    ASSERT_NE(parent, byName.end()) << f.name << " names an unknown parent " << f.parent;
    EXPECT_FALSE(parent->second->isSubField()) << "one level of sub-fields only";
    EXPECT_FALSE(f.view.empty()) << f.name << " must say which reading of " << f.parent << " it belongs to";
    EXPECT_GE(f.lsb, parent->second->lsb) << f.name;
    EXPECT_LE(f.endBit(), parent->second->endBit()) << f.name;
    for (const FieldDef& g : kBundleFields) {
      if (&g == &f || g.parent != f.parent || g.view != f.view) continue;
      EXPECT_FALSE(overlaps(intervalsOf(f)[0], intervalsOf(g)[0])) << f.name << " overlaps " << g.name;
    }
  }
}

TEST(IsaBundleFields, PositionsQuotedInTheDoc) {
  // docs/isa.md §2.3.
  const std::map<BundleField, std::pair<uint32_t, unsigned>> documented = {
      {BundleField::Gate, {0, 1}},        {BundleField::Pred, {1, 3}},        {BundleField::Polarity, {4, 1}},
      {BundleField::Opcode, {6, 6}},      {BundleField::LoadOp, {12, 2}},     {BundleField::LoadDest, {14, 5}},
      {BundleField::LoadAddr, {19, 12}},  {BundleField::LoadAddrReg, {19, 5}}, {BundleField::LoadInc, {24, 7}},
      {BundleField::StoreOp, {32, 4}},    {BundleField::StoreOperand, {36, 13}}, {BundleField::StoreAddrReg, {36, 5}},
      {BundleField::StoreInc, {41, 8}},   {BundleField::DescIndex, {36, 2}},  {BundleField::StoreSrc, {49, 5}},
      {BundleField::AluOp, {54, 6}},      {BundleField::AluDest, {60, 5}},    {BundleField::AluSrcA, {65, 5}},
      {BundleField::AluImm, {70, 32}},    {BundleField::Reserved5, {5, 1}},   {BundleField::Reserved31, {31, 1}},
      {BundleField::High, {102, 26}},
  };
  for (const auto& [field, position] : documented) {
    const FieldDef& f = bundleField(field);
    EXPECT_EQ((std::pair<uint32_t, unsigned>{f.lsb, f.width}), position) << f.name;
  }
}

// ---- op tables -----------------------------------------------------------------------------------

TEST(IsaAluTable, MnemonicsUniqueAndClassesConsistent) {
  std::set<std::string_view> names;
  for (const AluOpInfo& info : kAluOpTable) {
    SCOPED_TRACE("ALU base op " + std::to_string(info.base));
    if (info.base == 0) {
      EXPECT_EQ(info.kind, AluKind::None);
      continue;
    }
    if (info.mnemonic.empty()) {
      EXPECT_EQ(info.kind, AluKind::Unknown);
      continue;
    }
    EXPECT_TRUE(names.insert(info.mnemonic).second) << "duplicate " << info.mnemonic;
    EXPECT_EQ(aluIsCompare(info.kind), info.dest == AluDest::Predicate) << "compares, and only compares, write p";
    // Bit 4 is the float family (docs/isa.md §2.3).
    const bool floatKind = info.kind == AluKind::I2F || info.kind == AluKind::F2I || info.kind == AluKind::FAdd ||
                           info.kind == AluKind::FSub || info.kind == AluKind::FMul || info.kind == AluKind::FMax ||
                           info.kind == AluKind::FMin;
    EXPECT_EQ(floatKind, (info.base & kAluFloatBit) != 0) << info.mnemonic;
    const bool unary = info.kind == AluKind::Mov || info.kind == AluKind::I2F || info.kind == AluKind::F2I;
    EXPECT_EQ(unary, info.syntax == AluSyntax::Unary) << info.mnemonic;
  }
  // The documented integer ops (docs/isa.md §3.3), by value.
  const std::map<unsigned, std::string_view> documented = {
      {0x01, "add"}, {0x02, "sub"}, {0x03, "and"}, {0x04, "or"}, {0x05, "xor"}, {0x06, "shl"}, {0x07, "shr"},
      {0x08, "sar"}, {0x09, "eq"},  {0x0a, "ne"},  {0x0b, "gt"},  {0x0c, "lt"}, {0x0d, "ge"},  {0x0e, "geu"},
      {0x0f, "mov"}, {0x10, "i2f"}, {0x11, "f2i"}, {0x14, "fmul"}};
  for (const auto& [base, name] : documented) EXPECT_EQ(kAluOpTable[base].mnemonic, name);
}

TEST(IsaSlotTables, LoadAndStoreOpsAsDocumented) {
  for (unsigned v = 0; v < 4; ++v) EXPECT_TRUE(kLoadOpTable[v].known()) << "load op " << v;
  for (unsigned v = 0; v < 16; ++v) EXPECT_EQ(kStoreOpTable[v].known(), v <= 6) << "store op " << v;
  EXPECT_EQ(storeForm(4), StoreForm::Stream);
  EXPECT_EQ(storeForm(5), StoreForm::DescWord);
  EXPECT_EQ(storeForm(6), StoreForm::DescPush);
  EXPECT_EQ(storeForm(9), StoreForm::Unknown);
  EXPECT_EQ(loadForm(3), LoadForm::IndirectPostInc);
}

}  // namespace
}  // namespace coralsim::isa::isa_tables_test
