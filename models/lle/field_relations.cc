#include "models/lle/field_relations.h"

#include <variant>

#include "models/lle/byte_stepped_weighing.h"
#include "models/lle/kept_read_records.h"
#include "models/lle/pool_records.h"
#include "models/lle/kept_read_second_nest.h"
#include "models/lle/read_beat_walk.h"
#include "models/lle/w0_last_run.h"
#include "models/lle/read_partial_run.h"
#include "models/lle/kept_take_units.h"
#include "models/lle/level_four_passes.h"
#include "models/lle/position_lane_form.h"
#include "models/lle/output_partial_pass.h"
#include "models/lle/partial_sum_walk.h"
#include "models/lle/position_split_reduction.h"
#include "models/lle/forward_marks.h"
#include "models/lle/top_level_passes.h"
#include "models/lle/w10_forward_marks.h"
#include "models/lle/w10_level0_once.h"
#include "models/lle/weight_group_walk.h"
#include "models/lle/wide_streamed_square.h"
#include "models/lle/word12_form.h"
#include "models/lle/write_nest_return.h"


namespace coralsim::lle {

namespace {

FieldRelation exceptingThePixelWalk(FieldRelation relation) {
  relation.exceptPixelWalk = true;
  return relation;
}

FieldRelation exceptingTheRowWalk(FieldRelation relation) {
  relation.exceptRowWalk = true;
  return relation;
}

FieldRelation exceptingThePrefixed(FieldRelation relation) {
  relation.exceptPrefixed = true;
  return relation;
}

const FieldRelation kRelations[] = {
#define CORAL_LLE_RELATION(f, b, m, a) \
  FieldRelation{LleField::f, LleField::b, m, a, std::nullopt, false, 1, std::nullopt, std::nullopt},
#define CORAL_LLE_RELATION_IF(c, f, b, m, a) \
  FieldRelation{LleField::f, LleField::b, m, a, LleField::c, false, 1, std::nullopt, std::nullopt},
#define CORAL_LLE_ONLY_IF(c, f) \
  FieldRelation{LleField::f, LleField::f, 1, 0, LleField::c, true, 1, std::nullopt, std::nullopt},
#define CORAL_LLE_RELATION_SCALED(f, s, b, m, a) \
  FieldRelation{LleField::f, LleField::b, m, a, std::nullopt, false, s, std::nullopt, std::nullopt},
#define CORAL_LLE_RELATION_OR(f, b, m, a, a2) \
  FieldRelation{LleField::f, LleField::b, m, a, std::nullopt, false, 1, a2, std::nullopt},
#define CORAL_LLE_FIXED_IF(c, f, e, v) FieldRelation{LleField::f, LleField::f, 0, v, LleField::c, false, 1, std::nullopt, e},
#define CORAL_LLE_RELATION_COUNT(f, b, o, m, a) \
  FieldRelation{LleField::f, LleField::b, m, a, std::nullopt, false, 1, std::nullopt, std::nullopt, LleField::o},
#define CORAL_LLE_RELATION_EXCEPT(f, b, m, a, x, v)                                                           \
  FieldRelation{LleField::f, LleField::b, m,         a,           std::nullopt, false, 1, std::nullopt, std::nullopt, \
                std::nullopt, LleField::x, v},
#define CORAL_LLE_RELATION_COUNT_EXCEPT(f, b, o, m, a, x, v)                                                    \
  FieldRelation{LleField::f, LleField::b, m,         a,           std::nullopt, false, 1, std::nullopt, std::nullopt, \
                LleField::o, LleField::x, v},
#define CORAL_LLE_RELATION_EXCEPT2(f, b, m, a, x, v, x2, v2)                                                   \
  FieldRelation{LleField::f, LleField::b, m,         a,           std::nullopt, false, 1, std::nullopt, std::nullopt, \
                std::nullopt, LleField::x, v, LleField::x2, v2},
#define CORAL_LLE_RELATION_EXCEPT_WHERE_SET(f, b, m, a, x, v, y)                                                      \
  FieldRelation{LleField::f, LleField::b, m,           a,           std::nullopt, false, 1, std::nullopt, std::nullopt, \
                std::nullopt, LleField::x, v, std::nullopt, 0, LleField::y},
#define CORAL_LLE_RELATION_EXCEPT2_WHERE_SET(f, b, m, a, x, v, x2, v2, y)                                             \
  FieldRelation{LleField::f, LleField::b, m,           a,           std::nullopt, false, 1, std::nullopt, std::nullopt, \
                std::nullopt, LleField::x, v, LleField::x2, v2, LleField::y},
#define CORAL_LLE_RELATION_COUNT_EXCEPT_WHERE_SET(f, b, o, m, a, x, v, y)                                              \
  FieldRelation{LleField::f, LleField::b, m,           a,           std::nullopt, false, 1, std::nullopt, std::nullopt, \
                LleField::o, LleField::x, v, std::nullopt, 0, LleField::y},
#define CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET(c, f, b, m, a, x, v, x2, v2, y)                             \
  FieldRelation{LleField::f, LleField::b, m,           a,           std::nullopt, false, 1, std::nullopt, std::nullopt, \
                std::nullopt, LleField::x, v, LleField::x2, v2, LleField::y, std::nullopt, false, std::nullopt, 0, LleField::c},
#define CORAL_LLE_RELATION_WHERE_UNSET(f, b, m, a, y)                                                                  \
  FieldRelation{LleField::f, LleField::b, m,           a,           std::nullopt, false, 1, std::nullopt, std::nullopt, \
                std::nullopt, std::nullopt, 0, std::nullopt, 0, LleField::y},
#define CORAL_LLE_COUNT_OF_WRAP(f, b, e, l, le)                                                                   \
  FieldRelation{LleField::f, LleField::b, -1,          1,           std::nullopt, false, 1, std::nullopt, std::nullopt, \
                std::nullopt, std::nullopt, 0, std::nullopt, 0, std::nullopt, e, true, LleField::l, le},
#define CORAL_LLE_FORMAT(c, f)
#define CORAL_LLE_FORMAT_UNLESS(c, f)
// The same rows, also not applied in the pixel walk (isPixelWalk).
#define CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_WALK(f, b, m, a, x, v, x2, v2, y)                               \
  exceptingThePixelWalk(FieldRelation{LleField::f, LleField::b, m, a, std::nullopt, false, 1, std::nullopt, std::nullopt, \
                                      std::nullopt, LleField::x, v, LleField::x2, v2, LleField::y}),
#define CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_WALK(f, b, m, a, y)                                                    \
  exceptingThePixelWalk(FieldRelation{LleField::f, LleField::b, m, a, std::nullopt, false, 1, std::nullopt, std::nullopt, \
                                      std::nullopt, std::nullopt, 0, std::nullopt, 0, LleField::y}),
#define CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET_OR_PIXEL_WALK(c, f, b, m, a, x, v, x2, v2, y)               \
  exceptingThePixelWalk(FieldRelation{LleField::f, LleField::b, m, a, std::nullopt, false, 1, std::nullopt, std::nullopt, \
                                      std::nullopt, LleField::x, v, LleField::x2, v2, LleField::y, std::nullopt, false,     \
                                      std::nullopt, 0, LleField::c}),
// The same rows, also not applied in the row walk (isRowWalk).
#define CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK(f, b, m, a, x, v, x2, v2, y)                       \
  exceptingTheRowWalk(exceptingThePixelWalk(FieldRelation{LleField::f, LleField::b, m, a, std::nullopt, false, 1,      \
                                                          std::nullopt, std::nullopt, std::nullopt, LleField::x, v,    \
                                                          LleField::x2, v2, LleField::y})),
// The same rows, also not applied in a compute with a parameter prefix (isPrefixedCompute).
#define CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED(f, b, m, a, x, v, x2, v2, y)        \
  exceptingThePrefixed(exceptingTheRowWalk(exceptingThePixelWalk(FieldRelation{                                 \
      LleField::f, LleField::b, m, a, std::nullopt, false, 1, std::nullopt, std::nullopt, std::nullopt, LleField::x, v, \
      LleField::x2, v2, LleField::y}))),
#define CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_WALK_OR_PREFIXED(f, b, m, a, y)                                      \
  exceptingThePrefixed(exceptingThePixelWalk(FieldRelation{LleField::f, LleField::b, m, a, std::nullopt, false, 1,   \
                                                           std::nullopt, std::nullopt, std::nullopt, std::nullopt, 0, \
                                                           std::nullopt, 0, LleField::y})),
// The same rows, also not applied in the row walk: its executor follows Output37 as the address generator it is
// and checks that it writes one unit an iteration (lle_rung_eltwise_walk.cc; docs/decoding-log.md "w8mid" §B).
#define CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED(f, b, m, a, y)                             \
  exceptingThePrefixed(exceptingTheRowWalk(exceptingThePixelWalk(FieldRelation{                                  \
      LleField::f, LleField::b, m, a, std::nullopt, false, 1, std::nullopt, std::nullopt, std::nullopt, std::nullopt, 0, \
      std::nullopt, 0, LleField::y}))),
// The K-loop wrap rows and the output carry row, also not applied in a compute with a parameter prefix: the
// convolution executor walks the nests' carries as the address generators they are (docs/decoding-log.md
// "stride2"), the single-position (Dense) one holds the K-loop rows itself (singlePositionKWrapProblem).
#define CORAL_LLE_RELATION_COUNT_EXCEPT_WHERE_SET_OR_ROW_WALK_OR_PREFIXED(f, b, o, m, a, x, v, y)                     \
  exceptingThePrefixed(exceptingTheRowWalk(FieldRelation{LleField::f, LleField::b, m, a, std::nullopt, false, 1,       \
                                                         std::nullopt, std::nullopt, LleField::o, LleField::x, v,      \
                                                         std::nullopt, 0, LleField::y})),
#define CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED(c, f, b, m, a, x, v, x2, v2, y) \
  exceptingThePrefixed(exceptingTheRowWalk(exceptingThePixelWalk(FieldRelation{                                       \
      LleField::f, LleField::b, m, a, std::nullopt, false, 1, std::nullopt, std::nullopt, std::nullopt, LleField::x, v,  \
      LleField::x2, v2, LleField::y, std::nullopt, false, std::nullopt, 0, LleField::c}))),
#define CORAL_LLE_RELATION_EXCEPT_WHERE_SET_OR_PIXEL_WALK_OR_PREFIXED(f, b, m, a, x, v, y)                           \
  exceptingThePrefixed(exceptingThePixelWalk(FieldRelation{LleField::f, LleField::b, m, a, std::nullopt, false, 1,     \
                                                           std::nullopt, std::nullopt, std::nullopt, LleField::x, v,   \
                                                           std::nullopt, 0, LleField::y})),
#include "models/lle/lle_relations.def"
#undef CORAL_LLE_RELATION_EXCEPT_WHERE_SET_OR_PIXEL_WALK_OR_PREFIXED
#undef CORAL_LLE_RELATION_COUNT_EXCEPT_WHERE_SET_OR_ROW_WALK_OR_PREFIXED
#undef CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED
#undef CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED
#undef CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK
#undef CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED
#undef CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_WALK_OR_PREFIXED
#undef CORAL_LLE_COUNT_OF_WRAP
#undef CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_WALK
#undef CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_WALK
#undef CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET_OR_PIXEL_WALK
#undef CORAL_LLE_RELATION_WHERE_UNSET
#undef CORAL_LLE_RELATION_EXCEPT2
#undef CORAL_LLE_RELATION_EXCEPT2_WHERE_SET
#undef CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET
#undef CORAL_LLE_FORMAT_UNLESS
#undef CORAL_LLE_RELATION_COUNT_EXCEPT_WHERE_SET
#undef CORAL_LLE_RELATION_EXCEPT_WHERE_SET
#undef CORAL_LLE_RELATION_COUNT_EXCEPT
#undef CORAL_LLE_RELATION_EXCEPT
#undef CORAL_LLE_RELATION_COUNT
#undef CORAL_LLE_FIXED_IF
#undef CORAL_LLE_FORMAT
#undef CORAL_LLE_RELATION_OR
#undef CORAL_LLE_RELATION_SCALED
#undef CORAL_LLE_ONLY_IF
#undef CORAL_LLE_RELATION_IF
#undef CORAL_LLE_RELATION
};

const FieldFormat kFormats[] = {
#define CORAL_LLE_RELATION(f, b, m, a)
#define CORAL_LLE_RELATION_IF(c, f, b, m, a)
#define CORAL_LLE_ONLY_IF(c, f)
#define CORAL_LLE_RELATION_SCALED(f, s, b, m, a)
#define CORAL_LLE_RELATION_OR(f, b, m, a, a2)
#define CORAL_LLE_FIXED_IF(c, f, e, v)
#define CORAL_LLE_RELATION_COUNT(f, b, o, m, a)
#define CORAL_LLE_RELATION_COUNT_EXCEPT(f, b, o, m, a, x, v)
#define CORAL_LLE_RELATION_EXCEPT(f, b, m, a, x, v)
#define CORAL_LLE_RELATION_EXCEPT2(f, b, m, a, x, v, x2, v2)
#define CORAL_LLE_RELATION_EXCEPT_WHERE_SET(f, b, m, a, x, v, y)
#define CORAL_LLE_RELATION_EXCEPT2_WHERE_SET(f, b, m, a, x, v, x2, v2, y)
#define CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET(c, f, b, m, a, x, v, x2, v2, y)
#define CORAL_LLE_RELATION_COUNT_EXCEPT_WHERE_SET(f, b, o, m, a, x, v, y)
#define CORAL_LLE_RELATION_WHERE_UNSET(f, b, m, a, y)
#define CORAL_LLE_COUNT_OF_WRAP(f, b, e, l, le)
#define CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_WALK(f, b, m, a, x, v, x2, v2, y)
#define CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_WALK(f, b, m, a, y)
#define CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET_OR_PIXEL_WALK(c, f, b, m, a, x, v, x2, v2, y)
#define CORAL_LLE_FORMAT(c, f) FieldFormat{LleField::c, LleField::f, false},
#define CORAL_LLE_FORMAT_UNLESS(c, f) FieldFormat{LleField::c, LleField::f, true},
#define CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK(f, b, m, a, x, v, x2, v2, y)
#define CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED(f, b, m, a, x, v, x2, v2, y)
#define CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_WALK_OR_PREFIXED(f, b, m, a, y)
#define CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED(f, b, m, a, y)
#define CORAL_LLE_RELATION_EXCEPT_WHERE_SET_OR_PIXEL_WALK_OR_PREFIXED(f, b, m, a, x, v, y)
#define CORAL_LLE_RELATION_COUNT_EXCEPT_WHERE_SET_OR_ROW_WALK_OR_PREFIXED(f, b, o, m, a, x, v, y)
#define CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED(c, f, b, m, a, x, v, x2, v2, y)
#include "models/lle/lle_relations.def"
#undef CORAL_LLE_RELATION_COUNT_EXCEPT_WHERE_SET_OR_ROW_WALK_OR_PREFIXED
#undef CORAL_LLE_RELATION_EXCEPT_WHERE_SET_OR_PIXEL_WALK_OR_PREFIXED
#undef CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED
#undef CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED
#undef CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK
#undef CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_OR_ROW_WALK_OR_PREFIXED
#undef CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_WALK_OR_PREFIXED
#undef CORAL_LLE_COUNT_OF_WRAP
#undef CORAL_LLE_RELATION_EXCEPT2_WHERE_SET_OR_PIXEL_WALK
#undef CORAL_LLE_RELATION_WHERE_UNSET_OR_PIXEL_WALK
#undef CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET_OR_PIXEL_WALK
#undef CORAL_LLE_RELATION_WHERE_UNSET
#undef CORAL_LLE_FORMAT_UNLESS
#undef CORAL_LLE_RELATION_EXCEPT2
#undef CORAL_LLE_RELATION_EXCEPT2_WHERE_SET
#undef CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET
#undef CORAL_LLE_RELATION_COUNT_EXCEPT_WHERE_SET
#undef CORAL_LLE_RELATION_EXCEPT_WHERE_SET
#undef CORAL_LLE_RELATION_COUNT_EXCEPT
#undef CORAL_LLE_RELATION_EXCEPT
#undef CORAL_LLE_RELATION_COUNT
#undef CORAL_LLE_FIXED_IF
#undef CORAL_LLE_FORMAT
#undef CORAL_LLE_RELATION_OR
#undef CORAL_LLE_RELATION_SCALED
#undef CORAL_LLE_ONLY_IF
#undef CORAL_LLE_RELATION_IF
#undef CORAL_LLE_RELATION
};

// "Recv11Wrap[1] (word 1 bits 32:16)"; element k of a repeated field says which one.
std::string describe(LleField field, unsigned element) {
  const LleFieldDef& f = fieldDef(field);
  const uint32_t lsb = f.lsb + element * f.stride;
  std::string text(f.name);
  if (f.count > 1) text += "[" + std::to_string(element) + "]";
  return text + " (word " + std::to_string(lsb / 128) + " bits " + std::to_string(lsb % 128 + f.width - 1) + ":" +
         std::to_string(lsb % 128) + ")";
}

// Whether a CORAL_LLE_FIXED_IF row pins element `element` of `field` in this packet.
bool fixedHere(LleField field, unsigned element, std::span<const isa::Word128> words) {
  for (const FieldRelation& r : kRelations) {
    if (r.fixedElement && r.field == field && *r.fixedElement == element && readField(words, *r.condition) != 0) return true;
  }
  return false;
}

// The low bits of a count's byte carry, named where they round the wrap up ("" where they are 0).
std::string carryLowNote(const FieldRelation& r, std::span<const isa::Word128> words) {
  if (!r.carryLow) return "";
  const uint64_t low = readField(words, *r.carryLow, r.carryLowElement);
  if (low == 0) return "";
  return " (rounded up to a whole 4-byte group: " + std::string(fieldDef(*r.carryLow).name) + "[" +
         std::to_string(r.carryLowElement) + "] = " + std::to_string(low) + ")";
}

}  // namespace

uint64_t nestIterations(std::span<const isa::Word128> words, LleField level0, LleField outerLevels) {
  uint64_t count = readField(words, level0) + 1;
  for (unsigned e = 0; e < fieldDef(outerLevels).count; ++e) count *= readField(words, outerLevels, e) + 1;
  return count;
}

std::span<const FieldRelation> fieldRelations() { return kRelations; }

std::span<const FieldFormat> fieldFormats() { return kFormats; }

bool isPixelWalk(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeInputBytes) == 4 && readField(words, LleField::ComputeInputRingOn) == 0 &&
         readField(words, LleField::ComputeK4W1) == 0 && readField(words, LleField::ComputeNest37Limit1) == 0 &&
         readField(words, LleField::ComputeK4W0) != 0 && readField(words, LleField::ComputePositions) != 0;
}

