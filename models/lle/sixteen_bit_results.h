// The compute's 16-bit results mark (ComputeSixteenBitResults, w15 bit 28, docs/decoding-log.md "exp19" §A): set in
// all 238 corpus computes that apply an NLU table (ComputeNluApply, w15 bit 26), whose four lanes' 16-bit values
// fill two 4-byte units a position (ComputeLaneGroups = 1; the trackers send each exp compute's 64 positions on as
// 512 bytes), and in 55 computes without a table (the 1/sqrt tiles' two computes, MobileNet's sum with clamps
// [0, 65535], four deeplab computes), clear in the other 11,116. The rung writes 16-bit results only through a
// table, so it executes the mark exactly beside ComputeNluApply; a table without the mark (never seen) and the
// mark without a table (16-bit results of a plain requantiser, not executed) are refused naming both fields: the
// mark without a table by LleRung::compute, a table without the mark by the two forms that apply a table (the
// others refuse ComputeNluApply by name).
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

// Why the compute's 16-bit results mark and its table bit disagree for the executed forms, or "" when they agree.
[[nodiscard]] inline std::string sixteenBitResultsProblem(std::span<const isa::Word128> words) {
  const uint64_t sixteen = readField(words, LleField::ComputeSixteenBitResults);
  const uint64_t table = readField(words, LleField::ComputeNluApply);
  if (sixteen == table) return "";
  const std::string fields = "ComputeSixteenBitResults (word 15 bit 28) = " + std::to_string(sixteen) + " with ComputeNluApply (word 15 bit 26) = " +
                             std::to_string(table);
  return fields + (table != 0 ? ": a table's value written other than as a 16-bit result is never seen and not decoded"
                              : ": 16-bit results without a table (the 1/sqrt tiles' and sum computes) are not executed");
}

}  // namespace coralsim::lle
