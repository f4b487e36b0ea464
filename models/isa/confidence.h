// How sure we are of an ISA fact. Every table row (opcode, field, ALU/load/store op) carries one,
// with the meanings of docs/isa.md, so printers and reviewers can tell hardware-observed facts
// from guesses.
#pragma once

#include <cstdint>
#include <string_view>

namespace coralsim::isa {

enum class Confidence : uint8_t {
  Hw,       // observed on real hardware (edgetpuxray, LibrEdgeTPU, ...)
  HwSpec,   // stated by a hardware/schema source (libedgetpu headers, executable.fbs)
  Corpus,   // holds without exception over every compiled bitstream checked
  Xchk,     // checked against an independent signal (DMA hints, TFLite tensors)
  Inf,      // strong inference from structure, not mechanically proven
  Guess,    // plausible hypothesis, weak evidence
  Unknown,  // nothing is known (unused opcodes, unnamed ops)
};

[[nodiscard]] constexpr std::string_view confidenceTag(Confidence c) {
  switch (c) {
    case Confidence::Hw: return "HW";
    case Confidence::HwSpec: return "HW-spec";
    case Confidence::Corpus: return "CORPUS";
    case Confidence::Xchk: return "XCHK";
    case Confidence::Inf: return "INF";
    case Confidence::Guess: return "GUESS";
    case Confidence::Unknown: return "UNKNOWN";
  }
  return "?";
}

}  // namespace coralsim::isa
