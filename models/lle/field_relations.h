// The relations between decoded fields of one packet (lle_relations.def): loop wraps against the
// limits they wrap. They let a field take any value (a Dense or a convolution of another size)
// while a value that means something the rung does not model (another stride) is refused.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "models/lle/lle_fields.h"

namespace coralsim::lle {

struct FieldRelation {
  LleField field;
  LleField base;
  int64_t multiplier;
  int64_t addend;
  std::optional<LleField> condition;  // applies when this 1-bit field is 1; else `field` must be 0
  bool zeroUnlessOnly = false;        // CORAL_LLE_ONLY_IF: no relation, only the zero rule
  int64_t scale = 1;                  // CORAL_LLE_RELATION_SCALED: scale x field == multiplier x base + addend
  std::optional<int64_t> altAddend;   // CORAL_LLE_RELATION_OR: the addend may also be this one
  // CORAL_LLE_FIXED_IF: where `condition` is 1, element `fixedElement` of `field` must read `addend`,
  // and the field's other relations skip that element.
  std::optional<unsigned> fixedElement;
  // CORAL_LLE_RELATION_COUNT: `base` is level 0 of a loop nest whose levels above it are the elements
  // of this field; the relation reads the nest's iteration count less one in place of `base`.
  std::optional<LleField> outerLevels = std::nullopt;
  // CORAL_LLE_RELATION_COUNT_EXCEPT: the relation does not apply where `exceptField` reads
  // `exceptValue` (a form whose executor checks the field against its own walk).
  std::optional<LleField> exceptField = std::nullopt;
  uint64_t exceptValue = 0;
  // CORAL_LLE_RELATION_EXCEPT2: a second form, likewise exempt.
  std::optional<LleField> exceptField2 = std::nullopt;
  uint64_t exceptValue2 = 0;
  // CORAL_LLE_..._EXCEPT_WHERE_SET: nor where this field is not 0 (the convolution's tap-row level).
  std::optional<LleField> exceptWhereSet = std::nullopt;
  // CORAL_LLE_COUNT_OF_WRAP: `base` is read at this element (not element 0), and the relation holds
  // only where `field` is not 0 (0: the count is not written in this packet).
  std::optional<unsigned> baseElement = std::nullopt;
  bool onlyWhereNonZero = false;
  // ... and the wrap is the high bits of a byte carry whose low two bits are element `carryLowElement`
  // of this field: the count is of whole 4-byte groups, 1 - ceil(carry / 4).
  std::optional<LleField> carryLow = std::nullopt;
  unsigned carryLowElement = 0;
  // CORAL_LLE_RELATION_WHERE_SET_EXCEPT2_WHERE_SET: the relation holds only where this 1-bit field is
  // 1; elsewhere the field keeps its meaning and takes any value (no zero rule, unlike `condition`).
  std::optional<LleField> onlyWhereSet = std::nullopt;
  // CORAL_LLE_..._OR_PIXEL_WALK: nor in the pixel walk (isPixelWalk below), whose executor checks it.
  bool exceptPixelWalk = false;
  // CORAL_LLE_..._OR_ROW_WALK: nor in the row walk (isRowWalk below) or the unrequantised copy
  // (isUnrequantisedCopyWalk), whose executor reads it as a carry of the byte walk.
  bool exceptRowWalk = false;
  // CORAL_LLE_..._OR_PREFIXED: nor in a compute with a parameter prefix (isPrefixedCompute below), whose
  // executors follow or check the nest themselves.
  bool exceptPrefixed = false;
};

// The colour templates' pixel walk (docs/decoding-log.md "colour43"): 4-byte input elements, Nest37
// level 0 run once (one group an iteration: ComputeK4W1 = 0) while the w0 nest's level 0 counts
// (ComputeK4W0 > 0) and Nest37 walks those iterations at level 2 (ComputePositions > 0) with level 1
// run once. The w0 nest's level 0 is then no K reduction but the pixel count, so the relations that
// read it as one (the weight wraps, the raw element-wise form's position repeats) are the executor's.
[[nodiscard]] bool isPixelWalk(std::span<const isa::Word128> words);

// An input nest that reads nothing (docs/decoding-log.md "maxpool"): ComputeInputBytes 0 and ComputeInputAt4 0, every
// Nest37 limit and wrap 0 -- the max pool's 0x02 (81 / 81 corpus ones, read as 0x01's), whose taps are the kept stream's
// bytes alone. Its K-loop wrap rows do not apply: ComputeKWrap37 (the input advancing a unit a K group) has no input to
// move, and ComputeKWrap29 / ComputeKWrapW7 are the window walk's carries, which its executor follows as an address
// generator (weight_byte_walk.h, as the average pool's); nor the element-wise form's position rows (the _OR_ROW_WALK
// rows: Output37 walked as an address generator, output_nest.h). Its executor refuses any other input nest.
[[nodiscard]] bool isIdleInputNest(std::span<const isa::Word128> words);

// A 4-byte compute outside a ring with a parameter prefix (ComputeParamPrefix not 0, docs/decoding-log.md "split"
// §D): its weights come from a stream that opens with the prefix arrays ("convmac" §A), so only the convolution
// executor (conv_compute.h: the three nests as address generators, the outputs dividing the iterations) and the
// single-position Dense one (which checks its one position itself) run it; the element-wise executors refuse a
// prefix. The position relations that read Nest37 level 2 as the element-wise form's positions are theirs.
[[nodiscard]] bool isPrefixedCompute(std::span<const isa::Word128> words);

// The unrequantised copy's walk (ComputeUnrequantisedCopy, docs/decoding-log.md "copy117"): 4-byte
// groups outside a ring; Nest37 level 0 runs once, or counts K groups each copied to its own lane group
// (the grouped copy, docs/decoding-log.md "colour"). Its executor (the walked element-wise form) checks the
// _OR_PIXEL_WALK relations' fields against its walk and its output nest, as it does for the pixel walk,
// and reads Nest37 as a byte walk (input_byte_walk.h), so the _OR_ROW_WALK rows do not hold it either:
// the copies' carries of levels that run once are a return and a next block, not the K loop's wrap.
[[nodiscard]] bool isUnrequantisedCopyWalk(std::span<const isa::Word128> words);

// The grouped walk (docs/decoding-log.md "colour", "kstride"): 4-byte groups outside a ring whose Nest37 level 0
// counts K groups (ComputeK4W1 > 0) while the w0 nest's K level runs once (ComputeK4W0 = 0): the w0 nest counts
// those groups as iterations of one group each (ComputeLimitW0[0] in every corpus one), so nothing is reduced
// over them -- each group is its own lane group of a wide position. The colour templates' grouped copies (bit
// 117) and the element-wise templates' unrequantised passes (mode 0x30c060: model_dense's 0x012c, MobileNet v2
// wo_fc, the PoseNet decoders; 569 / 569 corpus computes with K4W1 > 0 and K4W0 = 0) have it. Its executor (the
// walked element-wise form) reads Nest37 as the byte walk: carries of levels that count are applied, those of
// levels that run once are not, whatever they say (model_dense's +1 at slots 3 / 5), so the K-wrap rows of
// lle_relations.def (_OR_ROW_WALK, _OR_PIXEL_WALK) are its, not the table's.
[[nodiscard]] bool isGroupedWalk(std::span<const isa::Word128> words);

// Conv / depthwise 1024^2's input copies (docs/decoding-log.md "conv1024"): 4-byte input elements outside a
// ring, one group an iteration (ComputeK4W1 = 0), no tap-row loop (ComputeNest37Limit1 = 0) and a Nest37 level
// above 3 counting (ComputeNest37LimitHigh):
// the walk reads a window of the image's rows, Nest37's wraps of slots 2-5 are the carries between them
// (input_byte_walk.h), not the K loop's -(iterations - 1). The walked element-wise executor takes that walk;
// the Dense, element-wise and identity-copy forms refuse a level above 3 (lle_rung.cc).
[[nodiscard]] bool isRowWalk(std::span<const isa::Word128> words);

[[nodiscard]] std::span<const FieldRelation> fieldRelations();

// The iteration count of a loop nest: (level0 + 1) x (outerLevels[0] + 1) x ... (limits are count - 1).
[[nodiscard]] uint64_t nestIterations(std::span<const isa::Word128> words, LleField level0, LleField outerLevels);

// CORAL_LLE_FORMAT rows: `field` exists only where the 1-bit `condition` field is 1
// (CORAL_LLE_FORMAT_UNLESS: where it is 0).
struct FieldFormat {
  LleField condition;
  LleField field;
  bool whenClear = false;
};

[[nodiscard]] std::span<const FieldFormat> fieldFormats();

// Whether `field` carries its decoded meaning in this packet (false in the other format of a
// CORAL_LLE_FORMAT row: there its bits are pinned by the envelope).
[[nodiscard]] bool fieldPresent(LleField field, std::span<const isa::Word128> words);

// "" when every relation of `opcode` holds in `words`; otherwise a sentence naming the field, its
// word and bits, its value and the expected one.
[[nodiscard]] std::string checkFieldRelations(uint8_t opcode, std::span<const isa::Word128> words);

// The compute's K-loop wrap rows (ComputeKWrap37, ComputeKWrap29, ComputeKWrapW7) held as in a compute without a
// parameter prefix: the table leaves them to the prefixed form's executors (docs/decoding-log.md "stride2") -- the
// convolution walks the nests' carries as address generators, so a carry of a level that runs once is never
// applied and a position carry is a position's step, while the single-position (Dense) executor reads its K
// groups as one run and holds the rows here -- the weight nest's rows (ComputeKWrap29, ComputeKWrapW7) or, instead,
// a walk of the reduction's weight groups one after another (weight_group_walk.h; docs/decoding-log.md "dense43").
// "" or the sentence checkFieldRelations would give.
[[nodiscard]] std::string singlePositionKWrapProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
