// The 0x13 read's partial-run mark (lle_fields.def Stage13PartialRunLevel, docs/decoding-log.md "w2k13"): a triple in the
// read's word 2 laid out as the mesh sides' shorter last repetition ("short18") -- a run limit, a level L, a rest. In every
// corpus read that carries it, L is the nest's outermost counting level and run + rest is the limit of its unit level (the
// innermost counting level below L stepping one unit: level 0, or level 1 where level 0 interleaves positions): it marks
// the valid part of the runs of L's last iteration (the 8 units of a 24-unit pixel's second 16-unit lane group, a last
// 256-byte row's valid part). It moves no byte: the copying 0x14 of such a read writes its whole walk (13 / 13), so the rung
// keeps the whole walk and only checks the triple against the nest; a triple that says anything else is refused by name.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where Stage13PartialRunLevel is 0 or the triple marks a partial run of the read's unit level in the last iteration
// of its outermost counting level; else the refusal, naming the field.
[[nodiscard]] std::string readPartialRunProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
