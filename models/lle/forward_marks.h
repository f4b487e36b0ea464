// Forward marks beside a loop nest's wraps (docs/decoding-log.md "dense11", "fwd12"): in every packet form whose
// nest has a level-0 step at w1 bit 82, w1[85:83] hold one mark a wrap, set exactly where that wrap is +1 -- level
// i + 1 moves one unit on instead of returning by -run. Every marked corpus packet (116 compute-feeding writes, 223
// parameter / execution-only receives, 12 weight-stream receives) carries the +1 wrap at its marked level, and no
// unmarked one carries a +1 wrap. The forms, with the loop each mark belongs to, are one table (forward_marks.cc).
//
// What a forward step delivers where its level counts is not decoded: no marked receive in the corpus has a
// counting level there, so a receive whose marked level counts is refused by name. The compute-feeding write's marks
// keep dense11's rule (its wraps keep their -run relation; the rung moves no byte for its copy).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

// "" where each mark of the packet's form is set exactly where its wrap is +1 and no marked level of a receive
// counts (or the packet has no such form); else the reason, naming the mark and its wrap.
[[nodiscard]] std::string forwardMarksProblem(uint8_t opcode, std::span<const isa::Word128> words);

// Whether element `element` of `wrap` is a receive's marked forward step (its -run relation then does not apply:
// forwardMarksProblem checks it instead).
[[nodiscard]] bool isForwardMarkedWrap(LleField wrap, unsigned element, std::span<const isa::Word128> words);

}  // namespace coralsim::lle
