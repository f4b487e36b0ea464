// The lle field table and envelope against the ISA tables declared elsewhere (models/isa): the
// fields repeat nothing inconsistently, fit their packets, do not overlap, and the envelope holds
// only opcodes the rung accepts with the decoded bits cleared.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "models/isa/compute_loop_nest.h"
#include "models/isa/packet_fields.h"
#include "models/isa/tile_transfer_loops.h"
#include "models/lle/field_relations.h"
#include "models/lle/lle_fields.h"
#include "models/lle/packet_envelope.h"

namespace coralsim::lle::lle_tables_test {
namespace {

// Writes element `element` of `field` (two's complement of its width) into a packet's words, bit by bit
// (a field element may straddle two words).
void setElement(std::span<isa::Word128> words, LleField field, unsigned element, int64_t value) {
  const LleFieldDef& f = fieldDef(field);
  const uint32_t lsb = f.lsb + element * f.stride;
  const uint64_t raw = static_cast<uint64_t>(value) & ((uint64_t{1} << f.width) - 1);
  for (uint32_t b = 0; b < f.width; ++b) words[(lsb + b) / 128].setBits((lsb + b) % 128, 1, (raw >> b) & 1);
}

TEST(LleFields, TileMaskAndSequenceRowsAgreeWithThePacketFieldTable) {
  size_t checked = 0;
  for (const LleFieldDef& f : kLleFields) {
    const auto op = static_cast<isa::Opcode>(f.opcode);
    const bool mask = f.name.ends_with("Mask") && f.opcode != 0x24;
    const bool seq = f.name.ends_with("Seq");
    if (!mask && !seq) continue;
    const isa::FieldDef* isaField = isa::findPacketField(op, mask ? "mask" : "seq");
    ASSERT_NE(isaField, nullptr) << f.name;
    EXPECT_EQ(isaField->lsb, f.lsb) << f.name;
    EXPECT_EQ(isaField->width, f.width) << f.name;
    ++checked;
  }
  EXPECT_EQ(checked, 26u);  // 13 tile opcodes x (mask, seq): the mesh packets 0x15 / 0x16 / 0x18 since "padform", 0x12 since "op12",
                            // the max reduction 0x02 since "bright02"
}

// The K-loop rows of the compute packet are slots of the loop nests declared in
// models/isa/compute_loop_nest.def (the cost model's table): each K limit is the low part of level
// 0's limit, each wrap row is the wrap of one level, at the nest's pitch and width.
TEST(LleFields, ComputeKLoopRowsAreSlotsOfTheComputeLoopNests) {
  const isa::ComputeNestDef& nest37 = isa::computeNestDef(isa::ComputeNest::Nest37);
  const isa::ComputeNestDef& nest29 = isa::computeNestDef(isa::ComputeNest::Nest29);
  const LleFieldDef& k1 = fieldDef(LleField::ComputeK4W1);
  const LleFieldDef& k7 = fieldDef(LleField::ComputeK4W7);
  EXPECT_EQ(k1.lsb, nest37.limitLsb(0));
  EXPECT_LE(k1.width, nest37.limitWidth);
  EXPECT_EQ(k7.lsb, nest29.limitLsb(0));
  EXPECT_LE(k7.width, nest29.limitWidth);
  // The disassembler's K fields (models/isa/packet_fields.def) are the same low parts.
  const isa::FieldDef* kW1 = isa::findPacketField(isa::Opcode::TileCompute, "k_w1");
  const isa::FieldDef* kW7 = isa::findPacketField(isa::Opcode::TileCompute, "k_w7");
  ASSERT_NE(kW1, nullptr);
  ASSERT_NE(kW7, nullptr);
  EXPECT_EQ(kW1->lsb, nest37.limitLsb(0));
  EXPECT_EQ(kW7->lsb, nest29.limitLsb(0));
  const LleFieldDef& wrap37 = fieldDef(LleField::ComputeKWrap37);  // levels 2..6
  EXPECT_EQ(wrap37.lsb, nest37.wrapLsb(2));
  EXPECT_EQ(wrap37.count, nest37.levels - 2u);
  EXPECT_EQ(wrap37.stride, nest37.pitch);
  EXPECT_EQ(wrap37.width, nest37.wrapWidth);
  const LleFieldDef& wrapW7 = fieldDef(LleField::ComputeKWrapW7);  // level 0
  EXPECT_EQ(wrapW7.lsb, nest29.wrapLsb(0));
  EXPECT_EQ(wrapW7.width, nest29.wrapWidth);
  const LleFieldDef& wrap29 = fieldDef(LleField::ComputeKWrap29);  // levels 1..6
  EXPECT_EQ(wrap29.lsb, nest29.wrapLsb(1));
  EXPECT_EQ(wrap29.count, nest29.levels - 1u);
  EXPECT_EQ(wrap29.stride, nest29.pitch);
  EXPECT_EQ(wrap29.width, nest29.wrapWidth);
  // The byte bits of Nest29's carries ("w7ident" §B) are the slots' two flag bits, all seven levels.
  const LleFieldDef& low29 = fieldDef(LleField::ComputeNest29CarryLow);
  EXPECT_EQ(low29.lsb, nest29.limitLsb(0) + nest29.limitWidth);
  EXPECT_EQ(low29.width, nest29.flagWidth);
  EXPECT_EQ(low29.count, nest29.levels);
  EXPECT_EQ(low29.stride, nest29.pitch);
  EXPECT_EQ(low29.lsb + low29.width, nest29.wrapLsb(0));
}

// The size rows of the tile DMA packets (models/isa/tile_transfer_loops.def, the cost model's
// table) repeat lle fields: each loop's level 0 is the lle limit, the formats and gates are the
// lle bits, and the levels above sit between the lle wraps at the same pitch.
TEST(LleFields, TileTransferLoopsAreTheLleRungsFields) {
  auto loop = [](std::string_view name) -> const isa::TileTransferLoopDef& {
    for (const isa::TileTransferLoopDef& l : isa::kTileTransferLoops) {
      if (l.name == name) return l;
    }
    ADD_FAILURE() << name << " is not a transfer loop";
    return isa::kTileTransferLoops[0];
  };
  auto unit = [](uint8_t opcode) -> const isa::TileTransferUnitDef& {
    for (const isa::TileTransferUnitDef& u : isa::kTileTransferUnits) {
      if (u.opcode == opcode) return u;
    }
    ADD_FAILURE() << "no unit row for opcode " << int{opcode};
    return isa::kTileTransferUnits[0];
  };
  auto sameLimit = [](const isa::TileTransferLoopDef& l, LleField field) {
    const LleFieldDef& f = fieldDef(field);
    EXPECT_EQ(l.opcode, f.opcode) << l.name;
    EXPECT_EQ(l.lsb, f.lsb) << l.name;
    EXPECT_EQ(l.limitWidth, f.width) << l.name;
  };
  sameLimit(loop("Recv11Rows"), LleField::Recv11Rows);
  EXPECT_EQ(unit(0x11).formatBit, fieldDef(LleField::Recv11ExecutionForm).lsb);
  EXPECT_EQ(unit(0x11).formatValue, 0u) << "the row loop is the form with Recv11ExecutionForm clear";
  sameLimit(loop("Read13Groups"), LleField::Stage13Groups);
  sameLimit(loop("Read13Repeats"), LleField::Stage13Repeats);
  EXPECT_EQ(loop("Read13Repeats").gateBit, fieldDef(LleField::Stage13RepeatOn).lsb);
  // 0x13: each level's 17-bit wrap (lle Stage13Wrap, five elements) follows its 16-bit limit.
  const LleFieldDef& wrap13 = fieldDef(LleField::Stage13Wrap);
  EXPECT_EQ(wrap13.count, loop("Read13Groups").levels);
  for (unsigned level = 0; level < wrap13.count; ++level) {
    EXPECT_EQ(loop("Read13Groups").limitLsb(level) + loop("Read13Groups").limitWidth, wrap13.lsb + level * wrap13.stride);
  }
  sameLimit(loop("Write14Groups"), LleField::Stage14Groups);
  const LleField wraps14[] = {LleField::Stage14WrapA, LleField::Stage14WrapB, LleField::Stage14WrapD,
                              LleField::Stage14WrapE};
  ASSERT_EQ(std::size(wraps14), loop("Write14Groups").levels);
  for (unsigned level = 0; level < std::size(wraps14); ++level) {
    EXPECT_EQ(loop("Write14Groups").limitLsb(level) + loop("Write14Groups").limitWidth, fieldDef(wraps14[level]).lsb)
        << "level " << level;
  }
  const LleFieldDef& fill = fieldDef(LleField::Fill17Limit);
  sameLimit(loop("Fill17Levels"), LleField::Fill17Limit);
  EXPECT_EQ(loop("Fill17Levels").levels, fill.count);
  EXPECT_EQ(loop("Fill17Levels").pitch, fill.stride);
  EXPECT_EQ(unit(0x17).formatBit, fieldDef(LleField::Fill17Immediate).lsb);
  EXPECT_EQ(unit(0x17).formatValue, 1u);
  // The 0x10 send's beat nest (lle Dma10Beats, all five levels) and the mesh packets' receive nests
  // (lle MeshNNRecvLimit, gated by MeshNNRecvStride != 0), laid out as 0x17's write nest.
  const LleFieldDef& beats = fieldDef(LleField::Dma10Beats);
  sameLimit(loop("Send10Beats"), LleField::Dma10Beats);
  EXPECT_EQ(loop("Send10Beats").levels, beats.count);
  EXPECT_EQ(loop("Send10Beats").pitch, beats.stride);
  EXPECT_EQ(loop("Send10Beats").gateBit, isa::kTileTransferAlways);
  EXPECT_EQ(unit(0x10).memory, isa::TileMemory::Ring);
  const std::tuple<std::string_view, LleField, LleField> mesh[] = {
      {"Mesh15Receive", LleField::Mesh15RecvLimit, LleField::Mesh15RecvStride},
      {"Mesh16Receive", LleField::Mesh16RecvLimit, LleField::Mesh16RecvStride},
      {"Mesh18Receive", LleField::Mesh18RecvLimit, LleField::Mesh18RecvStride}};
  for (const auto& [name, limit, on] : mesh) {
    sameLimit(loop(name), limit);
    EXPECT_EQ(loop(name).levels, fieldDef(limit).count) << name;
    EXPECT_EQ(loop(name).pitch, fieldDef(limit).stride) << name;
    EXPECT_EQ(loop(name).gateBit, fieldDef(on).lsb) << name;
    EXPECT_EQ(fieldDef(limit).lsb, fill.lsb) << name << ": the receive nest sits where 0x17's write nest does";
    EXPECT_EQ(unit(fieldDef(limit).opcode).unitBytes, 4u) << name;
  }
}

// Which forms of CORAL_LLE_FORMAT conditions a field exists in (empty: every packet; several: all hold).
std::vector<std::pair<LleField, bool>> formsOf(std::string_view name) {
  std::vector<std::pair<LleField, bool>> forms;
  for (const FieldFormat& f : fieldFormats()) {
    if (fieldDef(f.field).name == name) forms.emplace_back(f.condition, f.whenClear);
  }
  return forms;
}

// Whether two fields never exist in one packet: one of their forms names the same condition, opposite values.
bool disjointForms(std::string_view a, std::string_view b) {
  for (const auto& [condition, whenClear] : formsOf(a)) {
    for (const auto& [other, otherWhenClear] : formsOf(b)) {
      if (condition == other && whenClear != otherWhenClear) return true;
    }
  }
  return false;
}

// The partner copy fields and their named parts (lle_partner_copies.def).
bool partnerCopyField(std::string_view name) {
  constexpr std::string_view kCopies[] = {
#define CORAL_LLE_PARTNER_COPY(field, partner) #field,
#define CORAL_LLE_PARTNER_COPY_PART(part)
#include "models/lle/lle_partner_copies.def"
#undef CORAL_LLE_PARTNER_COPY_PART
#undef CORAL_LLE_PARTNER_COPY
  };
  return std::ranges::find(kCopies, name) != std::end(kCopies);
}

bool partnerCopyPart(std::string_view name) {
  constexpr std::string_view kParts[] = {
#define CORAL_LLE_PARTNER_COPY(field, partner)
#define CORAL_LLE_PARTNER_COPY_PART(part) #part,
#include "models/lle/lle_partner_copies.def"
#undef CORAL_LLE_PARTNER_COPY_PART
#undef CORAL_LLE_PARTNER_COPY
  };
  return std::ranges::find(kParts, name) != std::end(kParts);
}

// Two fields may share bits only when each exists in the other's absent form (the same 1-bit
// condition, opposite values): the 0x11 parameter row step and the execution-only flags, the 0x13's
// second-nest limit and its stream beats in word 2 (Stage13RepeatSlot); and a
// partner copy's named part lies wholly inside the copy fields' bits (and overlaps nothing else).
TEST(LleFields, EveryFieldFitsItsPacketAndNoTwoFieldsOverlap) {
  std::map<std::pair<uint8_t, uint32_t>, std::string_view> owner;
  std::vector<const LleFieldDef*> parts;
  for (const LleFieldDef& f : kLleFields) {
    const unsigned length = isa::packetLength(static_cast<isa::Opcode>(f.opcode));
    ASSERT_GT(length, 0u) << f.name;
    if (partnerCopyPart(f.name)) {
      parts.push_back(&f);
      continue;
    }
    for (unsigned e = 0; e < f.count; ++e) {
      for (uint32_t b = f.lsb + e * f.stride; b < f.lsb + e * f.stride + f.width; ++b) {
        EXPECT_LT(b, length * 128u) << f.name << " runs past its " << length << "-word packet";
        const auto [it, fresh] = owner.emplace(std::make_pair(f.opcode, b), f.name);
        EXPECT_TRUE(fresh || disjointForms(f.name, it->second)) << f.name << " overlaps " << it->second << " at bit " << b;
      }
    }
    EXPECT_FALSE(f.meaning.empty()) << f.name;
    EXPECT_FALSE(f.evidence.empty()) << f.name;
  }
  EXPECT_FALSE(parts.empty());
  for (const LleFieldDef* f : parts) {
    for (unsigned e = 0; e < f->count; ++e) {
      for (uint32_t b = f->lsb + e * f->stride; b < f->lsb + e * f->stride + f->width; ++b) {
        const auto it = owner.find(std::make_pair(f->opcode, b));
        ASSERT_NE(it, owner.end()) << f->name << " bit " << b << " lies outside every copy field";
        EXPECT_TRUE(partnerCopyField(it->second)) << f->name << " overlaps " << it->second << " at bit " << b;
      }
    }
    EXPECT_FALSE(f->meaning.empty()) << f->name;
    EXPECT_FALSE(f->evidence.empty()) << f->name;
  }
}

TEST(LleFields, ReadFieldJoinsElementsThatStraddleTwoWords) {
  // NLU element 2 starts at bit 62 + 64 = 126 of word 0 and runs into word 1.
  std::array<isa::Word128, 13> words{};
  const uint32_t value = 0xdeadbeef;
  const uint32_t lsb = fieldDef(LleField::NluCoef).lsb + 2 * 32;
  ASSERT_EQ(lsb, 126u);
  words[0].setBits(126, 2, value & 3);
  words[1].setBits(0, 30, value >> 2);
  EXPECT_EQ(readField(words, LleField::NluCoef, 2), value);
}

TEST(LleRelations, RelateFieldsOfOnePacketUnderAOneBitCondition) {
  ASSERT_FALSE(fieldRelations().empty());
  for (const FieldRelation& r : fieldRelations()) {
    const LleFieldDef& f = fieldDef(r.field);
    EXPECT_EQ(f.opcode, fieldDef(r.base).opcode) << f.name;
    EXPECT_TRUE(acceptedOpcode(f.opcode)) << f.name;
    if (r.condition) {
      // A flag, a mesh side's short level (LastRunOn, 2 bits: docs/decoding-log.md "w7codes" §C), the 0x13's partial-run
      // level (3 bits, "w2k13") or its second nest's short level (2 bits, "nin16"), present where not 0.
      const LleFieldDef& c = fieldDef(*r.condition);
      EXPECT_TRUE(c.width == 1 || (std::string_view(c.name).ends_with("LastRunOn") && c.width == 2) ||
                  (*r.condition == LleField::Stage13PartialRunLevel && c.width == 3) ||
                  (*r.condition == LleField::Stage13RepeatLastRunLevel && c.width == 2))
          << f.name;
      EXPECT_EQ(fieldDef(*r.condition).opcode, f.opcode) << f.name;
    }
  }
  ASSERT_FALSE(fieldFormats().empty());
  for (const FieldFormat& format : fieldFormats()) {
    EXPECT_EQ(fieldDef(format.condition).width, 1u) << fieldDef(format.field).name;
    EXPECT_EQ(fieldDef(format.condition).opcode, fieldDef(format.field).opcode) << fieldDef(format.field).name;
  }
}

// CORAL_LLE_RELATION_COUNT (docs/decoding-log.md "dense2" §B): the compute's Nest37 wraps follow
// Nest29's whole iteration count, whichever of its levels 0-2 counts: 35 iterations at level 2 (a
// count no corpus compute has) take wraps -34; at level 1 x level 2 (5 x 7) too; -35 is refused
// naming the nest.
TEST(LleRelations, ANestWrapFollowsTheIterationCountOfEveryLevel) {
  std::array<isa::Word128, 17> words{};
  const auto set = [&](LleField field, unsigned element, int64_t value) { setElement(words, field, element, value); };
  const auto wraps = [&](int64_t value) {
    for (unsigned e = 0; e < fieldDef(LleField::ComputeKWrap37).count; ++e) set(LleField::ComputeKWrap37, e, value);
  };
  const auto relations = [&] { return checkFieldRelations(0x01, words); };
  set(LleField::ComputeLimit29, 1, 34);
  wraps(-34);
  const std::string level2 = relations();
  EXPECT_EQ(level2.find("ComputeKWrap37"), std::string::npos) << level2;
  set(LleField::ComputeLimit29, 0, 4);
  set(LleField::ComputeLimit29, 1, 6);
  const std::string split = relations();
  EXPECT_EQ(split.find("ComputeKWrap37"), std::string::npos) << split;
  wraps(-35);
  const std::string off = relations();
  EXPECT_NE(off.find("ComputeKWrap37[0] (word 2 bits 82:66) = -35 is not -1 x (iterations of ComputeK4W7 and ComputeLimit29 - 1) = -34"),
            std::string::npos)
      << off;
}

// The compute's K limits are 14-bit slots (docs/decoding-log.md "rubens" §B): a reduction of 1,000 (no
// corpus compute has it; the 40 x 40 convolutions have 1,600), written whole at w0 bit 62, w7 bit 90
// and w10 bit 9, takes the wraps -999; the wraps of its low 8 bits alone (-231) are refused naming
// ComputeKWrap29. With 8-bit K fields the limit read 231 and the test fails both ways (checked).
TEST(LleRelations, TheKLimitsAreFourteenBitsWide) {
  std::array<isa::Word128, 17> words{};
  constexpr uint64_t kLimit = 999;
  words[0].setBits(62, 14, kLimit);
  words[7].setBits(90, 14, kLimit);
  words[10].setBits(9, 14, kLimit);
  words[1].setBits(100, 8, 0);  // ComputeK4W1 (Nest37 level 0) does not count: Nest29's level 0 holds K
  const auto setAll = [&](LleField field, int64_t value) {
    const LleFieldDef& f = fieldDef(field);
    const uint64_t raw = static_cast<uint64_t>(value) & ((uint64_t{1} << f.width) - 1);
    for (unsigned e = 0; e < f.count; ++e) {
      const uint32_t lsb = f.lsb + e * f.stride;
      for (uint32_t b = 0; b < f.width; ++b) words[(lsb + b) / 128].setBits((lsb + b) % 128, 1, (raw >> b) & 1);
    }
  };
  const auto wraps = [&](int64_t value) {
    for (LleField f : {LleField::ComputeKWrap29, LleField::ComputeKWrapW7, LleField::ComputeKWrap37}) setAll(f, value);
  };
  wraps(-static_cast<int64_t>(kLimit));
  EXPECT_EQ(readField(words, LleField::ComputeK4W0), kLimit);
  EXPECT_EQ(checkFieldRelations(0x01, words), "");
  setAll(LleField::ComputeKWrap29, -static_cast<int64_t>(kLimit % 256));
  const std::string low = checkFieldRelations(0x01, words);
  EXPECT_NE(low.find("ComputeKWrap29[0] (word 8 bits 19:7) = -231 is not -1 x ComputeK4W0 = -999"), std::string::npos) << low;
}

// The K count (ComputeKCount, w9[75:64]) is of whole 4-byte groups of Nest29's slot-6 byte carry
// (docs/decoding-log.md "colour59" §B): the carry is 4 x ComputeKWrap29[5] + ComputeNest29CarryLow[6],
// the count 1 - ceil(carry / 4). A one-byte walk of 8 bytes back (wrap -2, low bits 0) counts 3; of
// 7 bytes back (wrap -2, low bits 1: a carry no corpus compute has -- they carry -3 and -2) counts 2,
// and 3 is refused naming the rounding. Read as 1 - wrap (main), 2 is refused and 3 accepted (checked).
TEST(LleRelations, TheKCountIsOfWholeGroupsOfItsLoopsByteCarry) {
  std::array<isa::Word128, 17> words{};
  const auto set = [&](LleField field, unsigned element, int64_t value) { setElement(words, field, element, value); };
  // Its w10 nest runs level 0 once (ComputeK4W10 0): every corpus compute marks that ("w9b122").
  set(LleField::ComputeW10Level0Once, 0, 1);
  set(LleField::ComputeKWrap29, 5, -2);
  set(LleField::ComputeKCount, 0, 3);
  EXPECT_EQ(checkFieldRelations(0x01, words), "");
  set(LleField::ComputeNest29CarryLow, 6, 1);
  set(LleField::ComputeKCount, 0, 2);
  EXPECT_EQ(checkFieldRelations(0x01, words), "");
  set(LleField::ComputeKCount, 0, 3);
  const std::string whole = checkFieldRelations(0x01, words);
  EXPECT_NE(whole.find("ComputeKCount (word 9 bits 75:64) = 3 is not -1 x ComputeKWrap29[5] (word 9 bits 36:24) (rounded up to a "
                       "whole 4-byte group: ComputeNest29CarryLow[6] = 1) + 1 = 2"),
            std::string::npos)
      << whole;
}

// A split K reduction keeps its partial sums in rows from ComputePartialSumRow (w9[121:110]), one a position,
// walked by the w10 nest (docs/decoding-log.md "ring9"): the taps add into one row, wrap +1 moves to the next
// position, the levels above (K groups, output blocks) return to the first row. Values no corpus compute has:
// 10 positions, 3 K groups, 3 blocks, rows from 3,000. Every corpus split has 2 blocks at most and its rows
// end at 2,080 or below. Without the fields (main) the packet does not compile here and the envelope pins them.
TEST(LleRelations, APartialSumRowWalkKeepsOneRowAPositionAndReturnsAboveIt) {
  std::array<isa::Word128, 17> words{};
  const auto set = [&](LleField field, unsigned element, int64_t value) { setElement(words, field, element, value); };
  set(LleField::ComputeK4W10, 0, 8);           // 9 taps into one row
  set(LleField::ComputeLimitW10, 0, 9);        // 10 positions
  set(LleField::ComputeLimitW10, 1, 2);        // 3 K groups
  set(LleField::ComputeLimitW10Level3, 0, 2);  // 3 output blocks
  set(LleField::ComputePartialSumRow, 0, 3000);
  set(LleField::ComputeWrapW10, 0, 1);
  for (unsigned level = 1; level < 7; ++level) set(LleField::ComputeWrapW10, level, -9);
  const auto refusal = [&] { return checkFieldRelations(0x01, words); };
  EXPECT_NE(refusal().find("ComputePartialSumWalkOn (word 11 bit 99) = 0: the rows are walked only with the switch on"), std::string::npos)
      << refusal();
  set(LleField::ComputePartialSumWalkOn, 0, 1);
  EXPECT_EQ(checkFieldRelations(0x01, words), "");
  set(LleField::ComputeWrapW10, 0, 2);  // two rows a position
  EXPECT_NE(refusal().find("ComputeWrapW10[0] (the w10 nest's level-0 wrap) = 2: the positions (level 1, 10) keep one row each"),
            std::string::npos)
      << refusal();
  set(LleField::ComputeWrapW10, 0, 1);
  set(LleField::ComputeWrapW10, 2, -8);  // the blocks would move on by a row
  EXPECT_NE(refusal().find("ComputeWrapW10[2] (the w10 nest's level-2 wrap) = -8 moves level 3 (3 iterations) by 1 rows"), std::string::npos)
      << refusal();
  set(LleField::ComputeWrapW10, 2, -9);
  set(LleField::ComputePartialSumRow, 0, 4090);  // 10 rows from 4,090 pass the 12-bit numbering
  EXPECT_NE(refusal().find("ComputePartialSumRow (word 9 bits 121:110) = 4090: 10 rows from it pass the 4096 rows"), std::string::npos)
      << refusal();
  set(LleField::ComputePartialSumRow, 0, 3000);
  set(LleField::ComputeLimitW10, 1, 0);
  set(LleField::ComputeLimitW10Level3, 0, 0);  // nothing above the positions: no split to keep sums for
  EXPECT_NE(refusal().find("partial-sum rows without a split reduction are not decoded"), std::string::npos) << refusal();
  set(LleField::ComputePartialSumRow, 0, 0);  // from row 0 the same walk is checked alike ("st13b")
  EXPECT_NE(refusal().find("ComputePartialSumRow (word 9 bits 121:110) = 0: no level above the positions"), std::string::npos) << refusal();
  set(LleField::ComputePartialSumWalkOn, 0, 0);
  EXPECT_NE(refusal().find("ComputeWrapW10[0] (the w10 nest's level-0 wrap) = 1 with ComputePartialSumRow (word 9 bits 121:110) = 0"),
            std::string::npos)
      << refusal();
}

// A partial-sum walk none of whose levels above level 0 counts is one pass (docs/decoding-log.md "kstride"): the
// level-0 K groups add into one row and the sum is taken whole, so neither the row nor the wraps of the levels that
// run once move a byte -- dense_1_8_mul's one-group compute (wrap 1, row 0) and model_dense's Dense computes (wraps
// 0, 4, row 0) carry the switch on so. Here 7 groups with wraps 3, 5, -2 at the idle levels and rows 0 and 77 (no
// corpus compute has them) pass; with a second position counting (ComputeLimitW10[0] = 1) the walk is more than one
// pass and the row-0 refusal stands. Fails without the change (checked: "ComputePartialSumWalkOn (word 11 bit 99) =
// 1 with ComputePartialSumRow (word 9 bits 121:110) = 0: a walk over partial-sum rows without its first row ...").
TEST(LleRelations, APartialSumWalkOfOnePassMovesNoByteWhateverItsRowAndIdleWraps) {
  std::array<isa::Word128, 17> words{};
  const auto set = [&](LleField field, unsigned element, int64_t value) { setElement(words, field, element, value); };
  set(LleField::ComputeK4W10, 0, 6);
  set(LleField::ComputePartialSumWalkOn, 0, 1);
  set(LleField::ComputeWrapW10, 0, 3);
  set(LleField::ComputeWrapW10, 1, 5);
  set(LleField::ComputeW10ForwardMark, 0, 1);  // slot 1's +5 moves forward: marked, as in every corpus compute (w10_forward_marks.h)
  set(LleField::ComputeWrapW10, 2, -2);
  for (const int64_t row : {0, 77}) {
    set(LleField::ComputePartialSumRow, 0, row);
    EXPECT_EQ(checkFieldRelations(0x01, words), "") << "row " << row;
  }
  set(LleField::ComputePartialSumRow, 0, 0);
  set(LleField::ComputeLimitW10, 0, 1);  // a second position: now a walk, checked as one from row 0 ("st13b")
  const std::string twoPositions = checkFieldRelations(0x01, words);
  EXPECT_NE(twoPositions.find("ComputePartialSumRow (word 9 bits 121:110) = 0: ComputeWrapW10[0] (the w10 nest's level-0 wrap) = 3: "
                              "the positions (level 1, 2) keep one row each"),
            std::string::npos)
      << twoPositions;
}

// Row 0 is the first row of a partial-sum walk like any other (docs/decoding-log.md "st13b"): the 243 corpus computes
// that walk from row 0 and count above their positions (MobileNet v2 1.0 224 and its co-compile, DeepLab v3 mnv2 pascal,
// the PoseNet quant decoders, MobileNet v1 0.25 co-compiled) have the shape of the 782 from a row > 0: level-0 wrap +1,
// -(level 1's limit) above. Values no corpus compute has (7 taps, 13 positions, 5 K groups, 2 blocks) pass from row 0 as
// from row 40; a walk of another shape from row 0 is refused naming its wrap, not its row. Fails without the change
// (checked: "ComputePartialSumWalkOn (word 11 bit 99) = 1 with ComputePartialSumRow (word 9 bits 121:110) = 0 ...").
TEST(LleRelations, APartialSumWalkFromRowZeroIsCheckedAsFromAnyRow) {
  std::array<isa::Word128, 17> words{};
  const auto set = [&](LleField field, unsigned element, int64_t value) { setElement(words, field, element, value); };
  set(LleField::ComputeK4W10, 0, 6);           // 7 taps into one row
  set(LleField::ComputeLimitW10, 0, 12);       // 13 positions, a row each
  set(LleField::ComputeLimitW10, 1, 4);        // 5 K groups back over them
  set(LleField::ComputeLimitW10Level3, 0, 1);  // 2 output blocks
  set(LleField::ComputePartialSumWalkOn, 0, 1);
  set(LleField::ComputeWrapW10, 0, 1);
  for (unsigned level = 1; level < 7; ++level) set(LleField::ComputeWrapW10, level, -12);
  for (const int64_t row : {40, 0}) {
    set(LleField::ComputePartialSumRow, 0, row);
    EXPECT_EQ(checkFieldRelations(0x01, words), "") << "row " << row;
  }
  set(LleField::ComputeWrapW10, 1, -11);  // the K groups would move on by a row
  const std::string moved = checkFieldRelations(0x01, words);
  EXPECT_NE(moved.find("ComputePartialSumRow (word 9 bits 121:110) = 0: ComputeWrapW10[1] (the w10 nest's level-1 wrap) = -11 moves level 2"),
            std::string::npos)
      << moved;
}

// w12 bit 88 goes with the partial-sum walk's switch where ComputeCodeW9 is 2 (docs/decoding-log.md "ring88";
// 4,578 / 4,578 corpus computes); under other codes it is not decoded and not checked. The walk of the test
// above (rows from 3,000, 3 K groups, 3 blocks: no corpus compute) with the flag set passes; the flag clear
// under code 2, or set under code 2 without a walk, is refused naming word 12 bit 88; under code 5 (no corpus
// code-5 compute walks) a set flag without a walk passes. Without the field the packet does not compile here,
// and main's envelope pins the bit.
TEST(LleRelations, UnderCodeTwoTheW12Bit88FlagGoesWithThePartialSumWalk) {
  std::array<isa::Word128, 17> words{};
  const auto set = [&](LleField field, unsigned element, int64_t value) { setElement(words, field, element, value); };
  set(LleField::ComputeK4W10, 0, 8);
  set(LleField::ComputeLimitW10, 0, 9);
  set(LleField::ComputeLimitW10, 1, 2);
  set(LleField::ComputeLimitW10Level3, 0, 2);
  set(LleField::ComputePartialSumRow, 0, 3000);
  set(LleField::ComputeWrapW10, 0, 1);
  for (unsigned level = 1; level < 7; ++level) set(LleField::ComputeWrapW10, level, -9);
  set(LleField::ComputePartialSumWalkOn, 0, 1);
  set(LleField::ComputeCodeW9, 0, 2);
  set(LleField::ComputeFlagW12Bit88, 0, 1);
  EXPECT_EQ(checkFieldRelations(0x01, words), "");
  set(LleField::ComputeFlagW12Bit88, 0, 0);
  const std::string clear = checkFieldRelations(0x01, words);
  EXPECT_NE(clear.find("ComputeFlagW12Bit88 (word 12 bit 88) = 0 with ComputeCodeW9 (word 9 bits 63:59) = 2 and "
                       "ComputePartialSumWalkOn (word 11 bit 99) = 1"),
            std::string::npos)
      << clear;
  // No walk at all (row 0, wraps 0, switch off).
  std::array<isa::Word128, 17> plain{};
  setElement(plain, LleField::ComputeW10Level0Once, 0, 1);  // level 0 runs once ("w9b122")
  setElement(plain, LleField::ComputeCodeW9, 0, 2);
  setElement(plain, LleField::ComputeFlagW12Bit88, 0, 1);
  const std::string alone = checkFieldRelations(0x01, plain);
  EXPECT_NE(alone.find("ComputeFlagW12Bit88 (word 12 bit 88) = 1 with ComputeCodeW9 (word 9 bits 63:59) = 2"), std::string::npos) << alone;
  setElement(plain, LleField::ComputeCodeW9, 0, 5);
  EXPECT_EQ(checkFieldRelations(0x01, plain), "");
}

// The shape of the compute's word 12 (docs/decoding-log.md "w12lo"): bits 82 and 45 are one flag written twice
// over the image positions w12[81:48]; the code w12[31:27] is 0 or odd. Values no corpus compute has: a 7-byte
// image row with mark 9 and the flag passes; the flag's two copies apart, the flag without a row, or a row
// without the flag are refused naming the fields; the code 1 (M = 0 written) and 13 pass, the even codes 4 and
// 2 are refused naming ComputeCodeW12. With the check's call removed from checkFieldRelations the five refusals
// fail (checked); without the fields the test does not compile.
TEST(LleRelations, TheW12PositionsFlagGoesWithItsPositionsAndTheCodeIsZeroOrOdd) {
  std::array<isa::Word128, 17> words{};
  const auto set = [&](LleField field, int64_t value) { setElement(words, field, 0, value); };
  // Its w10 nest runs level 0 once (ComputeK4W10 0): every corpus compute marks that ("w9b122").
  set(LleField::ComputeW10Level0Once, 1);
  set(LleField::ComputeImageRowBytes, 7);
  set(LleField::ComputeImageMark, 9);
  set(LleField::ComputeImagePositionsOn, 1);
  set(LleField::ComputeImagePositionsOnAgain, 1);
  set(LleField::ComputeCodeW12, 1);
  EXPECT_EQ(checkFieldRelations(0x01, words), "");
  set(LleField::ComputeCodeW12, 13);
  EXPECT_EQ(checkFieldRelations(0x01, words), "");
  for (const int64_t even : {4, 2}) {
    set(LleField::ComputeCodeW12, even);
    const std::string why = checkFieldRelations(0x01, words);
    EXPECT_NE(why.find("ComputeCodeW12 (word 12 bits 31:27) = " + std::to_string(even) + ": an even code"), std::string::npos) << why;
  }
  set(LleField::ComputeCodeW12, 0);
  set(LleField::ComputeImagePositionsOnAgain, 0);
  const std::string apart = checkFieldRelations(0x01, words);
  EXPECT_NE(apart.find("ComputeImagePositionsOn (word 12 bit 82) = 1 and ComputeImagePositionsOnAgain (word 12 bit 45) = 0"),
            std::string::npos)
      << apart;
  set(LleField::ComputeImagePositionsOnAgain, 1);
  set(LleField::ComputeImageRowBytes, 0);
  const std::string noRow = checkFieldRelations(0x01, words);
  EXPECT_NE(noRow.find("ComputeImagePositionsOn (word 12 bit 82) = 1 with ComputeImageRowBytes (word 12 bits 81:64) = 0"),
            std::string::npos)
      << noRow;
  set(LleField::ComputeImageRowBytes, 7);
  set(LleField::ComputeImagePositionsOn, 0);
  set(LleField::ComputeImagePositionsOnAgain, 0);
  const std::string noFlag = checkFieldRelations(0x01, words);
  EXPECT_NE(noFlag.find("ComputeImagePositionsOn (word 12 bit 82) = 0 with ComputeImageRowBytes / ComputeImageMark (word 12 bits 81:48) = 7 / 9"),
            std::string::npos)
      << noFlag;
  set(LleField::ComputeImageRowBytes, 0);
  set(LleField::ComputeImageMark, 0);
  EXPECT_EQ(checkFieldRelations(0x01, words), "");
}

// The two position relations (ComputePositionStep37 = positions + 1, ComputeOutPositions = positions) are the
// element-wise form's; a 4-byte compute with a parameter prefix runs as the convolution, which follows its nests
// (docs/decoding-log.md "split" §D). Six positions at Nest37 level 2 with slot 0's carry 1 unit and the output
// nest's level 1 run once (split_concat's 0x0485 has four; no corpus compute has six in this form) pass with a
// scale-and-bias prefix (3) and are refused naming ComputePositionStep37 without one, and so with a ring input.
// Fails with the exemption removed from the two rows (checked: "ComputePositionStep37 ... is not 1 x
// ComputePositions + 1 = 6" with the prefix too).
TEST(LleRelations, ThePositionRelationsAreNotAPrefixedComputesWhichRunsAsTheConvolution) {
  std::array<isa::Word128, 17> words{};
  const auto set = [&](LleField field, int64_t value) { setElement(words, field, 0, value); };
  // Its w10 nest runs level 0 once (ComputeK4W10 0): every corpus compute marks that ("w9b122").
  set(LleField::ComputeW10Level0Once, 1);
  set(LleField::ComputeInputBytes, 4);
  set(LleField::ComputePositions, 5);
  set(LleField::ComputePositionStep37, 1);
  set(LleField::ComputeOutPositions, 0);
  set(LleField::ComputeParamPrefix, 3);
  EXPECT_EQ(checkFieldRelations(0x01, words), "");
  set(LleField::ComputeParamPrefix, 0);
  const std::string unprefixed = checkFieldRelations(0x01, words);
  EXPECT_NE(unprefixed.find("ComputePositionStep37"), std::string::npos) << unprefixed;
  set(LleField::ComputeParamPrefix, 3);
  set(LleField::ComputeInputRingOn, 1);
  set(LleField::ComputeInputRingBytes, 512);
  const std::string ring = checkFieldRelations(0x01, words);
  EXPECT_NE(ring.find("ComputeOutPositions"), std::string::npos) << ring;
}

TEST(LleRelations, SignedReadsAreTwosComplementOfTheFieldWidth) {
  std::array<isa::Word128, 4> words{};
  const LleFieldDef& f = fieldDef(LleField::PopRingNeg16);  // 12 bits at word 1 bit 75
  words[1].setBits(75, 12, 0xbc1);
  EXPECT_EQ(readSigned(words, LleField::PopRingNeg16), -1087);
  words[1].setBits(75, 12, 0x6e1);
  EXPECT_EQ(readSigned(words, LleField::PopRingNeg16), 1761);
  EXPECT_EQ(f.width, 12u);
}

TEST(LleEnvelope, HoldsOnlyAcceptedOpcodesWithTheDecodedBitsCleared) {
  for (uint8_t op = 0; op < 64; ++op) {
    const unsigned length = isa::packetLength(static_cast<isa::Opcode>(op));
    for (unsigned k = 0; k < length; ++k) {
      const isa::Word128 v = envelopeValue(op, k);
      const isa::Word128 decoded = decodedBits(op, k);
      EXPECT_EQ(v.lo & decoded.lo, 0u) << "op " << int(op) << " word " << k;
      EXPECT_EQ(v.hi & decoded.hi, 0u) << "op " << int(op) << " word " << k;
      if (!acceptedOpcode(op)) {
        EXPECT_TRUE(v.lo == 0 && v.hi == 0) << "op " << int(op);
      }
    }
  }
  // The opcode field itself is never decoded: word 0 of every accepted opcode pins it.
  for (uint8_t op : {0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x24, 0x25, 0x26, 0x27}) {
    if (op == 0x19) continue;  // no supported template uses the NLU: no envelope rows yet
    EXPECT_TRUE(acceptedOpcode(op));
    EXPECT_EQ(envelopeValue(op, 0).bits(6, 6), op) << int(op);
  }
  // 0x12 is accepted since "op12" (the weight-stream receive), 0x02 since "bright02" (the max reduction), 0x03 since
  // "sum03" (the softmax's sum, laid out as 0x01); the other tile DMA opcodes since earlier branches. 0x05 is not.
  EXPECT_FALSE(acceptedOpcode(0x05));
  EXPECT_FALSE(acceptedOpcode(0x20));
}

}  // namespace
}  // namespace coralsim::lle::lle_tables_test
