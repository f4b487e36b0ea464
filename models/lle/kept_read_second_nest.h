// The second nest's level 1 of a 0x13 read (lle_fields.def Stage13RepeatLevel1On, w3 bit 102; docs/decoding-log.md "st13"):
// where it is set the second nest counts (Stage13Repeats + 1) x (Stage13RepeatLimit1 + 1) positions in one linear walk
// (lle_relations.def checks its carry +1 and its returns). In all 24 corpus reads that set it the read is kept for its
// tiles' compute (route 0, 0) and the positions are the rows of the first nest -- the counts of its levels 2-4, a row
// being the bytes of its levels 0-1. The rung keeps the bytes by the first nest; this checks that the second nest counts
// its rows, so a read whose second nest says something else is refused by name rather than kept as if it agreed.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where Stage13RepeatLevel1On is absent or clear, or where the read is kept (route 0, 0) and its second nest's two levels
// count the first nest's levels 2-4; else the refusal, naming the fields.
[[nodiscard]] std::string keptReadSecondNestProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