bool isRowWalk(std::span<const isa::Word128> words) {
  if (readField(words, LleField::ComputeInputBytes) != 4 || readField(words, LleField::ComputeInputRingOn) != 0 ||
      readField(words, LleField::ComputeK4W1) != 0 || readField(words, LleField::ComputeNest37Limit1) != 0) {
    return false;
  }
  for (unsigned e = 0; e < fieldDef(LleField::ComputeNest37LimitHigh).count; ++e) {
    if (readField(words, LleField::ComputeNest37LimitHigh, e) != 0) return true;
  }
  return false;
}

bool isPrefixedCompute(std::span<const isa::Word128> words) {
  // 4-byte K groups (the convolution / Dense executors) or 2-byte elements with 16-bit weights (the two-byte lane-group
  // form, lle_rung_two_byte_lane_groups.cc, which checks its own walk: docs/decoding-log.md "soft14" §C).
  const uint64_t elementBytes = readField(words, LleField::ComputeInputBytes);
  return (elementBytes == 4 || (elementBytes == 2 && readField(words, LleField::ComputeWideWeights) != 0)) &&
         readField(words, LleField::ComputeInputRingOn) == 0 && readField(words, LleField::ComputeParamPrefix) != 0;
}

bool isIdleInputNest(std::span<const isa::Word128> words) {
  if (readField(words, LleField::ComputeInputBytes) != 0 || readField(words, LleField::ComputeInputAt4) != 0) return false;
  for (const LleField field : {LleField::ComputeK4W1, LleField::ComputeNest37Limit1, LleField::ComputePositions, LleField::ComputeNest37Limit3,
                               LleField::ComputeNest37LimitHigh, LleField::ComputeKWrap37}) {
    for (unsigned e = 0; e < fieldDef(field).count; ++e) {
      if (readField(words, field, e) != 0) return false;
    }
  }
  return true;
}

