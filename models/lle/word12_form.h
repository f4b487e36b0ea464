// The form of the compute's word 12 (lle_fields.def ComputeCodeW12, ComputeImagePositionsOn / ...Again;
// docs/decoding-log.md "w12lo"). The rung reads none of these bits for the bytes (don't-care in a serial
// model), but a packet whose word 12 has a shape no corpus compute has says something not decoded, so it is
// refused naming the field: the code w12[31:27] is 0 or odd (bit 27 marks it written) in all 11,409 corpus
// computes, and so is the second code w12[35:32] (bit 32 marks it written, "trkfc" §A); bits 82 and 45 are one
// flag written twice, set exactly where word 12 carries the compute's image positions (w12[81:64] not 0) and clear only where w12[81:48] is zero (all of w12[127:46] is, in the corpus;
// the rung holds the flag to the two fields it marks and leaves the other bits to their own declarations).
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where word 12 has the decoded form; else the reason, naming the field.
[[nodiscard]] std::string word12FormProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
