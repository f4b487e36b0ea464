// A compute-feeding 0x14's forward marks (lle_fields.def Stage14StreamPrefixForward, w1[85:83]; docs/decoding-log.md
// "dense11"): one mark a wrap of the staged prefix's loop, set exactly where that wrap (Stage14StreamPrefixWrap[i],
// the address change when level i + 1 counts) is +1 -- the level moves one unit on instead of returning by -run.
// Every marked corpus packet (116 compute-feeding writes, 223 receives) carries the +1 wrap at its marked level and no
// unmarked one carries a +1 wrap. The write moves no byte for its copy, so the rung reads neither; a mark and a wrap
// that disagree -- where it would matter which of the two the hardware follows -- are refused naming both.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where each Stage14StreamPrefixForward[i] is set exactly where Stage14StreamPrefixWrap[i] is +1 (or the packet
// is not the compute-feeding form); else the reason, naming both fields.
[[nodiscard]] std::string streamPrefixForwardProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