bool isUnrequantisedCopyWalk(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeUnrequantisedCopy) != 0 && readField(words, LleField::ComputeInputBytes) == 4 &&
         readField(words, LleField::ComputeInputRingOn) == 0;
}

bool isGroupedWalk(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeInputBytes) == 4 && readField(words, LleField::ComputeInputRingOn) == 0 &&
         readField(words, LleField::ComputeK4W1) != 0 && readField(words, LleField::ComputeK4W0) == 0;
}

bool fieldPresent(LleField field, std::span<const isa::Word128> words) {
  for (const FieldFormat& f : kFormats) {
    if (f.field == field && (readField(words, f.condition) == 0) != f.whenClear) return false;
  }
  return true;
}

namespace {

// Which rows a check walks: all of the opcode's, or only its K-loop wrap rows held also in the prefixed form -- there
// with or without the weight nest's rows (Nest29's: ComputeKWrap29, ComputeKWrapW7), which a weight walk over the
// reduction's groups one after another answers instead (weight_group_walk.h).
enum class RowsChecked { kAll, kKWrapsOfThePrefixedForm, kKWrap37OfThePrefixedForm };

bool isWeightWrapRow(const FieldRelation& r) { return r.field == LleField::ComputeKWrap29 || r.field == LleField::ComputeKWrapW7; }

bool isKWrapRow(const FieldRelation& r) {
  return r.field == LleField::ComputeKWrap37 || r.field == LleField::ComputeKWrap29 || r.field == LleField::ComputeKWrapW7;
}

std::string relationsProblem(uint8_t opcode, std::span<const isa::Word128> words, RowsChecked rows) {
  for (const FieldRelation& r : kRelations) {
    const LleFieldDef& f = fieldDef(r.field);
    if (f.opcode != opcode) continue;
    if (rows != RowsChecked::kAll && !isKWrapRow(r)) continue;
    if (rows == RowsChecked::kKWrap37OfThePrefixedForm && isWeightWrapRow(r)) continue;
    if (!fieldPresent(r.field, words) || !fieldPresent(r.base, words)) continue;  // the other format
    if (r.exceptField && readField(words, *r.exceptField) == r.exceptValue) continue;  // that form checks its own walk
    if (r.exceptField2 && readField(words, *r.exceptField2) == r.exceptValue2) continue;
    if (r.exceptWhereSet && readField(words, *r.exceptWhereSet) != 0) continue;        // so does the convolution
    if (r.onlyWhereSet && readField(words, *r.onlyWhereSet) == 0) continue;            // a relation of one form only
    if (r.exceptPixelWalk && (isPixelWalk(words) || isUnrequantisedCopyWalk(words) || isGroupedWalk(words))) continue;  // lle_rung_eltwise_walk.cc checks it
    if (r.exceptRowWalk && (isRowWalk(words) || isUnrequantisedCopyWalk(words) || isGroupedWalk(words))) continue;  // Nest37 read as a byte walk
    // The max pool's (idle input nest): its executor walks Output37 as an address generator, as the average pool's does.
    if (r.exceptRowWalk && isIdleInputNest(words)) continue;
    if (r.exceptPrefixed && rows == RowsChecked::kAll && isPrefixedCompute(words)) continue;  // the convolution / Dense executors'
    // The one-output position rows in the reduction split over positions (position_split_reduction.h, docs/decoding-log.md
    // "trkfc" §B): its positions are K groups of one output, so the form's own walk check holds these two fields.
    if ((r.field == LleField::ComputePositionStep37 || r.field == LleField::ComputeOutPositions) && rows == RowsChecked::kAll &&
        isPositionSplitReduction(words)) {
      if (std::string problem = positionSplitReductionProblem(words); !problem.empty()) return problem;
      continue;
    }
    // Nor in the 16-bit streamed product (wide_streamed_square.h, docs/decoding-log.md "trk14b"): its input walk reads the
    // 0x03's four lanes once each (no K wrap back) and its executor checks that walk and its output units itself; its
    // weights are the stream taken in order, where every element is one value (the only case it executes).
    if (r.exceptPrefixed && rows == RowsChecked::kAll && WideStreamedSquare::isForm(words)) continue;
    // Nor the K-wrap rows in the byte-stepped weighing (byte_stepped_weighing.h, docs/decoding-log.md "trk14c"): its input
    // is one run of units, positions x K groups read once each, so Nest37's level 0 carries +1 unit after a position's K
    // groups (on to the next unit, as a reduction level's +1 in "conv7") and the levels that run once return; its weight
    // nest steps one byte a group and returns K - 1 bytes (slot carries -1 unit + ComputeNest29CarryLow bytes), no whole
    // number of units. Looming's passed by its tap-row level (ComputeNest37Limit1); the softmax's one-position form @ 0x07d1
    // has none. Skipped only where the form's own walk check (fromPacket: every input group at its unit of the run, the
    // weight bytes stepped and returned at every level) accepts the packet.
    if (isKWrapRow(r) && rows == RowsChecked::kAll && ByteSteppedWeighing::isForm(words) &&
        std::holds_alternative<ByteSteppedWeighing>(ByteSteppedWeighing::fromPacket(words))) {
      continue;
    }
    // The max pool (idle input nest): no input walk to wrap, and its executor walks Nest29's carries as the window's address
    // generator (weight_byte_walk.h), as the average pool's does.
    if (isKWrapRow(r) && isIdleInputNest(words)) continue;
    if (r.fixedElement) {
      if (readField(words, *r.condition) == 0) continue;
      const int64_t value = readSigned(words, r.field, *r.fixedElement);
      if (value != r.addend) {
        return describe(r.field, *r.fixedElement) + " = " + std::to_string(value) + " while " +
               std::string(fieldDef(*r.condition).name) + " = 1: that form is decoded only with the value " +
               std::to_string(r.addend);
      }
      continue;
    }
    const bool applies = !r.condition || readField(words, *r.condition) != 0;
    for (unsigned e = 0; e < f.count; ++e) {
      if (fixedHere(r.field, e, words)) continue;  // checked by its CORAL_LLE_FIXED_IF row
      if (isForwardMarkedWrap(r.field, e, words)) continue;  // a receive's +1 step: forward_marks.h checks it
      const int64_t value = readSigned(words, r.field, e);
      if (!applies) {
        if (value != 0) {
          return describe(r.field, e) + " = " + std::to_string(value) + " while " + std::string(fieldDef(*r.condition).name) +
                 " = 0: these bits have no decoded meaning in that format";
        }
        continue;
      }
      if (r.zeroUnlessOnly) continue;
      if (r.onlyWhereNonZero && value == 0) continue;
      // A count of a wrapped loop reads the wrap itself (signed) as the high bits of its byte carry,
      // rounded up to whole 4-byte groups: count = 1 - ceil(carry / 4).
      const int64_t limit = r.baseElement ? readSigned(words, r.base, *r.baseElement) +
                                                (r.carryLow && readField(words, *r.carryLow, r.carryLowElement) != 0 ? 1 : 0)
                            : r.outerLevels ? static_cast<int64_t>(nestIterations(words, r.base, *r.outerLevels) - 1)
                                            : static_cast<int64_t>(readField(words, r.base));
      const int64_t expected = r.multiplier * limit + r.addend;
      const int64_t scaled = r.scale * value;
      // A loop that runs once (limit 0) never applies its wrap: the compiler writes it as 0 as
      // often as -1 (docs/decoding-log.md, "single-iteration wraps"), and a wrap relation (-limit) of
      // such a loop holds whatever the field says -- the stride sweep's single-step computes carry
      // 1, 64, 1024, 256 there (docs/decoding-log.md "stride" §D).
      const bool wrapRelation = r.multiplier == -1 && r.addend == 0 && !r.altAddend;
      const bool unusedWrap = limit == 0 && (value == 0 || wrapRelation);
      // A wrap field holds its value modulo 2^width (two's complement of the field's width):
      // -1024 in a 10-bit field reads 0. With a scale the comparison is exact.
      const auto same = [&](int64_t want) {
        if (r.scale != 1 || f.width >= 64) return scaled == want;
        const uint64_t mask = (uint64_t{1} << f.width) - 1;
        return ((static_cast<uint64_t>(scaled) - static_cast<uint64_t>(want)) & mask) == 0;
      };
      const bool alternative = r.altAddend && same(expected - r.addend + *r.altAddend);
      if (!same(expected) && !alternative && !unusedWrap) {
        const std::string base = r.outerLevels  ? "(iterations of " + std::string(fieldDef(r.base).name) + " and " +
                                                      std::string(fieldDef(*r.outerLevels).name) + " - 1)"
                                 : r.baseElement ? describe(r.base, *r.baseElement) + carryLowNote(r, words)
                                                 : std::string(fieldDef(r.base).name);
        std::string want = std::to_string(r.multiplier) + " x " + base +
                           (r.addend ? " + " + std::to_string(r.addend) : std::string()) + " = " + std::to_string(expected);
        if (r.altAddend) want += " or " + std::to_string(expected - r.addend + *r.altAddend);
        return describe(r.field, e) + " = " + std::to_string(value) + (r.scale != 1 ? " (x " + std::to_string(r.scale) + ")" : "") +
               " is not " + want +
               (r.baseElement ? ": a count its loop's wrap does not say" : ": a loop the rung does not model (stride other than 1)");
      }
    }
  }
  if (rows != RowsChecked::kAll) return "";
  // The forward marks against the wraps they mark, in every form that has them (forward_marks.h).
  if (std::string problem = forwardMarksProblem(opcode, words); !problem.empty()) return problem;
  // The w0 nest's shorter last iteration (w0_last_run.h, docs/decoding-log.md "smx"): its level against the levels it shortens.
  if (opcode == fieldDef(LleField::ComputeW0LastRunLevel).opcode) {
    if (std::string problem = w0LastRunProblem(words); !problem.empty()) return problem;
  }
  if (opcode == fieldDef(LleField::Max02LastBeatLevel).opcode) {
    if (std::string problem = max02LastBeatProblem(words); !problem.empty()) return problem;
  }
  // The w10 nest's walk over a split reduction's partial-sum rows: a relation between several fields
  // and levels at once, checked by its own function (partial_sum_walk.h).
  if (opcode == fieldDef(LleField::ComputePartialSumRow).opcode) {
    // The shape of word 12: its code and the flag written twice over its image positions (word12_form.h).
    if (std::string problem = word12FormProblem(words); !problem.empty()) return problem;
    // The w10 nest's level-0 mark against its limit (w10_level0_once.h).
    if (std::string problem = w10Level0OnceProblem(words); !problem.empty()) return problem;
    // A position element against the output nest's level 0 and the walk whose lanes are the positions (position_lane_form.h).
    if (std::string problem = positionLaneFormProblem(words); !problem.empty()) return problem;
    // The partial-pass codes of w7 against the output nest and lanes they are computed from (output_partial_pass.h).
    if (std::string problem = outputPartialPassProblem(words); !problem.empty()) return problem;
    if (std::string problem = partialSumWalkProblem(words); !problem.empty()) return problem;
    // The w10 nest's forward marks against its carries (w10_forward_marks.h), once the walk itself is one the rung reads.
    if (std::string problem = w10ForwardMarksProblem(words); !problem.empty()) return problem;
    // w15 bit 12 against the walk it switches (top_level_passes.h).
    if (std::string problem = topLevelPassesProblem(words); !problem.empty()) return problem;
    // w15 bit 10 against the walk it switches (level_four_passes.h).
    return levelFourPassesProblem(words);
  }
  if (opcode == fieldDef(LleField::Stage14WrapC).opcode) {
    // The 0x14 write's return carry against the whole nest it returns from (write_nest_return.h).
    return writeNestReturnProblem(words);
  }
  // The kept read's records mark against the records it marks (kept_read_records.h).
  if (opcode == fieldDef(LleField::Stage13KeptRecordsOn).opcode) {
    // The records mark first: it says which form w4[58:43] is in. Then the second nest's level 1 against the rows of the
    // first (kept_read_second_nest.h) and the take count of the form without records (kept_take_units.h).
    if (std::string problem = keptReadRecordsProblem(words); !problem.empty()) return problem;
    // The pool form's record slots against each other (pool_records.h).
    if (std::string problem = poolRecordsProblem(words); !problem.empty()) return problem;
    if (std::string problem = keptReadSecondNestProblem(words); !problem.empty()) return problem;
    // The read's partial-run mark against its nest (read_partial_run.h).
    if (std::string problem = readPartialRunProblem(words); !problem.empty()) return problem;
    // The second nest's shorter last beat and the sent-into-sum mark's form (read_beat_walk.h).
    if (std::string problem = readBeatWalkLastRunProblem(words); !problem.empty()) return problem;
    if (std::string problem = sentIntoSumProblem(words); !problem.empty()) return problem;
    return keptTakeUnitsProblem(words);
  }
  return "";
}

}  // namespace

std::string checkFieldRelations(uint8_t opcode, std::span<const isa::Word128> words) {
  return relationsProblem(opcode, words, RowsChecked::kAll);
}

std::string singlePositionKWrapProblem(std::span<const isa::Word128> words) {
  const uint8_t opcode = fieldDef(LleField::ComputeKWrap37).opcode;
  const std::string rows = relationsProblem(opcode, words, RowsChecked::kKWrapsOfThePrefixedForm);
  if (rows.empty()) return "";
  // The weight nest's wraps may instead walk the reduction's groups one after another (docs/decoding-log.md "conv7",
  // "dense43"): model_dense's bias-prefix Dense layers carry +1 at a level that runs once (ComputeKWrap29[0]), its K
  // split ones +1 at the level of the pass's groups and -(groups - 1) at the level of its passes. Nest37's row stays.
  const std::string nest37 = relationsProblem(opcode, words, RowsChecked::kKWrap37OfThePrefixedForm);
  const std::string walk = weightGroupWalkProblem(words);
  if (walk.empty() || !nest37.empty()) return nest37;
  return rows + "; nor a walk of the reduction's weight groups one after another (" + walk + ")";
}

}  // namespace coralsim::lle
