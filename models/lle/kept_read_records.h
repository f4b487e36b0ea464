// The kept read's records (lle_fields.def Stage13KeptRecordsOn, w4 bit 79; docs/decoding-log.md "kept13"): in 73 corpus
// kept reads with w4 bit 59, words 4-5 carry 84-bit records from w4 bit 44 (w4[127:80] and word 5 not zero), and in no
// other corpus 0x13 (4,594 / 4,594 with both zero). What the records say is not decoded -- their bits stay pinned by the
// envelope to the decode set's values -- so the rung only holds the mark to them: records without the mark (where the
// envelope would take a decode-set row of word 5 as any 0x13's) or the mark without records are refused, naming both.
// In the two-record form the three numbers that vary with the read (Stage13RecordsFirstNumber / SecondNumber / SecondSpan,
// "loom13") must follow its level 1, else refused naming the field.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where Stage13KeptRecordsOn is set exactly where w4[127:80] or word 5 is not zero (read as 0 where the field is absent)
// and, in the two-record form, the records' numbers follow the read's level 1.
[[nodiscard]] std::string keptReadRecordsProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
