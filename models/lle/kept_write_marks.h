// The marks a kept-stream write shares with the read it puts back (docs/decoding-log.md "twice14" §D): the write's
// thermometer w3[100:97] (Stage14WordThreeMark, Stage14KeptWriteW3Bit98, Stage14KeptWriteW3High) is 3 or 15, and the
// kept read it copies carries Stage13Flags (w6[35:32]) 4 or 8 with it: 15 exactly beside 8 (36 / 36 corpus pairs: the
// PoseNet 353x481 / 481x641 quant decoders, MobileNet v2 wo_fc 512^2 / 1024x512), 3 beside 4 (78 / 78: conv /
// depthwise 1024^2, the 16-channel decoders). One mark of the transfer on both packets; what it paces is not decoded
// (the source side's 15 goes with tile 0's broadcasts, "dense"). The write puts back the read's bytes either way, so
// the rung does not read it for the bytes; a pair off the corpus shape is refused naming both.
#pragma once

#include <span>
#include <string>

#include "models/isa/word128.h"

namespace coralsim::lle {

// "" where the kept-stream `write`'s thermometer and its kept `read`'s Stage13Flags are a corpus pair (3 / 4, 15 / 8);
// else the reason, naming both.
[[nodiscard]] std::string keptWriteMarksProblem(std::span<const isa::Word128> write, std::span<const isa::Word128> read);

}  // namespace coralsim::lle
