// The streamed product (docs/decoding-log.md "loom35"): a compute of one-byte input elements whose tiles hold
// nothing under its ComputeStreamTag takes its second operand from the read routed (0, 1) and marked
// Stage13TakenByCompute that its tiles issue right after it (looming 64^2's two MULs x * x @ 0x0111 / 0x0181,
// their reads @ 0x0122 / 0x0192: the compute waits for its stream). Its positions (the w0 nest's iterations)
// each take K = ComputeK4W0 + 1 one-byte elements (a packed K group, ComputeKCountOfPackedElements): the input's,
// walked by Nest37 as one run of bytes, and the stream's, K a position in order (Nest29 walks the same K bytes for
// every position: a register the stream refills). What the product writes is not fully decoded: looming's output nest
// covers one 4-byte unit per element, and how a unit's four lanes pair input and stream bytes (the outer product, its
// diagonal) is not known. Where every element but a position's first is the zero point on both sides (looming: the padded
// channels of a one-channel tensor) each such rule gives the same bytes, and the product is executed there
// (docs/decoding-log.md "loom13"); elsewhere it is refused naming the position and element.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "models/isa/word128.h"
#include "models/lle/requantizer.h"

namespace coralsim::lle {

struct StreamedProduct {
  uint64_t positions = 0;  // the w0 nest's iterations (ComputeLimitW0 levels 1-3)
  uint64_t elements = 0;   // K = ComputeK4W0 + 1 one-byte elements a position
  uint64_t inputAt = 0;    // the input's first byte: ComputeInputAt4 x 4 + ComputeInputByte

  // The product's shape from a compute packet of one-byte elements, or why its nests are not this form's
  // (a non-linear input walk, weight bytes that move between positions or levels above 3).
  [[nodiscard]] static std::variant<StreamedProduct, std::string> fromPacket(std::span<const isa::Word128> words);

  [[nodiscard]] uint64_t bytes() const { return positions * elements; }  // input bytes = stream bytes

  // The output units, one a K element (unit p x K + k, 4 lane bytes each), where no lane rule matters: element 0 of
  // position p gives requant((in - zpIn)(stream - zpWeight)) of the position's first bytes in lane 0 and requant(0) in
  // lanes 1-3; every other element requant(0) in all four. Or the first position and element whose input or stream
  // byte is not its zero point (the lanes would then depend on a rule not decoded).
  [[nodiscard]] std::variant<std::vector<uint8_t>, std::string> unitsWhereOnlyFirstElementsWeigh(
      std::span<const uint8_t> input, std::span<const uint8_t> stream, int32_t zpIn, int32_t zpWeight, const Requantizer& requant) const;
};

}  // namespace coralsim::lle
