// The scalar VLIW bundle (opcode 0x20): field table (bundle_fields.def), op tables (alu_ops.def,
// load_ops.def, store_ops.def) and the decoder/encoder generated from them.
//
// decodeBundle() is on the scalar core's hot path (tens of millions of bundles per second): it is
// constexpr, inline, allocation-free, and every field position is a compile-time constant taken
// from the table.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "models/isa/field.h"
#include "models/isa/word128.h"

namespace coralsim::isa {

// ---- field table ---------------------------------------------------------------------------------

enum class BundleField : uint8_t {
#define CORAL_BUNDLE_FIELD(id, name, lsb, width, parent, view, conf, meaning) id,
#include "models/isa/bundle_fields.def"
#undef CORAL_BUNDLE_FIELD
  Count,
};

inline constexpr FieldDef kBundleFields[] = {
#define CORAL_BUNDLE_FIELD(id, name, lsb, width, parent, view, conf, meaning) \
  FieldDef{name, lsb, width, 1, 0, FieldFormat::Hex, kFieldNamed, 0, parent, view, Confidence::conf, meaning, {}},
#include "models/isa/bundle_fields.def"
#undef CORAL_BUNDLE_FIELD
};
static_assert(std::size(kBundleFields) == static_cast<size_t>(BundleField::Count));

[[nodiscard]] constexpr const FieldDef& bundleField(BundleField f) {
  return kBundleFields[static_cast<size_t>(f)];
}

// Reads one bundle field; with a constant `f` this folds to a shift and a mask.
[[nodiscard]] constexpr uint32_t getBundleField(const Word128& w, BundleField f) {
  const FieldDef& d = bundleField(f);
  return static_cast<uint32_t>(w.bits(d.lsb, d.width));
}

constexpr void setBundleField(Word128& w, BundleField f, uint64_t value) {
  const FieldDef& d = bundleField(f);
  w.setBits(d.lsb, d.width, value);
}

// A sub-field read out of its parent's value (e.g. the address register out of ld_addr).
[[nodiscard]] constexpr uint32_t subFieldOf(uint32_t parentValue, BundleField parent, BundleField sub) {
  const FieldDef& p = bundleField(parent);
  const FieldDef& s = bundleField(sub);
  return static_cast<uint32_t>((parentValue >> (s.lsb - p.lsb)) & s.mask());
}

[[nodiscard]] constexpr uint32_t withSubField(uint32_t parentValue, BundleField parent, BundleField sub,
                                              uint32_t value) {
  const FieldDef& p = bundleField(parent);
  const FieldDef& s = bundleField(sub);
  const unsigned shift = s.lsb - p.lsb;
  const uint32_t mask = static_cast<uint32_t>(s.mask()) << shift;
  return (parentValue & ~mask) | ((value << shift) & mask);
}

// ---- ALU op table --------------------------------------------------------------------------------

enum class AluKind : uint8_t {
  None, Add, Sub, And, Or, Xor, Shl, Shr, Sar,
  CmpEq, CmpNe, CmpGt, CmpLt, CmpGe, CmpGeu,
  Mov, I2F, F2I, FAdd, FSub, FMul, FMax, FMin,
  Unknown,
};
enum class AluDest : uint8_t { None, Scalar, Predicate };
enum class AluSyntax : uint8_t { Binary, Unary };

struct AluOpInfo {
  uint8_t base = 0;            // bits 4:0 of the ALU op
  std::string_view mnemonic;   // "" = no mnemonic (base 0, or an unknown op)
  AluKind kind = AluKind::Unknown;
  AluDest dest = AluDest::Scalar;
  AluSyntax syntax = AluSyntax::Binary;
  Confidence confidence = Confidence::Unknown;
  std::string_view semantics = "not used by compiled code; unknown";
};

inline constexpr uint8_t kAluImmediateBit = 0x20;  // bit 5 of the ALU op: src = imm
inline constexpr uint8_t kAluFloatBit = 0x10;      // bit 4: float family
inline constexpr unsigned kAluBaseCount = 32;

inline constexpr std::array<AluOpInfo, kAluBaseCount> kAluOpTable = [] {
  std::array<AluOpInfo, kAluBaseCount> table{};
  for (unsigned b = 0; b < kAluBaseCount; ++b) table[b].base = static_cast<uint8_t>(b);
#define CORAL_ALU_OP(base_, mnemonic_, kind_, dest_, syntax_, conf_, semantics_)                 \
  table[base_] = AluOpInfo{base_,           mnemonic_,          AluKind::kind_, AluDest::dest_, \
                           AluSyntax::syntax_, Confidence::conf_, semantics_};
#include "models/isa/alu_ops.def"
#undef CORAL_ALU_OP
  return table;
}();

[[nodiscard]] constexpr const AluOpInfo& aluOpInfo(uint8_t aluOp) {
  return kAluOpTable[aluOp & (kAluBaseCount - 1)];
}
[[nodiscard]] constexpr bool aluIsImmediate(uint8_t aluOp) { return (aluOp & kAluImmediateBit) != 0; }

// True for ops whose `src` operand is a float32 (its immediate prints as a float).
[[nodiscard]] constexpr bool aluSourceIsFloat(AluKind k) {
  return k == AluKind::F2I || k == AluKind::FAdd || k == AluKind::FSub || k == AluKind::FMul ||
         k == AluKind::FMax || k == AluKind::FMin;
}
[[nodiscard]] constexpr bool aluIsCompare(AluKind k) {
  return k == AluKind::CmpEq || k == AluKind::CmpNe || k == AluKind::CmpGt || k == AluKind::CmpLt ||
         k == AluKind::CmpGe || k == AluKind::CmpGeu;
}

// ---- load and store op tables --------------------------------------------------------------------

enum class LoadForm : uint8_t {
#define CORAL_LOAD_OP(value, id, description, conf) id = value,
#include "models/isa/load_ops.def"
#undef CORAL_LOAD_OP
};

enum class StoreForm : uint8_t {
#define CORAL_STORE_OP(value, id, description, conf) id = value,
#include "models/isa/store_ops.def"
#undef CORAL_STORE_OP
  Unknown = 0xff,
};

struct SlotOpInfo {
  uint8_t value = 0;
  std::string_view id;  // enumerator name; "" for unknown values
  std::string_view description = "not used by compiled code; unknown";
  Confidence confidence = Confidence::Unknown;
  [[nodiscard]] constexpr bool known() const { return !id.empty(); }
};

inline constexpr std::array<SlotOpInfo, 4> kLoadOpTable = [] {
  std::array<SlotOpInfo, 4> table{};
  for (unsigned v = 0; v < table.size(); ++v) table[v].value = static_cast<uint8_t>(v);
#define CORAL_LOAD_OP(value_, id_, description_, conf_) \
  table[value_] = SlotOpInfo{value_, #id_, description_, Confidence::conf_};
#include "models/isa/load_ops.def"
#undef CORAL_LOAD_OP
  return table;
}();

inline constexpr std::array<SlotOpInfo, 16> kStoreOpTable = [] {
  std::array<SlotOpInfo, 16> table{};
  for (unsigned v = 0; v < table.size(); ++v) table[v].value = static_cast<uint8_t>(v);
#define CORAL_STORE_OP(value_, id_, description_, conf_) \
  table[value_] = SlotOpInfo{value_, #id_, description_, Confidence::conf_};
#include "models/isa/store_ops.def"
#undef CORAL_STORE_OP
  return table;
}();

[[nodiscard]] constexpr LoadForm loadForm(uint8_t loadOp) { return static_cast<LoadForm>(loadOp & 3); }
[[nodiscard]] constexpr StoreForm storeForm(uint8_t storeOp) {
  return kStoreOpTable[storeOp & 15].known() ? static_cast<StoreForm>(storeOp & 15) : StoreForm::Unknown;
}

// ---- the decoded bundle --------------------------------------------------------------------------

// Every field of a bundle, raw (sub-fields are derived by the accessors). Decoding never fails:
// what a value means is the business of the tables and the scalar core.
struct ScalarBundle {
  // Predication: run the whole bundle only if p[pred] == polarity (when gate is set).
  uint8_t gate = 0;
  uint8_t pred = 0;
  uint8_t polarity = 0;
  uint8_t reserved5 = 0;
  // Load slot.
  uint8_t loadOp = 0;
  uint8_t loadDest = 0;
  uint16_t loadAddr = 0;
  uint8_t reserved31 = 0;
  // Store / descriptor slot.
  uint8_t storeOp = 0;
  uint16_t storeOperand = 0;
  uint8_t storeSrc = 0;
  // ALU slot.
  uint8_t aluOp = 0;
  uint8_t aluDest = 0;
  uint8_t aluSrcA = 0;
  uint32_t aluImm = 0;
  // Bits 127:102 (special-function slot, see bundle_fields.def).
  uint32_t high = 0;

  [[nodiscard]] constexpr uint8_t loadAddrReg() const {
    return static_cast<uint8_t>(subFieldOf(loadAddr, BundleField::LoadAddr, BundleField::LoadAddrReg));
  }
  [[nodiscard]] constexpr uint8_t loadInc() const {
    return static_cast<uint8_t>(subFieldOf(loadAddr, BundleField::LoadAddr, BundleField::LoadInc));
  }
  [[nodiscard]] constexpr uint8_t storeAddrReg() const {
    return static_cast<uint8_t>(
        subFieldOf(storeOperand, BundleField::StoreOperand, BundleField::StoreAddrReg));
  }
  [[nodiscard]] constexpr uint8_t storeInc() const {
    return static_cast<uint8_t>(subFieldOf(storeOperand, BundleField::StoreOperand, BundleField::StoreInc));
  }
  [[nodiscard]] constexpr uint8_t descIndex() const {
    return static_cast<uint8_t>(
        subFieldOf(storeOperand, BundleField::StoreOperand, BundleField::DescIndex));
  }
  // Register-form source B (s[imm & 31]).
  [[nodiscard]] constexpr uint8_t aluSrcB() const {
    return static_cast<uint8_t>(subFieldOf(aluImm, BundleField::AluImm, BundleField::AluSrcB));
  }
  [[nodiscard]] constexpr bool predicated() const { return gate != 0; }

  friend constexpr bool operator==(const ScalarBundle&, const ScalarBundle&) = default;
};

// The opcode value of a scalar bundle (bits 11:6).
inline constexpr uint8_t kScalarBundleOpcode = 0x20;

// Decodes every slot of `w`. Does not look at the opcode: callers segment first.
[[nodiscard]] constexpr ScalarBundle decodeBundle(const Word128& w) {
  ScalarBundle b;
  b.gate = static_cast<uint8_t>(getBundleField(w, BundleField::Gate));
  b.pred = static_cast<uint8_t>(getBundleField(w, BundleField::Pred));
  b.polarity = static_cast<uint8_t>(getBundleField(w, BundleField::Polarity));
  b.reserved5 = static_cast<uint8_t>(getBundleField(w, BundleField::Reserved5));
  b.loadOp = static_cast<uint8_t>(getBundleField(w, BundleField::LoadOp));
  b.loadDest = static_cast<uint8_t>(getBundleField(w, BundleField::LoadDest));
  b.loadAddr = static_cast<uint16_t>(getBundleField(w, BundleField::LoadAddr));
  b.reserved31 = static_cast<uint8_t>(getBundleField(w, BundleField::Reserved31));
  b.storeOp = static_cast<uint8_t>(getBundleField(w, BundleField::StoreOp));
  b.storeOperand = static_cast<uint16_t>(getBundleField(w, BundleField::StoreOperand));
  b.storeSrc = static_cast<uint8_t>(getBundleField(w, BundleField::StoreSrc));
  b.aluOp = static_cast<uint8_t>(getBundleField(w, BundleField::AluOp));
  b.aluDest = static_cast<uint8_t>(getBundleField(w, BundleField::AluDest));
  b.aluSrcA = static_cast<uint8_t>(getBundleField(w, BundleField::AluSrcA));
  b.aluImm = getBundleField(w, BundleField::AluImm);
  b.high = getBundleField(w, BundleField::High);
  return b;
}

// Encodes every field of `b` (and opcode 0x20); decodeBundle(encodeBundle(b)) == b for in-range b.
[[nodiscard]] constexpr Word128 encodeBundle(const ScalarBundle& b) {
  Word128 w;
  setBundleField(w, BundleField::Gate, b.gate);
  setBundleField(w, BundleField::Pred, b.pred);
  setBundleField(w, BundleField::Polarity, b.polarity);
  setBundleField(w, BundleField::Reserved5, b.reserved5);
  setBundleField(w, BundleField::Opcode, kScalarBundleOpcode);
  setBundleField(w, BundleField::LoadOp, b.loadOp);
  setBundleField(w, BundleField::LoadDest, b.loadDest);
  setBundleField(w, BundleField::LoadAddr, b.loadAddr);
  setBundleField(w, BundleField::Reserved31, b.reserved31);
  setBundleField(w, BundleField::StoreOp, b.storeOp);
  setBundleField(w, BundleField::StoreOperand, b.storeOperand);
  setBundleField(w, BundleField::StoreSrc, b.storeSrc);
  setBundleField(w, BundleField::AluOp, b.aluOp);
  setBundleField(w, BundleField::AluDest, b.aluDest);
  setBundleField(w, BundleField::AluSrcA, b.aluSrcA);
  setBundleField(w, BundleField::AluImm, b.aluImm);
  setBundleField(w, BundleField::High, b.high);
  return w;
}

// The NOP bundle: opcode 0x20 with every slot empty.
[[nodiscard]] constexpr Word128 nopBundle() { return encodeBundle(ScalarBundle{}); }
[[nodiscard]] constexpr bool isNopBundle(const Word128& w) { return w == nopBundle(); }

}  // namespace coralsim::isa
