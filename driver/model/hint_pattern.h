// A one-line summary of an executable's DMA plan, the same notation as tools/darwinn_dump.py:
// tokens I<chunk> (instructions), P/A/O/S (parameter / input activation / output / scratch DMA),
// X<n> (interrupt n), F (fence), ? (unknown), with runs compressed as "Ax3"; and a class:
//   "simple"  at most one instruction chunk and every buffer moved in one piece,
//   "split"   several chunks and/or a buffer moved in several pieces (interleaved streaming),
//   "none"    the executable has no DMA hints.
#pragma once

#include <optional>
#include <string>

#include "driver/model/executable.h"

namespace coralsim::driver {

struct HintPattern {
  std::string pattern;  // "I0 P A O X0"; "-" without hints
  std::string kind;     // "simple", "split" or "none"
};

HintPattern describeHintPattern(const std::optional<DmaHints>& hints);

}  // namespace coralsim::driver
