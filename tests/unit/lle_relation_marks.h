// Bits that a relation between decoded fields fixes (lle_relations.def), set by the unit tests' packet factories
// so that a test naming only the fields it is about builds a packet the rung's relations accept, as every corpus
// packet is. One place for both factories (lle_envelope_packets.h, lle_rung_test.cc's PacketFactory): a new relation
// that fixes a mark is added here, not to each test.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "models/isa/word128.h"
#include "models/lle/level_four_passes.h"
#include "models/lle/lle_fields.h"
#include "models/lle/output_partial_pass.h"
#include "models/lle/receive_kind.h"

namespace coralsim::lle {

// After the caller's fields are set. A mark the caller names keeps the caller's value (to test its refusal).
inline void setRelationFixedMarks(uint8_t op, std::span<isa::Word128> words, const std::vector<std::pair<LleField, uint64_t>>& named) {
  const auto isNamed = [&](LleField field) { return std::ranges::any_of(named, [&](const auto& fv) { return fv.first == field; }); };
  // Every corpus stream receive carries its form's kind code (Recv11ExecKind / Recv12Kind, receive_kind.h,
  // docs/decoding-log.md "mnv1d" §A): 44 in the 0x11's wait-rows form (w2 bit 106 clear), else 4 (a stream); the
  // block-prefix code 48 is asked for by the tests of that form.
  if (const auto kind = receiveKindField(op, words); kind && !isNamed(*kind)) {
    const bool waitRows = op == 0x11 && readField(words, LleField::Recv11ExecWideValue) == 0;
    const LleFieldDef& f = fieldDef(*kind);
    words[f.lsb / 128].setBits(f.lsb % 128, f.width, waitRows ? kReceiveKindWaitRows : kReceiveKindStream);
  }
  // Every corpus compute marks w9 bit 122 exactly where its w10 nest's level 0 runs once (ComputeW10Level0Once,
  // docs/decoding-log.md "w9b122").
  if (op == 0x01 && !isNamed(LleField::ComputeW10Level0Once)) {
    const LleFieldDef& mark = fieldDef(LleField::ComputeW10Level0Once);
    words[mark.lsb / 128].setBits(mark.lsb % 128, 1, readField(words, LleField::ComputeK4W10) == 0 ? 1 : 0);
  }
  // And writes w7's partial-pass codes from its output nest, lanes and step (ComputeOutPartialUnits,
  // ComputeOutLevelsWalked, ComputeOutPartialRestPairs; docs/decoding-log.md "w7codes"): all 0 but where a position
  // leaves an even, non-zero number of units beyond whole passes and a level above 0 counts.
  if (op == 0x01 && !isNamed(LleField::ComputeOutPartialUnits) && !isNamed(LleField::ComputeOutLevelsWalked) &&
      !isNamed(LleField::ComputeOutPartialRestPairs)) {
    const OutputPartialPassCodes codes = expectedOutputPartialPassCodes(words);
    for (const auto& [field, value] : {std::pair{LleField::ComputeOutPartialUnits, codes.partialUnits},
                                       std::pair{LleField::ComputeOutLevelsWalked, codes.levelsWalked},
                                       std::pair{LleField::ComputeOutPartialRestPairs, codes.partialRestPairs}}) {
      const LleFieldDef& f = fieldDef(field);
      words[f.lsb / 128].setBits(f.lsb % 128, f.width, value);
    }
  }
  // And w11 bits 100-105 exactly where the w10 nest's slots 1-6 carry forward (ComputeW10ForwardMark, 4 x wrap + low > 0,
  // docs/decoding-log.md "w9b53" §B; slot 0's mark, ComputePartialSumWalkOn, is left to the tests of the walk).
  if (op == 0x01 && !isNamed(LleField::ComputeW10ForwardMark)) {
    const LleFieldDef& marks = fieldDef(LleField::ComputeW10ForwardMark);
    for (unsigned slot = 1; slot <= marks.count; ++slot) {
      const int64_t carry = 4 * readSigned(words, LleField::ComputeWrapW10, slot) +
                            static_cast<int64_t>(readField(words, LleField::ComputeW10CarryLow, slot));
      const uint32_t lsb = marks.lsb + (slot - 1) * marks.stride;
      words[lsb / 128].setBits(lsb % 128, 1, carry > 0 ? 1 : 0);
    }
  }
  // And w15 bit 12 exactly where a slot carries forward and the w10 nest's level 6 counts (ComputeTopLevelPasses,
  // docs/decoding-log.md "w15b12").
  if (op == 0x01 && !isNamed(LleField::ComputeTopLevelPasses)) {
    bool forward = false;
    for (unsigned slot = 0; slot < 7; ++slot) {
      forward = forward || 4 * readSigned(words, LleField::ComputeWrapW10, slot) +
                                   static_cast<int64_t>(readField(words, LleField::ComputeW10CarryLow, slot)) > 0;
    }
    const LleFieldDef& bit = fieldDef(LleField::ComputeTopLevelPasses);
    words[bit.lsb / 128].setBits(bit.lsb % 128, 1, forward && readField(words, LleField::ComputeLimitW10High, 2) > 0 ? 1 : 0);
  }
  // And w15 bit 10 exactly where a slot carries forward and the w10 nest's level 4 counts passes, row stride 0
  // (ComputeLevelFourPasses, docs/decoding-log.md "mdense").
  if (op == 0x01 && !isNamed(LleField::ComputeLevelFourPasses)) {
    bool forward = false;
    for (unsigned slot = 0; slot < 7; ++slot) {
      forward = forward || 4 * readSigned(words, LleField::ComputeWrapW10, slot) +
                                   static_cast<int64_t>(readField(words, LleField::ComputeW10CarryLow, slot)) > 0;
    }
    const LleFieldDef& bit = fieldDef(LleField::ComputeLevelFourPasses);
    words[bit.lsb / 128].setBits(bit.lsb % 128, 1,
                                 forward && readField(words, LleField::ComputeLimitW10High, 0) > 0 && w10RowStrides(words)[4] == 0 ? 1 : 0);
  }
}

}  // namespace coralsim::lle
