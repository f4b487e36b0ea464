// The coralsim assembler: assembly text -> instruction words.
//
// It reads exactly what the disassembler prints (so disassemble -> assemble reproduces every word
// bit-exactly) plus a few conveniences for writing programs by hand:
//
//   // comment                       comments run from "//" to the end of the line
//   0012: <statement>                an address prefix: checked against the word being assembled
//   loop_top: <statement>            labels ([A-Za-z_.][A-Za-z0-9_.]*, followed by ':')
//   (p0) br loop_top                 branch offsets may name a label
//   .word 0x<hex>                    one raw word
//   .tileseq N                       the next tile packet's sequence number (default: counting
//                                    from 0; a tile packet without seq= takes the next one)
//   start                            START without body_bits= gets (total words - 2) x 128
//   program {                        frames the program: START (length computed) at "{", and
//     ...                            HALT final, 4 NOPs and END at "}"
//   }
//
// Statement syntax: bundle_syntax.h (scalar bundles), packet_syntax.h (every other packet).
// Errors are AsmError with the source name, line and column of the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/isa/word128.h"

namespace coralsim::isa {

class AsmError : public std::runtime_error {
 public:
  AsmError(std::string source, size_t line, size_t column, const std::string& message);

  [[nodiscard]] const std::string& source() const { return source_; }
  [[nodiscard]] size_t line() const { return line_; }
  [[nodiscard]] size_t column() const { return column_; }
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  std::string source_;
  size_t line_;
  size_t column_;
  std::string message_;
};

struct AssembledProgram {
  std::vector<Word128> words;
  std::map<std::string, uint32_t, std::less<>> labels;  // label -> word index
};

// Assembles `text`; `sourceName` names it in error messages ("demo.s:12:5: error: ...").
[[nodiscard]] AssembledProgram assemble(std::string_view text, std::string_view sourceName = "<input>");

}  // namespace coralsim::isa
