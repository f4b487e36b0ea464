// Where a stream receive's transfers go: the kind code at w2[87:81] of the execution-only 0x11 and of the 0x12
// (lle_fields.def Recv11ExecKind, Recv12Kind; docs/decoding-log.md "mnv1d" §A). Over the corpus's 5,543 such
// receives it takes three values, each a form of the receive: 44 exactly where the 0x11's w2 bit 106 is clear (the
// rows it waits for, Recv11ExecWaitRows); 48 exactly in the receives whose run carries the block prefixes of the
// compute-feeding write just after them on their tiles ("nin14", block_prefix_write.h: 156 0x11s, 48 0x12s); 4 in
// every other (the stream its nest walks). Which of its bits says what is not decoded; read as one code, checked in
// both directions (a kind-48 receive must be taken by such a write, and such a write must follow a kind-48 receive).
// It moves no byte: the write after it places what the receive carries.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "models/isa/word128.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle {

inline constexpr uint64_t kReceiveKindStream = 4;         // bit 83: a stream its nest walks
inline constexpr uint64_t kReceiveKindWaitRows = 44;      // bits 86, 84, 83: rows it waits for (0x11, w2 bit 106 clear)
inline constexpr uint64_t kReceiveKindBlockPrefixes = 48;  // bits 86, 85: one prefix a block for the write after it

// The kind field of a receive packet: Recv11ExecKind for an execution-only 0x11, Recv12Kind for a 0x12; nullopt for
// any other packet (the parameter-caching 0x11 has no such code).
[[nodiscard]] std::optional<LleField> receiveKindField(uint8_t opcode, std::span<const isa::Word128> words);

// "" where the receive's kind code is the one its own form allows (44 with the 0x11's w2 bit 106 clear; otherwise 4,
// or 48 where it arms no prefixed stream, a 0x12's 4 only with its nest), else why not, naming the field.
[[nodiscard]] std::string receiveKindProblem(uint8_t opcode, std::span<const isa::Word128> words);

// True where the receive's code says its transfers are the block prefixes of the write after it (48).
[[nodiscard]] bool receiveCarriesBlockPrefixes(uint8_t opcode, std::span<const isa::Word128> words);

}  // namespace coralsim::lle
