// The packet envelope of the low-level datapath: which opcodes it accepts, and for each of their
// words the values the bits it does not decode may take (lle_envelope.def, generated from the
// supported templates by scripts/gen_lle_envelope.py). A packet outside the envelope is refused
// with a sentence naming opcode, PC, word and value: the rung never guesses what an undecoded
// field means.
#pragma once

#include <cstdint>
#include <string>

#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

// Opcodes the rung executes or passes through (fences); everything else is refused.
[[nodiscard]] bool acceptedOpcode(uint8_t opcode);

// "" when `packet` lies inside the envelope; otherwise why not.
[[nodiscard]] std::string checkEnvelope(const models::DecodedPacket& packet);

// The bits of word `word` of opcode `opcode` the rung decodes (cleared before the envelope check).
[[nodiscard]] isa::Word128 decodedBits(uint8_t opcode, unsigned word);

// The first envelope value of word `word` of `opcode` (all-zero words when the envelope has none):
// lets tests build in-envelope packets without template files.
[[nodiscard]] isa::Word128 envelopeValue(uint8_t opcode, unsigned word);

}  // namespace coralsim::lle
