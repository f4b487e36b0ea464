// The disassembler: one line per packet, "ADDR: text", where ADDR is the word index in hex
// (16-byte words, as the scalar core's PC counts) and the text is the assembly syntax of
// bundle_syntax.h / packet_syntax.h. Words that cannot be segmented are listed as ".word 0x..."
// lines. Everything printed reassembles to the same words (assembler.h).
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "models/isa/segmenter.h"
#include "models/isa/word128.h"

namespace coralsim::isa {

struct DisassemblyOptions {
  bool comments = true;   // "// -> 0af3" after branches, reasons after .word lines, frame errors
  FrameRules frameRules;  // rules for the frame problems reported as comments
  // Extra comment lines after each packet ("//   " + line), e.g. the datapath's field table read
  // out (`coralsim disasm --fields`); the ISA layer does not know those tables.
  std::function<std::vector<std::string>(std::span<const Word128> packet)> packetNotes;
};

// The text of one packet (no address, no comment). `words` holds exactly that packet's words; a
// packet of unknown or truncated length must be given one word at a time (it prints as .word).
[[nodiscard]] std::string formatPacketText(std::span<const Word128> words);

// The listing of a whole bitstream, segmented leniently, one entry per packet or raw word.
[[nodiscard]] std::vector<std::string> disassembleLines(std::span<const Word128> words,
                                                        const DisassemblyOptions& options = {});

// disassembleLines joined with newlines (each line ends with '\n').
[[nodiscard]] std::string disassemble(std::span<const Word128> words, const DisassemblyOptions& options = {});

}  // namespace coralsim::isa
