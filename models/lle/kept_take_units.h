// The kept read's take count (lle_fields.def Stage13KeptTakeUnits, w4[58:43] of a kept read with w4 bit 59 and no records;
// docs/decoding-log.md "st13"): the read's bytes in 32-byte units, rounded up, where a compute on its tiles takes it (37 / 37
// corpus reads: 64 bytes -> 2 before the MobileNet v2 / deeplab 2-byte-input computes, 16 bytes -> 1 before 4-byte ones),
// 0xffff where none does (115 / 115: reads a send carries on). Not read for the bytes: the rung keeps the read by its nest.
// Checked here against the nest (either value), so that a count the read does not have is refused by name.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where Stage13KeptTakeUnits is absent, 0xffff, or ceil(the read's bytes / 32); else the refusal naming the field.
[[nodiscard]] std::string keptTakeUnitsProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
