// The marks a source-side staging write carries beside its address (lle_fields.def Stage14WordThreeMark,
// Stage14WordThreeLevels, Stage14WordSixCode; docs/decoding-log.md "dense"): w3[100:97] is a thermometer code
// (0, 1, 3, 7 or 15 in every corpus 0x14) and w6[104:102] a code 1..4 that is 4 exactly where the thermometer
// is full -- the writes that take tile 0's broadcast of a vector (a Dense layer's input) to the other tiles.
// What they pace is not decoded; the write lands where its address says either way (the next compute on
// each destination tile reads its input there in all 107 corpus broadcasts), so the rung does not read them
// for the bytes. It checks only the shape the corpus shows, so a value never seen is refused by name.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// The refusal text for a 0x14 whose marks leave the corpus shape, "" when they keep it. In the kept-stream form
// the thermometer is Stage14WordThreeMark, Stage14KeptWriteW3Bit98 and Stage14KeptWriteW3High (w3[100:99]).
[[nodiscard]] std::string stage14LevelMarksProblem(std::span<const isa::Word128> words);

}  // namespace coralsim::lle
