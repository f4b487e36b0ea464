// Assembly syntax of the scalar bundle, both directions, generated from the bundle tables.
//
//   [(p0) | (!p3)]  slot ; slot ; ...     or   [(pN)] nop
//
// Slots (each at most once; any order when writing, ALU ; load ; store when printed):
//   ALU    s1 = add s2, 0x10    s1 = add s2, s3    p0 = lt s12, 0x0    s8 = mov 0x100
//          s4 = fmul s3, 28.0   s9 = i2f s9        s5 = alu.0x17 s1, s2 (ops without a name)
//   load   s3 = ld [0xfff]      s3 = ld [s4]       s7 = ld [s6], s6 += 1
//   store  mem[0x123] = s5      mem[s4] = s5       mem[s4] = s5, s4 += 1
//          stream s5            desc[1] = s7       push      st.op9 0x123, s5
//   other  hi=0xa53             (bits 127:102, the special-function slot)
//          extra=0x...          (bits the text above does not express, XORed in: keeps every
//                                word round-trippable, e.g. reserved bits or unused operands)
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "models/isa/scalar_bundle.h"
#include "models/isa/text_cursor.h"
#include "models/isa/word128.h"

namespace coralsim::isa {

// The bundle with every field the syntax cannot express cleared (e.g. the load destination of a
// bundle without a load). canonicalBundle(canonicalBundle(b)) == canonicalBundle(b).
[[nodiscard]] ScalarBundle canonicalBundle(const ScalarBundle& b);

// The full text of bundle word `w` (without address). assembleBundle(formatBundle(w)) == w.
[[nodiscard]] std::string formatBundle(const Word128& w);

// Predication/condition codes {gate, pred[3:1], polarity[4]} as a prefix: "" for 0, "(p0) ",
// "(!p3) "; nullopt when the code has bits set without the gate (not expressible as a prefix).
[[nodiscard]] std::optional<std::string> formatCondPrefix(uint8_t code);

// Parses an optional "(pN)" / "(!pN)" prefix; returns its 5-bit code (0 when absent).
[[nodiscard]] uint8_t parseCondPrefix(TextCursor& cursor);

// Parses the slots of a bundle (after the prefix) up to the end of the cursor's text.
[[nodiscard]] Word128 parseBundle(TextCursor& cursor, uint8_t cond);

// The ALU mnemonic of an op (from the table; "alu.0xNN" for ops without a name).
[[nodiscard]] std::string aluMnemonic(uint8_t aluOp);

}  // namespace coralsim::isa
