// What the ISA fuzz targets (fuzz_segmenter, fuzz_assembler) do with one input, shared with the
// unit test that replays the committed inputs. The only acceptable exceptions are the ISA layer's
// own error types (SegmentError, AsmError), caught here; anything else escapes and fails. A
// broken round-trip property is returned as a message (the fuzz targets abort on it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "models/isa/assembler.h"
#include "models/isa/disassembler.h"
#include "models/isa/segmenter.h"

namespace coralsim::isa::fuzz {

// Bytes as an instruction stream (a trailing partial word is dropped): lenient and strict
// segmentation, the tile-sequence check, and disassemble -> assemble, which must give the words
// back exactly.
inline std::optional<std::string> exerciseBitstream(std::span<const uint8_t> data) {
  const std::vector<Word128> words = wordsFromBytes(data.first(data.size() - data.size() % Word128::kBytes));
  const LenientSegmentation lenient = segmentLenient(words);
  size_t covered = 0;
  for (const Packet& p : lenient.program.packets) covered += p.length;
  if (covered != words.size()) return "lenient segmentation does not cover every word";
  try {
    const Program program = segmentProgram(words);
    TileSequenceChecker sequence;
    sequence.check(words, program);
  } catch (const SegmentError&) {
  }
  const std::string listing = disassemble(words);
  const AssembledProgram again = assemble(listing, "listing");  // an AsmError here is a bug: let it escape
  if (again.words != words) return "disassemble -> assemble changed the words";
  return std::nullopt;
}

// Text through the assembler; what assembles must disassemble and reassemble to the same words.
inline std::optional<std::string> exerciseAssembler(std::string_view text) {
  AssembledProgram program;
  try {
    program = assemble(text, "fuzz.s");
  } catch (const AsmError&) {
    return std::nullopt;
  }
  try {
    (void)segmentProgram(program.words);
  } catch (const SegmentError&) {
  }
  const AssembledProgram again = assemble(disassemble(program.words), "relisting");
  if (again.words != program.words) return "assemble -> disassemble -> assemble changed the words";
  return std::nullopt;
}

}  // namespace coralsim::isa::fuzz
