// Undefined bytes (X) through a convolution compute (issue #12, the lead's decision of session 21;
// docs/decoding-log.md "convx"). A narrow byte no packet of the run wrote holds no value the program
// defines: model_conv's unstaged tiles compute on whatever SRAM holds, because the compiler staged only
// the grid whose results reach the output. The rung does not refuse such a compute: it runs it and
// marks every output position whose taps reach an unwritten byte as unwritten in turn (all the
// position's lane groups), so a later read meets it as undefined. Only an undefined byte reaching the
// host (the outfeed's read) is refused, as any unwritten byte is there.
// Plain C++ over the rung's memories.
#pragma once

#include <cstdint>
#include <vector>

#include "models/lle/addressed_memory.h"
#include "models/lle/conv_compute.h"

namespace coralsim::lle {

// Per output position (the output nest's order), whether an iteration of it reads an input unit with a
// byte no write of this run covered. Empty when every byte the input nest reaches was written.
[[nodiscard]] std::vector<bool> convUndefinedPositions(const ConvCompute& conv, const AddressedMemory& narrow);

// Marks the output units of the positions `undefined` flags as unwritten (each position's lane groups);
// returns how many positions it marked.
uint64_t forgetUndefinedPositions(const ConvCompute& conv, const std::vector<bool>& undefined, AddressedMemory& narrow);

}  // namespace coralsim::lle
